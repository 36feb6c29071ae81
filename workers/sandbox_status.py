"""What bwrap says on its status descriptor (`--json-status-fd`), read as it comes.

    { "child-pid": N, ...namespaces }   the sandbox exists: N is its pid 1, as the host sees
                                        it, the leader of the command's session and group
    { "exit-code": N }                  the command ran (it was executed) and ended with N

A sandbox whose command never ran (bwrap could not make a namespace, bind a root, find /bin/sh)
writes no exit code; its stderr is then bwrap's own, the reason. Keeps the end of stderr for
that sentence, and nothing else of the command's output.
"""

from __future__ import annotations

import json

from protocol.wire.frames import SANDBOX_FAILED
from workers.tasks import TaskError

# How much of the end of stderr is kept to name why a sandbox did not start: bwrap says it in
# one line; a bound keeps a chatty command's output from piling up here.
STDERR_KEPT = 2000


class SandboxFailed(TaskError):
    """The sandbox never ran the command; the message is bwrap's reason."""
    type = SANDBOX_FAILED


class SandboxStatus:
    def __init__(self) -> None:
        self.pid: int | None = None  # the sandbox's pid 1
        self.ran = False
        self._pending = b""
        self._stderr_end = b""

    def feed(self, data: bytes) -> None:
        self._pending += data
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            try:
                report = json.loads(line)
            except ValueError:
                continue
            if isinstance(report, dict):
                self.pid = report.get("child-pid", self.pid)
                self.ran = self.ran or "exit-code" in report

    def saw_stderr(self, data: bytes) -> None:
        self._stderr_end = (self._stderr_end + data)[-STDERR_KEPT:]

    def failure(self) -> SandboxFailed:
        """For a sandbox that never ran its command: bwrap's own last line."""
        lines = self._stderr_end.decode("utf-8", errors="replace").strip().splitlines()
        return SandboxFailed(lines[-1] if lines else "bwrap stopped without saying why")
