"""render_preview: one frame of a comp as PNG image content, drawn on the preview worker.

The preview worker is separate from the render workers and always warm, so a running render
never delays a preview; it is bounded by the preview deadline and the memory limit
(supervisor/render/preview_jobs.py). A preview of the same snapshot (`Engine.snapshot`'s id:
the engine's identity and revision), comp, time and size is served
from a small cache without touching a worker at all.
"""

from __future__ import annotations

import base64
import collections
import json
import threading

from protocol.model.keyframes import frame_time
from supervisor.engine.commands.lookup import find_comp
from supervisor.errors import CommandError
from supervisor.runtime.pool import JobFailed
from supervisor.render.frame_choice import chosen_frame
from supervisor.render.preview_jobs import draw_preview, why_not_drawn
from supervisor.mcp.tools.json_shapes import (INTEGER, NAME_OR_INDEX, NUMBER, STRING, array,
                                              described, record)
from supervisor.mcp.tools.registry import ToolError, ToolResult, tool
from protocol.cancel import Cancelled

CACHE_SIZE = 16  # previews are a few hundred KB each; 16 covers scrubbing back and forth
DEFAULT_MAX_SIDE = 960


class PreviewCache:
    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._entries: collections.OrderedDict = collections.OrderedDict()
        self._lock = threading.Lock()
        self.size = size

    def get(self, key):
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        return None

    def put(self, key, value) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


def _cache(session) -> PreviewCache:
    cache = getattr(session, "preview_cache", None)
    if cache is None:
        cache = session.preview_cache = PreviewCache()
    return cache


@tool("render_preview", "Preview a frame",
      "Render one frame of a comp and return it as a PNG image, with its comp, time, frame "
      "number and size as JSON: the frame a render writes, chosen by frame number or by a "
      "time (floored to the frame showing then). max_side limits the longer side (default "
      "960; 0 = full size). To see motion, render_filmstrip shows many frames in one image. "
      "Example: {\"comp\": \"Main\", \"time\": 1.5}.",
      {"comp": described(NAME_OR_INDEX, "comp id or name (default: the first comp)"),
       "time": {"type": "number", "minimum": 0,
                "description": "comp time in seconds, floored to its frame"},
       "frame": {"type": "integer", "minimum": 0,
                 "description": "comp frame number, from 0 (instead of time)"},
       "max_side": {"type": "integer", "minimum": 0},
       "transparent": {"type": "boolean", "description": "leave the background out"}},
      read_only=True, idempotent=True, lane="preview",
      output=record({"comp": STRING, "time": NUMBER, "frame": INTEGER, "width": INTEGER,
                     "height": INTEGER, "missing": array(STRING)},
                    ("comp", "time", "frame", "width", "height")))
def render_preview(args, ctx):
    try:  # confined: footage outside the roots is refused here (Engine.snapshot)
        snapshot_id, document = ctx.session.engine.snapshot()
    except CommandError as exc:
        raise ToolError(str(exc)) from None
    if not document["comps"]:
        raise ToolError("The project has no comps yet; create one with comp.new first.")
    try:
        comp = find_comp(document, args["comp"]) if "comp" in args else document["comps"][0]
        frame = chosen_frame(comp, args.get("time"), args.get("frame"))
    except CommandError as exc:
        raise ToolError(str(exc)) from None
    time = frame_time(frame, comp["frameRate"])
    max_side = args.get("max_side", DEFAULT_MAX_SIDE)
    transparent = bool(args.get("transparent", False))
    key = (snapshot_id, comp["id"], frame, max_side, transparent)
    cache = _cache(ctx.session)
    value = cache.get(key)
    if value is None:
        value = _render(ctx, document, snapshot_id, comp, time, max_side, transparent)
        cache.put(key, value)
    info = {"comp": comp["name"], "time": time, "frame": frame,
            "width": value["width"], "height": value["height"]}
    if value["missing"]:
        info["missing"] = value["missing"]
    return ToolResult([{"type": "image", "mimeType": "image/png",
                        "data": base64.b64encode(value["png"]).decode("ascii")},
                       {"type": "text", "text": json.dumps(info)}], structured=info)


def _render(ctx, document, snapshot_id, comp, time, max_side, transparent) -> dict:
    pool = ctx.session.pool
    try:
        return draw_preview(pool, snapshot_id, document, comp, time, max_side, transparent,
                            ctx.cancel)
    except JobFailed as exc:
        if ctx.cancel.cancelled:
            raise Cancelled(ctx.cancel.reason) from None
        raise ToolError(why_not_drawn(exc, pool, comp, time, "max_side")) from None
