"""What one piece of work started by a caller carries down into the engine, the render service
and the pool: its cancel scope (protocol/cancel.py) and where its progress goes.

An MCP call (supervisor/mcp/tools/registry.py's CallContext adds the session and the request
id), a `rendervisor render`, a `rendervisor preview` and each project of a watch pass make one;
nothing below them needs to know which front door it came through.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

from protocol.cancel import Cancel

# report_progress(progress, total, message): what the front door does with a report (an MCP
# notification, a task's status, a bar or a line). Rate limiting is the front door's business
# (supervisor/mcp/progress.py, supervisor/cli/display.py); that the counts only grow is
# Work.progress's, so every door gets them in order.
Progress = Callable[[float, "float | None", "str | None"], None]


@dataclass
class Work:
    cancel: Cancel = field(default_factory=Cancel)
    report_progress: Progress | None = None
    _progress_lock: threading.Lock = field(default_factory=threading.Lock, init=False,
                                           repr=False, compare=False)
    _last_progress: float | None = field(default=None, init=False, repr=False, compare=False)

    def progress(self, progress: float, total: float | None = None,
                 message: str | None = None) -> None:
        """Report progress, from any thread, as often as is natural: a count at or below the
        last one passed on is dropped (two workers' reports can cross on their way here), so
        the front door sees the counts only grow. A no-op when nobody asked for progress (no
        progressToken, --quiet)."""
        if self.report_progress is None:
            return
        with self._progress_lock:  # held while passing it on: no later count overtakes it
            if self._last_progress is not None and progress <= self._last_progress:
                return
            self._last_progress = progress
            self.report_progress(progress, total, message)
