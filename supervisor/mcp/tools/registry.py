"""What an MCP tool is, and the context one call of it runs in.

A tool module declares its tools with `@tool(...)`; importing `supervisor.mcp.tools` imports every
tool module, so `TOOLS` then holds the whole catalog. A handler is a plain function
`handler(args, ctx)` that runs on a supervisor lane thread. It returns:

- a dict: a JSON result, sent as `structuredContent` and as one text block holding the same JSON
  (`isError` when its `failed` count is above zero);
- a `ToolResult`: content blocks as they are (images, text);
- a str: one text block.

It raises `ToolError` with a sentence a person can act on for a failure; any other exception is
caught by the front door and reported as an isError result without a traceback.

Never block the reader thread from here: handlers only ever run on lane threads.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable


class ToolError(Exception):
    """A tool failed in a way the caller can act on; the message is the whole report."""


class Cancelled(Exception):
    """The call was cancelled (notifications/cancelled, stdin EOF, a signal); nothing is sent."""


@dataclass
class ToolResult:
    content: list[dict]
    structured: dict | None = None
    is_error: bool = False


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    input_schema: dict
    handler: Callable[[dict, "CallContext"], Any]
    # "quick", "long" (shells), "render" (a blocking render: the long lane, and it is let finish
    # on stdin EOF), or a function of the call's arguments returning one of those.
    lane: Any = "quick"
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    open_world: bool = False

    def lane_for(self, arguments: dict) -> str:
        return self.lane(arguments) if callable(self.lane) else self.lane

    def listing(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
            "annotations": {
                "title": self.title,
                "readOnlyHint": self.read_only,
                "destructiveHint": self.destructive,
                "idempotentHint": self.idempotent,
                "openWorldHint": self.open_world,
            },
        }


TOOLS: dict[str, Tool] = {}


def tool(name: str, title: str, description: str, properties: dict, required: tuple = (),
         **options: Any) -> Callable:
    """Register `handler(args, ctx)` as the tool `name`; `properties` are its JSON-schema
    properties (the schema always has additionalProperties: false)."""
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)

    def register(handler: Callable) -> Callable:
        if name in TOOLS:
            raise RuntimeError(f"tool {name} registered twice")
        TOOLS[name] = Tool(name, title, description, schema, handler, **options)
        return handler

    return register


@dataclass
class CallContext:
    """What a running tool call may use: the session, its cancel flag, and progress."""

    session: Any
    request_id: Any = None
    cancelled: threading.Event = field(default_factory=threading.Event)
    report_progress: Callable[[float, float | None, str | None], None] | None = None
    _on_cancel: list = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def progress(self, progress: float, total: float | None = None,
                 message: str | None = None) -> None:
        """Report progress; a no-op unless the caller sent a progressToken. Rate limiting and
        strict monotonicity are enforced by the front door, so call it as often as is natural."""
        if self.report_progress is not None:
            self.report_progress(progress, total, message)

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Run `callback` when the call is cancelled (at once if it already is): how a wait on a
        worker, a lock or a condition is woken rather than polled."""
        with self._lock:
            if not self.cancelled.is_set():
                self._on_cancel.append(callback)
                return
        callback()

    def cancel(self) -> None:
        with self._lock:
            if self.cancelled.is_set():
                return
            self.cancelled.set()
            callbacks, self._on_cancel = self._on_cancel, []
        for callback in callbacks:
            callback()

    def check_cancelled(self) -> None:
        if self.cancelled.is_set():
            raise Cancelled()
