"""The `shell` task: one command, in its own session, its output streamed back as it comes.

The command runs under /bin/sh in a new session (so it and its children form a process group
the supervisor can signal as one). Output goes to the supervisor as progress frames as soon as
it is read, so a command that is later killed still has its output reported. A cancel sends
SIGTERM to the group; escalation to SIGKILL of the whole tree belongs to the supervisor, which
does it from outside even if this worker is stuck.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import threading
import time

from workers.tasks import TaskError, task

READ_SIZE = 65536


@task("shell")
def run_shell(job):
    spec = job.payload
    env = dict(os.environ)
    env.update(spec.get("env") or {})
    cwd = spec.get("cwd") or None
    if cwd is not None and not os.path.isdir(cwd):
        raise TaskError(f"the working folder {cwd} does not exist; pass an existing cwd")
    try:
        process = subprocess.Popen(
            ["/bin/sh", "-c", spec["command"]], cwd=cwd, env=env,
            stdin=subprocess.PIPE if spec.get("stdin") is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    except OSError as exc:
        raise TaskError(f"the shell could not start: {exc.strerror}") from None
    job.progress({"pid": process.pid})

    def terminate_group() -> None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass

    job.cancel.on_cancel(terminate_group)  # at once if the cancel came first
    if spec.get("stdin") is not None:
        threading.Thread(target=_feed, args=(process.stdin, spec["stdin"].encode()),
                         daemon=True).start()
    _stream(process, job)
    return {"exit_code": process.wait()}


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


def _stream(process: subprocess.Popen, job) -> None:
    """Forward output until both pipes close and the command exits, or until DRAIN_AFTER_EXIT
    after it exits. The command's exit is watched through a pidfd and a cancel through the
    worker's socket, so nothing here wakes up just to poll; a command that closed its output
    is still waited on here, not in process.wait, where no cancel would reach it."""
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ, "stdout")
    selector.register(process.stderr, selectors.EVENT_READ, "stderr")
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
                data = os.read(key.fileobj.fileno(), READ_SIZE)
                if not data:
                    selector.unregister(key.fileobj)
                    open_streams -= 1
                    continue
                job.progress({"stream": key.data, "data": data})
    finally:
        selector.close()
        os.close(exit_fd)
