"""What one piece of work started by a caller carries down into the engine, the render service
and the pool: its cancel scope (protocol/cancel.py) and where its progress goes.

An MCP call (supervisor/mcp/tools/registry.py's CallContext adds the session and the request
id), a `rendervisor render`, a `rendervisor preview` and each project of a watch pass make one;
nothing below them needs to know which front door it came through.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from protocol.cancel import Cancel

# report_progress(progress, total, message): rate limiting and monotonicity are the front
# door's business (supervisor/mcp/progress.py, supervisor/cli/display.py), so call it freely.
Progress = Callable[[float, "float | None", "str | None"], None]


@dataclass
class Work:
    cancel: Cancel = field(default_factory=Cancel)
    report_progress: Progress | None = None

    def progress(self, progress: float, total: float | None = None,
                 message: str | None = None) -> None:
        """Report progress; a no-op when nobody asked for it (no progressToken, --quiet)."""
        if self.report_progress is not None:
            self.report_progress(progress, total, message)
