"""The engine's MCP tools: command_list, command_run, command_batch, doc_inspect; the JSON behind
the rendervisor://commands and rendervisor://document resources; and the catalog printer behind
`rendervisor commands [--json]`.

Each tool is a thin door onto the session's Engine (`ctx.session.engine`,
supervisor/engine/engine.py): the engine takes the document lock, checks params and records undo;
this module only maps tool arguments to engine calls and CommandError to ToolError. A call runs
in the quick lane unless it may wait on a worker: one that is (or a batch that holds) a blocking
render runs in the long lane, where the front door lets it finish on stdin EOF; one that draws
a frame (template.preview) in the preview lane; one that reads a file or measures text on a
probe worker (footage.import, a fontFile, captions.import: the command's `waits_on`) in the
probe lane; so no call waiting on a worker ever holds a quick-lane thread.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from supervisor.engine.commands.overview import document_overview
from supervisor.engine.commands.registry import (COLOR_FORMAT, COMMANDS, EASING_FORMAT,
                                                 GRADIENT_FORMAT)
from supervisor.errors import CommandError
from supervisor.engine.engine import Engine
from supervisor.mcp.output_links import finished_outputs, with_output_links
from supervisor.mcp.tools.json_shapes import (ANY_OBJECT, BOOLEAN, INTEGER, STRING, any_of,
                                              array, described, record)
from supervisor.mcp.tools.registry import CallContext, ToolError, ToolResult, tool


# How values are written, once for every command (each command's schema says which it takes).
VALUE_FORMATS = (f"Values: times in seconds, positions in comp pixels from the top-left; a color "
                 f"is {COLOR_FORMAT}; a shape's fill may be {GRADIENT_FORMAT}; a key's "
                 f"interpolation is {EASING_FORMAT}.")


def _engine(ctx: CallContext) -> Engine:
    return ctx.session.engine


def catalog_json(engine: Engine, filter: str | None = None, enabled_only: bool = False,
                 schemas: bool = False, compact: bool = False) -> dict:
    return engine.catalog(filter=filter, enabled_only=enabled_only, schemas=schemas,
                          compact=compact)


@tool("command_list", "List engine commands",
      "The engine command catalog: each command's id, title, description, params (optional ones "
      "marked ?), whether it changes the project, and whether it is enabled in this session. "
      "filter keeps commands whose id, title or description contains the text (e.g. 'layer.' "
      "or 'keyframe'); schemas adds each command's JSON schema; compact gives one line per "
      "command.",
      {"filter": {"type": "string", "description": "text to look for in id, title, description"},
       "enabled_only": {"type": "boolean", "description": "leave out commands this session "
                        "cannot run (default false)"},
       "schemas": {"type": "boolean", "description": "include each command's params schema "
                   "(default false)"},
       "compact": {"type": "boolean", "description": "one line per command (default false)"}},
      lane="quick", read_only=True, idempotent=True,
      output=record({"count": INTEGER,
                     "commands": array(any_of(STRING, ANY_OBJECT),
                                       "each command: an object, or one line when compact")},
                    ("count", "commands")))
def command_list(args: dict, ctx: CallContext) -> dict:
    return catalog_json(_engine(ctx), args.get("filter"), bool(args.get("enabled_only")),
                        bool(args.get("schemas")), bool(args.get("compact")))


# -- lanes: a blocking render runs in the long lane and is let finish on stdin EOF; a call that
# waits on the preview or a probe worker runs in that worker's lane ----------------------------

# Commands that render and block until done unless told otherwise (render service's business).
BLOCKING_RENDERS = {"renderQueue.render", "comp.saveFrameAs", "render.preRender",
                    "file.createProxy"}


def _renders(command_id: Any, params: Any) -> bool:
    """Whether a command call is a blocking render: renderQueue.render without wait:false,
    comp.saveFrameAs without queue, render.preRender, file.createProxy."""
    if command_id not in BLOCKING_RENDERS:
        return False
    params = params if isinstance(params, dict) else {}
    if command_id == "renderQueue.render":
        return params.get("wait", True) is not False
    if command_id == "comp.saveFrameAs":
        return not params.get("queue", False)
    return True


# When a batch's steps wait on several kinds of worker, the lane of the first kind listed.
LANE_ORDER = ("render", "preview", "probe")


def _lane(command_id: Any, params: Any) -> str:
    """The lane of one command call: "render" for a blocking render, else the worker kind it
    may wait on ("preview", "probe"), else "quick"."""
    if _renders(command_id, params):
        return "render"
    cmd = COMMANDS.get(command_id) if isinstance(command_id, str) else None
    return (cmd.waits_for(params) if cmd is not None else None) or "quick"


def command_run_lane(args: dict) -> str:
    return _lane(args.get("id"), args.get("params"))


def command_batch_lane(args: dict) -> str:
    steps = args.get("steps")
    steps = steps if isinstance(steps, list) else []
    lanes = {_lane(step.get("id"), step.get("params")) for step in steps
             if isinstance(step, dict)}
    return next((lane for lane in LANE_ORDER if lane in lanes), "quick")


@tool("command_run", "Run an engine command",
      "Run one engine command (see command_list) with its params (camelCase, as the catalog "
      "gives them) and return its JSON result (template.preview's picture as a PNG image). "
      "Commands that change the project are one undo step each (edit.undo). Comps, layers and "
      "items are named by id, by name, or (layers, items) by 1-based index. " + VALUE_FORMATS + " Example: {\"id\": \"layer.add\", "
      "\"params\": {\"comp\": \"Main\", \"type\": \"text\", \"text\": \"Hello\", "
      "\"size\": 96, \"fill\": \"#ffffff\"}}.",
      {"id": {"type": "string", "description": "the command id, e.g. layer.add"},
       "params": {"type": "object", "description": "the command's params"}},
      required=("id",), lane=command_run_lane, destructive=True, task_support="optional",
      output=described(ANY_OBJECT, "the command's own JSON result (command_list describes "
                                   "each command)"))
def command_run(args: dict, ctx: CallContext) -> dict | ToolResult:
    try:
        result = _engine(ctx).run(args["id"], args.get("params") or {}, ctx)
    except CommandError as error:
        raise ToolError(str(error)) from None
    if args["id"] in BLOCKING_RENDERS:  # what it wrote, as links beside the JSON
        return with_output_links(ctx.session, result, cancel=ctx.cancel)
    return shown(result)


def shown(result: dict) -> dict | ToolResult:
    """A command's result as the tool answers it: a picture it drew (template.preview's
    `image`) as image content, as render_preview gives one, the rest as JSON beside it."""
    image = result.get("image")
    if not isinstance(image, dict):
        return result
    rest = {key: value for key, value in result.items() if key != "image"}
    return ToolResult([{"type": "image", **image}, {"type": "text", "text": json.dumps(rest)}],
                      structured=rest)


@tool("command_batch", "Run engine commands in a batch",
      "Run several engine commands in order: steps [{id, params?}]. A string \"$N.key\" in a "
      "step's params is replaced by step N's (0-based) result at key (dotted for nested: "
      "\"$0.layer\", \"$1.items.0.output\"; \"$N\" alone is the whole result; a text such "
      "as the price \"$49\" is written \"$$49\"). stop_on_error "
      "(default true) skips the steps after a failure. atomic (default false) makes the batch "
      "one undo step and rolls the whole batch back if any step fails. Returns completed, "
      "failed and per-step results. Values are written as command_run says. Example: "
      "{\"steps\": [{\"id\": \"comp.new\", \"params\": {\"name\": \"Main\"}}, "
      "{\"id\": \"layer.add\", \"params\": {\"comp\": \"$0.comp\", \"type\": "
      "\"solid\", \"color\": \"#202830\"}}]}.",
      {"steps": {"type": "array", "description": "[{id, params?}, ...]",
                 "items": {"type": "object", "properties": {"id": {"type": "string"},
                                                             "params": {"type": "object"}},
                           "required": ["id"], "additionalProperties": False}},
       "stop_on_error": {"type": "boolean", "description": "skip the rest after a failure "
                         "(default true)"},
       "atomic": {"type": "boolean", "description": "all or nothing, one undo step "
                  "(default false)"}},
      required=("steps",), lane=command_batch_lane, destructive=True, task_support="optional",
      output=record({"completed": INTEGER, "failed": INTEGER,
                     "results": array(record({"step": INTEGER, "id": STRING,
                                              "status": {"type": "string", "enum": [
                                                  "done", "failed", "skipped", "rolledBack"]},
                                              "result": ANY_OBJECT, "error": STRING},
                                             ("step", "id", "status"))),
                     "rolledBack": BOOLEAN},
                    ("completed", "failed", "results")))
def command_batch(args: dict, ctx: CallContext) -> dict | ToolResult:
    stop_on_error = args.get("stop_on_error", True)
    try:
        report = _engine(ctx).batch(args["steps"], stop_on_error=bool(stop_on_error),
                                    atomic=bool(args.get("atomic", False)), work=ctx)
    except CommandError as error:
        raise ToolError(str(error)) from None
    outputs = [output for step in report["results"]
               if step["id"] in BLOCKING_RENDERS and step["status"] == "done"
               for output in finished_outputs(step["result"])]
    return with_output_links(ctx.session, report, outputs, cancel=ctx.cancel)


@tool("doc_inspect", "Inspect the project",
      "The project at a glance: name, file, unsaved changes, revision, undo depth, missing "
      "footage; each comp with its settings and layers (type, timing, transform, content, "
      "effects; animated properties as their first value and key count); footage; the render "
      "queue.",
      {}, lane="quick", read_only=True, idempotent=True,
      output=record({"project": ANY_OBJECT, "comps": array(ANY_OBJECT),
                     "footage": array(ANY_OBJECT), "renderQueue": array(ANY_OBJECT)},
                    ("project", "comps", "footage", "renderQueue")))
def doc_inspect(args: dict, ctx: CallContext) -> dict:
    return document_resource(ctx.session)


def document_resource(session: Any) -> dict:
    """rendervisor://document: the same JSON as doc_inspect."""
    engine = session.engine
    with engine.lock:
        return document_overview(engine)


def commands_resource(session: Any) -> dict:
    """rendervisor://commands: the same JSON as command_list with no arguments."""
    return catalog_json(session.engine)


def print_catalog(json_output: bool = False, stream: TextIO | None = None) -> None:
    """`rendervisor commands [--json]`: the catalog as JSON, or as lines grouped by family.
    Render commands are listed as available: a CLI reader asks what rendervisor can do, not
    what one session without a render service can."""
    stream = stream or sys.stdout
    catalog = Engine().catalog(schemas=json_output)
    for entry in catalog["commands"]:
        entry.pop("enabled", None)
        entry.pop("disabledReason", None)
    if json_output:
        stream.write(json.dumps(catalog, indent=2) + "\n")
        return
    family = None
    width = max(len(entry["id"]) for entry in catalog["commands"])
    for entry in catalog["commands"]:
        prefix = entry["id"].split(".", 1)[0]
        if prefix != family:
            if family is not None:
                stream.write("\n")
            family = prefix
        params = f"{{{entry['params']}}}" if entry["params"] else ""
        stream.write(f"{entry['id']:<{width}}  {entry['title']}  {params}".rstrip() + "\n")
