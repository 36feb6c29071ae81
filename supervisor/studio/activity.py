"""The calls in flight and the last ones that ended, as the studio shows them, kept from the
MCP server's call events (supervisor/call_events.py).

`Activity` is the watcher the server is given: each event takes a small lock and changes a
dict, never more, because it is called on the stdin reader and the lanes. Everything that costs
(summing up a call's arguments, which may hold a file's whole text) happens when the page's
stream reads `view()`, on the studio's own thread.
"""

from __future__ import annotations

import collections
import json
import threading
from typing import Any, Callable

from supervisor.call_events import CallEnded, CallEvent, CallProgressed, CallStarted

# Ended calls kept for the page: enough to see what an agent just did, and a bound on memory.
RECENT = 30
# A summary of a call's arguments, or of its result, at most this many characters: the page
# shows a line, and an argument may be a whole file.
SUMMARY_CHARS = 400
# How far into the arguments a summary looks: nested values past it are shown as "…".
SUMMARY_DEPTH = 4
SUMMARY_ITEMS = 12  # keys of a dict, items of a list
SUMMARY_STRING = 160


class Activity:
    def __init__(self, on_change: Callable[[], None] = lambda: None) -> None:
        self._on_change = on_change
        self._lock = threading.Lock()
        self._running: dict[Any, dict] = {}
        self._ended: collections.deque = collections.deque(maxlen=RECENT)

    def __call__(self, event: CallEvent) -> None:
        with self._lock:
            if isinstance(event, CallStarted):
                self._running[event.key] = {"event": event, "progress": None, "summary": None}
            elif isinstance(event, CallProgressed):
                entry = self._running.get(event.key)
                if entry is not None:
                    entry["progress"] = event
            elif isinstance(event, CallEnded):
                entry = self._running.pop(event.key, None)
                if entry is not None:
                    self._ended.appendleft((entry, event))
        self._on_change()

    def view(self) -> dict:
        """{calls: in flight, oldest first; recent: ended, newest first}, as JSON values."""
        with self._lock:
            running = list(self._running.values())
            ended = list(self._ended)
        return {"calls": [_call(entry) for entry in running],
                "recent": [{**_call(entry), "outcome": event.outcome,
                            "text": _clipped(event.text), "ended": event.at}
                           for entry, event in ended]}


def _call(entry: dict) -> dict:
    started: CallStarted = entry["event"]
    if entry["summary"] is None:  # once per call, on the studio's thread
        entry["summary"] = summary(started.arguments)
    shown = {"key": started.key, "tool": started.tool, "lane": started.lane,
             "arguments": entry["summary"], "started": started.at}
    progress: CallProgressed | None = entry["progress"]
    if progress is not None:
        shown.update(progress=progress.progress, total=progress.total,
                     message=progress.message)
    return shown


def summary(value: Any) -> str:
    """A call's arguments as one line of JSON, bounded however large they are."""
    try:
        text = json.dumps(_bounded(value, SUMMARY_DEPTH), ensure_ascii=False)
    except (TypeError, ValueError, RuntimeError):  # a value changed while read, or not JSON
        text = "…"
    return _clipped(text)


def _bounded(value: Any, depth: int) -> Any:
    if isinstance(value, str):
        return value if len(value) <= SUMMARY_STRING else value[:SUMMARY_STRING] + "…"
    if isinstance(value, dict):
        if depth == 0:
            return "…"
        items = list(value.items())
        shown = {str(key): _bounded(item, depth - 1) for key, item in items[:SUMMARY_ITEMS]}
        if len(items) > SUMMARY_ITEMS:
            shown["…"] = f"{len(items) - SUMMARY_ITEMS} more"
        return shown
    if isinstance(value, list):
        if depth == 0:
            return "…"
        shown = [_bounded(item, depth - 1) for item in value[:SUMMARY_ITEMS]]
        return shown + ([f"… {len(value) - SUMMARY_ITEMS} more"]
                        if len(value) > SUMMARY_ITEMS else [])
    return value


def _clipped(text: str) -> str:
    return text if len(text) <= SUMMARY_CHARS else text[:SUMMARY_CHARS] + "…"
