"""The `shell` task: one command, in its own session, its output streamed back as it comes.

The command runs under /bin/sh in a new session (so it and its children form a process group
the supervisor can signal as one), either on the host or, when the payload carries a sandbox,
under bubblewrap (the supervisor's supervisor/confinement/sandbox_arguments.py says what it
sees). Output goes to the supervisor as progress frames as soon as it is read, so a command
that is later killed still has its output reported. A cancel sends SIGTERM to the command's
group; escalation to SIGKILL of the whole tree belongs to the supervisor, which does it from
outside even if this worker is stuck. A sandbox is a PID namespace: killing its pid 1 ends
every process in it, a setsid grandchild too.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import threading
import time

from workers.sandbox_status import SandboxStatus
from workers.tasks import TaskError, task

READ_SIZE = 65536


@task("shell")
def run_shell(job):
    spec = job.payload
    sandbox = spec.get("sandbox")
    status = SandboxStatus() if sandbox else None
    if sandbox:
        command, env, pass_fds, status_read = sandboxed_command(spec, sandbox)
        cwd = None  # bwrap's --chdir, inside the sandbox
    else:
        command = ["/bin/sh", "-c", spec["command"]]
        env = {**os.environ, **(spec.get("env") or {})}
        pass_fds: tuple[int, ...] = ()
        cwd = spec.get("cwd") or None
        if cwd is not None and not os.path.isdir(cwd):
            raise TaskError(f"the working folder {cwd} does not exist; pass an existing cwd")
    try:
        process = subprocess.Popen(
            command, cwd=cwd, env=env, pass_fds=pass_fds,
            stdin=subprocess.PIPE if spec.get("stdin") is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    except OSError as exc:
        raise TaskError(f"the shell could not start: {exc.strerror}") from None
    finally:
        for fd in pass_fds:
            os.close(fd)
    job.command_started(process.pid)

    def terminate_group() -> None:
        # Sandboxed, the command's group is led by the sandbox's pid 1 (which ignores SIGTERM
        # from outside); before bwrap names it, ending bwrap ends the sandbox it is making.
        leader = status.pid if status is not None and status.pid else process.pid
        try:
            os.killpg(leader, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass

    job.cancel.on_cancel(terminate_group)  # at once if the cancel came first
    if spec.get("stdin") is not None:
        threading.Thread(target=_feed, args=(process.stdin, spec["stdin"].encode()),
                         daemon=True).start()
    try:
        _stream(process, job, status, status_read if sandbox else None)
        exit_code = process.wait()
    finally:
        if sandbox:
            os.close(status_read)
    # bwrap exits without reaping the sandbox's pid 1: it re-parents to this worker (a
    # subreaper), whose retirement after the job reaps it with the rest of its tree.
    if status is not None and not status.ran and not job.cancel.cancelled:
        raise status.failure()
    return {"exit_code": exit_code}


def sandboxed_command(spec: dict, sandbox: dict) -> tuple[list[str], dict, tuple[int, ...], int]:
    """bwrap's command line, its environment, the descriptors it inherits, and the read end of
    its status pipe.

    bwrap itself runs on the host, with the server's rights, before it makes the sandbox: it
    gets no variable of the call (LD_PRELOAD would load a library into it there). The
    command's environment reaches the command through --args, a descriptor, so no value shows
    in the host's process list either."""
    options = ["--clearenv"]
    for name, value in {**sandbox["env"], **(spec.get("env") or {})}.items():
        options += ["--setenv", name, value]
    status_read, status_write = os.pipe()
    arguments = _filled_file(b"".join(option.encode() + b"\0" for option in options))
    seccomp = _filled_file(sandbox["seccomp"])
    bwrap, *rest = sandbox["arguments"]
    command = [bwrap, "--args", str(arguments), "--json-status-fd", str(status_write),
               "--seccomp", str(seccomp), *rest, "/bin/sh", "-c", spec["command"]]
    return command, {}, (arguments, status_write, seccomp), status_read


def _filled_file(data: bytes) -> int:
    """A descriptor of an anonymous file holding `data`, read from its start: what bwrap reads
    its --args and --seccomp from. Not a pipe: a large environment would fill a pipe's buffer
    before bwrap starts reading it."""
    fd = os.memfd_create("rendervisor-sandbox")
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _feed(pipe, data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except OSError:  # the command exited without reading all of its input
        pass


# After the command itself exits, how long a background child that kept the output pipes open
# may go on writing before we stop listening: long enough to collect a last burst, short enough
# that `cmd &` does not hold the call open until its timeout.
DRAIN_AFTER_EXIT = 0.2


def _stream(process: subprocess.Popen, job, status: SandboxStatus | None,
            status_fd: int | None) -> None:
    """Forward output until both pipes close and the command exits, or until DRAIN_AFTER_EXIT
    after it exits, and feed bwrap's status to `status`. The command's exit is watched through
    a pidfd and a cancel through the worker's socket, so nothing here wakes up just to poll; a
    command that closed its output is still waited on here, not in process.wait, where no
    cancel would reach it."""
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ, "stdout")
    selector.register(process.stderr, selectors.EVENT_READ, "stderr")
    if status_fd is not None:
        selector.register(status_fd, selectors.EVENT_READ, "status")
    exit_fd = os.pidfd_open(process.pid)
    selector.register(exit_fd, selectors.EVENT_READ, "exit")
    # A cancel frame wakes the wait: the job takes it, and its scope SIGTERMs the group.
    selector.register(job.cancel_fd(), selectors.EVENT_READ, "cancel")
    open_streams = 2
    exited = False
    drain_until = None
    try:
        while open_streams or not exited:
            timeout = None if drain_until is None else drain_until - time.monotonic()
            if timeout is not None and timeout <= 0:
                break
            for key, _ in selector.select(timeout):
                if key.data == "cancel":
                    job.listen()
                    continue
                if key.data == "exit":
                    selector.unregister(exit_fd)
                    exited = True
                    drain_until = time.monotonic() + DRAIN_AFTER_EXIT
                    continue
                fd = key.fd
                data = os.read(fd, READ_SIZE)
                if not data:
                    selector.unregister(fd)
                    if key.data != "status":
                        open_streams -= 1
                    continue
                if key.data == "status":
                    status.feed(data)
                    continue
                if status is not None and key.data == "stderr":
                    status.saw_stderr(data)
                job.progress({"stream": key.data, "data": data})
        if status_fd is not None:
            _read_rest(status_fd, status)
    finally:
        selector.close()
        os.close(exit_fd)


def _read_rest(status_fd: int, status: SandboxStatus) -> None:
    """The status bwrap wrote as it exited ({"exit-code": N}). bwrap alone holds the pipe's
    other end (the sandbox never gets it), so once bwrap has exited this read cannot block;
    until then it waits for bwrap's exit, which follows its command's at once."""
    while True:
        data = os.read(status_fd, READ_SIZE)
        if not data:
            return
        status.feed(data)
