"""What a front door tells a watcher about its calls: one started, one moved on, one ended.

The MCP server (supervisor/mcp/server.py) sends these to the watcher it was given, and the
studio (supervisor/studio/) keeps the calls in flight and the last ones that ended from them,
so neither knows the other: the events are the whole interface.

A watcher is called on the thread where the thing happened: the stdin reader for a start, a
lane thread for progress and ends. It must return at once (take a small lock, set a field,
wake a loop) and never raise; it must never block, wait on a lock held by work, or do I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class CallStarted:
    key: Any  # names the call from start to end, task or not; what the server's stop_call takes
    tool: str
    arguments: dict  # the call's own arguments, not copied: a watcher reads, never changes them
    lane: str
    at: float  # time.time() when it was accepted


@dataclass(frozen=True)
class CallProgressed:
    key: Any
    progress: float
    total: float | None
    message: str | None


@dataclass(frozen=True)
class CallEnded:
    key: Any
    outcome: str  # "done", "error" (an isError result) or "cancelled" (no answer was sent)
    text: str  # the result's first text, or the error's sentence; "" when cancelled
    at: float


CallEvent = CallStarted | CallProgressed | CallEnded
CallWatcher = Callable[[CallEvent], None]
