"""The shell tool: a command on a shell worker, in its own session, its tree killed on timeout
or cancel. The output arrives as it is produced (so it survives a kill), is capped here with a
note saying how much was cut, and is streamed as progress messages when the caller asked.

Which shell a session has (off, a bubblewrap sandbox bound to the roots, or the host) is the
session's ShellPolicy (supervisor/confinement/shell_policy.py); this module asks it whether a
call may run, where it starts, and what its sandbox is, and lists its sentence in the tool's
description."""

from __future__ import annotations

import time

from protocol.cancel import TIMEOUT, Cancel, Cancelled
from protocol.wire import frames
from supervisor.confinement.roots import ConfinementError, shown
from supervisor.mcp.tools.json_shapes import BOOLEAN, INTEGER, NUMBER, STRING, nullable, record
from supervisor.mcp.tools.registry import ToolError, tool
from supervisor.runtime.pool import JobFailed

DEFAULT_TIMEOUT = 120.0
MAX_TIMEOUT = 600.0
# What is kept of each stream: its start and its end, where errors and summaries usually are.
HEAD_BYTES = 10_000
TAIL_BYTES = 20_000


class CappedOutput:
    """Keeps the first HEAD_BYTES and the last TAIL_BYTES of a stream, and counts the rest."""

    def __init__(self) -> None:
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = HEAD_BYTES - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            if len(self.tail) > TAIL_BYTES:
                del self.tail[:len(self.tail) - TAIL_BYTES]

    def text(self) -> str:
        cut = self.total - len(self.head) - len(self.tail)
        if cut <= 0:
            return (bytes(self.head) + bytes(self.tail)).decode("utf-8", errors="replace")
        return (self.head.decode("utf-8", errors="replace")
                + f"\n[... {cut:,} bytes cut from the middle of {self.total:,} ...]\n"
                + self.tail.decode("utf-8", errors="replace"))


DESCRIPTION = (
    "Run a command with /bin/sh in its own session. timeout is in seconds (default 120, at most "
    "600); on timeout or cancel the whole process tree is killed. stdout and stderr are capped, "
    "with a note saying how much was cut. The server's instructions say what this session "
    "allows. Example: {\"command\": \"ffprobe -hide_banner clip.mp4\", \"cwd\": "
    "\"/abs/folder\"}.")


def describe(session) -> str:
    """The description this session lists: what every session's shell does, and which shell
    this one has (ShellPolicy.describe)."""
    return f"{DESCRIPTION} {session.shell.describe()}"


@tool("shell", "Run a shell command", DESCRIPTION,
      {"command": {"type": "string"}, "cwd": {"type": "string"},
       "timeout": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_TIMEOUT},
       "env": {"type": "object", "additionalProperties": {"type": "string"}},
       "stdin": {"type": "string"}},
      required=("command",), lane="long", destructive=True, open_world=True,
      describe=describe, task_support="optional",
      output=record({"exit_code": nullable(INTEGER), "stdout": STRING, "stderr": STRING,
                     "timed_out": BOOLEAN, "duration_s": NUMBER},
                    ("exit_code", "stdout", "stderr", "timed_out", "duration_s")))
def shell(args, ctx):
    policy = ctx.session.shell
    try:
        policy.refuse_unusable()
        cwd = policy.working_folder(args.get("cwd"))
    except ConfinementError as exc:
        raise ToolError(str(exc)) from None
    timeout = float(args.get("timeout", DEFAULT_TIMEOUT))  # within its bounds: the schema's
    env = args.get("env") or {}
    if not all(isinstance(value, str) for value in env.values()):
        raise ToolError("env values must be strings.")
    for name, value in env.items():
        if not name or "=" in name or "\x00" in name + value:
            raise ToolError(f"env {shown(name)} is refused: a variable's name must be "
                            "non-empty without '=', and neither it nor its value may hold a "
                            "NUL byte.")
    streams = {"stdout": CappedOutput(), "stderr": CappedOutput()}
    lines_seen = 0

    def on_output(data) -> None:
        nonlocal lines_seen
        if not isinstance(data, dict) or data.get("stream") not in streams:
            return
        streams[data["stream"]].add(data["data"])
        lines = data["data"].decode("utf-8", errors="replace").splitlines()
        if lines:
            lines_seen += len(lines)
            ctx.progress(lines_seen, None, lines[-1])

    # The command's own scope: the call's cancel reaches it, and its timeout is its deadline.
    command = ctx.cancel.child(timeout)
    started = time.monotonic()
    timed_out = False
    exit_code = None
    try:
        exit_code = run_command(ctx.session, command, args["command"], cwd, env,
                                args.get("stdin"), on_output)
    except ConfinementError as exc:
        raise ToolError(str(exc)) from None
    except JobFailed as exc:
        if ctx.cancel.cancelled:
            raise Cancelled(ctx.cancel.reason) from None
        if exc.reason == frames.SANDBOX_FAILED:
            raise ToolError(f"The sandbox could not start: {exc}.") from None
        if exc.reason != TIMEOUT:
            raise ToolError(f"The shell command did not finish: {exc}.") from None
        timed_out = True
    finally:
        command.close()
    return {"exit_code": exit_code, "stdout": streams["stdout"].text(),
            "stderr": streams["stderr"].text(), "timed_out": timed_out,
            "duration_s": round(time.monotonic() - started, 3)}


def run_command(session, cancel: Cancel, command: str, cwd: str | None, env: dict,
                stdin: str | None, on_output=None) -> int:
    """Run `command` on a shell worker, sandboxed when the session's shell is, and return its
    exit code; JobFailed when it did not finish, ConfinementError when its sandbox could not be
    prepared."""
    with session.shell.sandbox(cwd) as sandbox:
        value = session.pool.run(
            "shell", "shell",
            {"command": command, "cwd": cwd, "env": env, "stdin": stdin, "sandbox": sandbox},
            cancel=cancel, on_progress=on_output)
    return value["exit_code"]


# How long the sandbox's first start may take: bwrap starts in milliseconds, but a loaded
# machine may first fork the shell worker; past this the sandbox counts as not starting.
SANDBOX_CHECK_DEADLINE = 30.0


def check_sandbox(session) -> None:
    """Start the session's sandbox once with `true`, so a sandbox that cannot run here (user
    namespaces not allowed, a bubblewrap too old) is refused from the first call and the tool's
    description says so. Called once, at start."""
    policy = session.shell
    if policy.mode != "sandbox" or policy.refusal is not None:
        return
    scope = Cancel(time.monotonic() + SANDBOX_CHECK_DEADLINE)
    try:
        exit_code = run_command(session, scope, "true", policy.working_folder(None), {}, None)
    except ConfinementError as exc:
        policy.refusal = str(exc)
    except JobFailed as exc:
        policy.sandbox_failed(str(exc))
    else:
        if exit_code != 0:
            policy.sandbox_failed(f"true exited with {exit_code} inside the sandbox")
    finally:
        scope.close()
