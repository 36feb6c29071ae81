"""The shell tool: a command on a shell worker, in its own session, its tree killed on timeout
or cancel. The output arrives as it is produced (so it survives a kill), is capped here with a
note saying how much was cut, and is streamed as progress messages when the caller asked."""

from __future__ import annotations

import time

from supervisor.confinement.roots import SHELL_WHILE_CONFINED, ConfinementError
from supervisor.runtime.pool import JobFailed
from supervisor.mcp.tools.registry import ToolError, tool
from protocol.cancel import TIMEOUT, Cancelled

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


@tool("shell", "Run a shell command",
      "Run a command with /bin/sh in its own session. timeout is in seconds (default 120, at "
      "most 600); on timeout or cancel the whole process tree is killed. stdout and stderr are "
      "capped, with a note saying how much was cut. Confinement (--read-root, --write-root): "
      f"{SHELL_WHILE_CONFINED}; the server's instructions say what this session allows. "
      'Example: {"command": "ffprobe -hide_banner clip.mp4", "cwd": "/abs/folder"}.',
      {"command": {"type": "string"}, "cwd": {"type": "string"},
       "timeout": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_TIMEOUT},
       "env": {"type": "object", "additionalProperties": {"type": "string"}},
       "stdin": {"type": "string"}},
      required=("command",), lane="long", destructive=True, open_world=True)
def shell(args, ctx):
    try:
        ctx.session.confinement.refuse_shell()
    except ConfinementError as exc:
        raise ToolError(str(exc)) from None
    timeout = float(args.get("timeout", DEFAULT_TIMEOUT))
    if not 0 < timeout <= MAX_TIMEOUT:
        raise ToolError(f"timeout must be above 0 and at most {MAX_TIMEOUT:.0f} seconds.")
    env = args.get("env") or {}
    if not all(isinstance(value, str) for value in env.values()):
        raise ToolError("env values must be strings.")
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
        value = ctx.session.pool.run(
            "shell", "shell",
            {"command": args["command"], "cwd": args.get("cwd"), "env": env,
             "stdin": args.get("stdin")},
            cancel=command, on_progress=on_output)
        exit_code = value["exit_code"]
    except JobFailed as exc:
        if ctx.cancel.cancelled:
            raise Cancelled(ctx.cancel.reason) from None
        if exc.reason != TIMEOUT:
            raise ToolError(f"The shell command did not finish: {exc}.") from None
        timed_out = True
    finally:
        command.close()
    return {"exit_code": exit_code, "stdout": streams["stdout"].text(),
            "stderr": streams["stderr"].text(), "timed_out": timed_out,
            "duration_s": round(time.monotonic() - started, 3)}
