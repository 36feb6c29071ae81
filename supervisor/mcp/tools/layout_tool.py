"""layout_check: the layout mistakes of a comp (off the canvas, outside title-safe, text that
overflows its box, is too small, does not stand out from what is behind it or overlaps other
text, and stretches where almost nothing shows), found by supervisor/render/layout_check.py
on the preview worker and idle render workers."""

from __future__ import annotations

from supervisor.engine.commands.lookup import find_comp
from supervisor.errors import CommandError
from supervisor.mcp.tools.json_shapes import NUMBER, STRING, array, described, record
from supervisor.mcp.tools.registry import ToolError, tool
from supervisor.render.layout_check import MAX_MOMENTS, check_layout


@tool("layout_check", "Check a comp's layout",
      "Find layout mistakes: returns {findings: [{layer, layerId, time, kind, message}]}, empty "
      "when the comp is clean. kinds: offCanvas (a layer's visible pixels partly or wholly "
      "outside the comp; a full-frame background, or a glow's transparent edge, is fine), "
      "unsafe (text outside the title-safe area, the middle 80% by default), overflow (text "
      "that does not fit its box), tooSmall (text under 1/36 of the frame's shorter side on "
      "screen: 30 px at 1080p), lowContrast (text below WCAG's 4.5:1 against what is drawn "
      "behind it, measured on rendered pixels; with ratio), crowded (text overlapping other "
      "text on screen; with: the other layer's id), emptyFrame (a stretch inside the comp "
      "where almost nothing shows, such as a gap between scenes; layer null, time to end). "
      "A comp's scenes are checked too (findings carry scene). Checked at time or times "
      "(comp seconds: everything shown then, as it is), or by default where each layer has "
      "settled (the first, middle and last frame of each stretch in which it neither moves "
      "nor fades; captions and counts while a text shows). Each message says what to "
      "change. Example: {\"comp\": \"Main\"}.",
      {"comp": {"type": "string", "description": "comp id or name"},
       "time": {"type": "number", "minimum": 0, "description": "one comp time in seconds"},
       "times": {"type": "array", "items": {"type": "number", "minimum": 0},
                 "description": f"comp times in seconds (at most {MAX_MOMENTS})"},
       "title_safe": {"type": "number", "description": "percent of the frame text must stay "
                      "inside (default 80)"},
       "action_safe": {"type": "number", "description": "percent named when text leaves it "
                       "too (default 90)"}},
      required=("comp",), read_only=True, idempotent=True, lane="preview",
      output=record({"findings": array(record(
          {"layer": STRING, "layerId": STRING, "time": NUMBER, "times": array(NUMBER),
           "kind": described(STRING, "offCanvas, unsafe, overflow, tooSmall, ..."), "message": STRING,
           "ratio": NUMBER}, ("layer", "layerId", "time", "kind", "message")))},
          ("findings",)))
def layout_check(args, ctx):
    try:  # confined: footage outside the roots is refused here (Engine.snapshot)
        snapshot_id, document = ctx.session.engine.snapshot()
        comp = find_comp(document, args["comp"])
        if "time" in args and "times" in args:
            raise CommandError("give time or times, not both.")
        times = [args["time"]] if "time" in args else args.get("times")
        if times is not None and not 1 <= len(times) <= MAX_MOMENTS:
            raise CommandError(f"times lists 1 to {MAX_MOMENTS} comp times, got {len(times)}.")
        return check_layout(ctx.session.pool, snapshot_id, document, comp, times,
                            args.get("title_safe"), args.get("action_safe"), ctx.cancel)
    except CommandError as exc:
        raise ToolError(str(exc)) from None
