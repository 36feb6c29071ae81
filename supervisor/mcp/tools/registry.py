"""What an MCP tool is, and the context one call of it runs in.

A tool module declares its tools with `@tool(...)`; importing `supervisor.mcp.tools` imports every
tool module, so `TOOLS` then holds the whole catalog. A handler is a plain function
`handler(args, ctx)` that runs on a supervisor lane thread. It returns:

- a dict: a JSON result, sent as `structuredContent` and as one text block holding the same JSON
  (`isError` when its `failed` count is above zero);
- a `ToolResult`: content blocks as they are (images, text), with its JSON beside them;
- a str: one text block.

A tool that answers JSON declares its shape (`output`, a JSON schema; json_shapes.py builds
them), and every answer it gives validates against it: clients check structuredContent
against outputSchema, and the tests check every tool's.

It raises `ToolError` with a sentence a person can act on for a failure, and
protocol/cancel.py's `Cancelled` when its call was cancelled (nothing is sent then); any other
exception is caught by the front door and reported as an isError result without a traceback.

Never block the reader thread from here: handlers only ever run on lane threads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from supervisor.work import Work


class ToolError(Exception):
    """A tool failed in a way the caller can act on; the message is the whole report."""


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
    # describe(session) -> the description a session lists, where it depends on the session
    # (the shell: off, sandboxed or on the host); None lists `description` as it is.
    describe: Callable[[Any], str] | None = None
    # The JSON schema of the tool's structuredContent; None for a tool that answers text alone.
    output: dict | None = None
    # Whether a 2025-11-25 client may run the call as a task ("optional": long work, which a
    # host's request timeout could otherwise cut short; "forbidden": quick answers).
    task_support: str = "forbidden"
    # The tool's `_meta` in tools/list: {"ui": {"resourceUri": ...}} ties it to an MCP App
    # (supervisor/mcp/player_app.py).
    meta: dict | None = None

    def lane_for(self, arguments: dict) -> str:
        return self.lane(arguments) if callable(self.lane) else self.lane

    def listing(self, session: Any = None, modern: bool = False) -> dict:
        """The tool as tools/list gives it. `execution` is the 2025-11-25 tasks' field; the
        2026-07-28 revision has none (there the server decides which calls become tasks)."""
        described = self.describe is not None and session is not None
        listed = {
            "name": self.name,
            "title": self.title,
            "description": self.describe(session) if described else self.description,
            "inputSchema": self.input_schema,
            "annotations": {
                "title": self.title,
                "readOnlyHint": self.read_only,
                "destructiveHint": self.destructive,
                "idempotentHint": self.idempotent,
                "openWorldHint": self.open_world,
            },
            **({"_meta": self.meta} if self.meta is not None else {}),
        }
        if self.output is not None:
            listed["outputSchema"] = self.output
        if not modern:
            listed["execution"] = {"taskSupport": self.task_support}
        return listed


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
class CallContext(Work):
    """What a running tool call may use: its Work (cancel scope, progress), the session, and
    the request id it answers."""

    session: Any = None
    request_id: Any = None
