"""render_filmstrip: frames across a comp on one labelled contact sheet (PNG image content),
with JSON listing them; drawn by supervisor/render/filmstrip.py on the preview worker and idle
render workers, each frame bounded by the preview deadline."""

from __future__ import annotations

import base64
import json

from supervisor.engine.commands.lookup import find_comp
from supervisor.errors import CommandError
from supervisor.mcp.player_app import SHOWN_IN_PLAYER
from supervisor.mcp.tools.json_shapes import INTEGER, NUMBER, STRING, array, record
from supervisor.mcp.tools.registry import ToolError, ToolResult, tool
from supervisor.render.filmstrip import (DEFAULT_COLUMNS, DEFAULT_COUNT, DEFAULT_MAX_SIDE,
                                         MAX_FRAMES, draw_filmstrip, filmstrip_frames)


@tool("render_filmstrip", "Filmstrip of a comp",
      f"See an animation at a glance: {DEFAULT_COUNT} frames (count, up to {MAX_FRAMES}) spread "
      "from the comp's first frame to its last, or the frames at the given times, on ONE PNG "
      "contact sheet, each cell labelled with its time and frame number, plus JSON {comp, "
      "frames: [{time, frame, row, column}], columns, rows, width, height}. One call instead "
      "of a render_preview per moment; check the result with layout_check. Example: {\"comp\": "
      "\"Main\", \"times\": [0, 0.5, 1, 2]}.",
      {"comp": {"type": "string", "description": "comp id or name"},
       "count": {"type": "integer", "minimum": 1, "maximum": MAX_FRAMES,
                 "description": f"frames spread evenly over the comp (default {DEFAULT_COUNT})"},
       "times": {"type": "array", "items": {"type": "number", "minimum": 0},
                 "description": "comp times in seconds to show instead (each floored to its "
                                "frame), e.g. [0, 0.5, 1.5]"},
       "columns": {"type": "integer", "minimum": 1,
                   "description": f"cells per row (default {DEFAULT_COLUMNS}, or 3 when "
                                  "that fills the rows better)"},
       "max_side": {"type": "integer", "minimum": 256, "maximum": 4096,
                    "description": f"the sheet's longer side in px (default {DEFAULT_MAX_SIDE})"}},
      required=("comp",), read_only=True, idempotent=True, lane="preview",
      task_support="optional",
      output=record({"comp": STRING,
                     "frames": array(record({"time": NUMBER, "frame": INTEGER, "row": INTEGER,
                                             "column": INTEGER},
                                            ("time", "frame", "row", "column"))),
                     "columns": INTEGER, "rows": INTEGER, "width": INTEGER, "height": INTEGER,
                     "cellWidth": INTEGER, "cellHeight": INTEGER, "missing": array(STRING)},
                    ("comp", "frames", "columns", "rows", "width", "height")),
      meta=SHOWN_IN_PLAYER)
def render_filmstrip(args, ctx):
    try:  # confined: footage outside the roots is refused here (Engine.snapshot)
        snapshot_id, document = ctx.session.engine.snapshot()
        comp = find_comp(document, args["comp"])
        if "count" in args and "times" in args:
            raise CommandError("give count or times, not both.")
        frames = filmstrip_frames(comp, args.get("count"), args.get("times"))
        sheet = draw_filmstrip(ctx.session.pool, snapshot_id, document, comp, frames,
                               args.get("columns"), args.get("max_side"), ctx.cancel)
    except CommandError as exc:
        raise ToolError(str(exc)) from None
    info = sheet["info"]
    return ToolResult([{"type": "image", "mimeType": "image/png",
                        "data": base64.b64encode(sheet["png"]).decode("ascii")},
                       {"type": "text", "text": json.dumps(info)}], structured=info)
