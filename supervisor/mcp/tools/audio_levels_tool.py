"""audio_levels: a comp's mix measured, since an agent cannot listen to a render_preview.

Peak and RMS in dBFS for every 100 ms from `start` to `end` (the whole comp by default), the
loudest peak, and whether the mix goes past full scale (where a render's limiter turns it down,
or, with the comp's limiter off, the render clips it), so an
agent can check that the music comes in when it should, the voice sits above it, and nothing
clips. Mixed and measured on the preview worker (supervisor/render/level_jobs.py) from a
snapshot, exactly as a render would mix it.
"""

from __future__ import annotations

from protocol.cancel import Cancelled
from supervisor.engine.commands.lookup import find_comp
from supervisor.errors import CommandError
from supervisor.mcp.tools.json_shapes import (BOOLEAN, INTEGER, NAME_OR_INDEX, NUMBER, STRING,
                                              array, described, nullable, record)
from supervisor.mcp.tools.registry import ToolError, tool
from supervisor.render.level_jobs import measure_levels
from supervisor.runtime.pool import JobFailed
from workers.mixer.levels import dbfs


@tool("audio_levels", "Measure a comp's sound",
      "The comp's mix as a render would make it, measured every 100 ms: peak and RMS in dBFS "
      "(0 is full scale; null is silence), from start to end seconds (default the whole comp, "
      "at most 600 s a call), with the loudest peak and clipped: true when the mix goes past "
      "full scale (a render's limiter, the comp's audioLimiter, on by default, turns such a "
      "mix down under audioCeiling; these levels are the mix before it). Use it to check that "
      "sound starts where it should and sits at the level meant.",
      {"comp": described(NAME_OR_INDEX, "comp id or name (default: the first comp)"),
       "start": {"type": "number", "minimum": 0, "description": "comp time in seconds (0)"},
       "end": {"type": "number", "minimum": 0,
               "description": "comp time in seconds (default: the comp's end)"}},
      read_only=True, idempotent=True, lane="preview",
      output=record({"comp": STRING, "start": NUMBER, "end": NUMBER, "sampleRate": INTEGER,
                     "window": NUMBER, "peak": nullable(NUMBER), "clipped": BOOLEAN,
                     "levels": array(record({"time": NUMBER, "peak": nullable(NUMBER),
                                             "rms": nullable(NUMBER)}, ("time", "peak", "rms")))},
                    ("comp", "start", "end", "sampleRate", "window", "peak", "clipped",
                     "levels")))
def audio_levels(args, ctx):
    try:  # confined: footage outside the roots is refused here (Engine.snapshot)
        snapshot_id, document = ctx.session.engine.snapshot()
        if not document["comps"]:
            raise CommandError("the project has no comps yet; create one with comp.new first.")
        comp = find_comp(document, args["comp"]) if "comp" in args else document["comps"][0]
    except CommandError as exc:
        raise ToolError(str(exc)) from None
    start = float(args.get("start", 0.0))
    end = float(args.get("end", comp["duration"]))
    if not start < end <= comp["duration"]:
        raise ToolError(f"audio_levels needs 0 <= start < end <= {comp['duration']:g}, the "
                        f"length of comp {comp['name']!r}; got start {start:g} and end "
                        f"{end:g}.")
    try:
        measured = measure_levels(ctx.session.pool, snapshot_id, document, comp, start, end,
                                  ctx.cancel)
    except JobFailed as exc:
        if ctx.cancel.cancelled:
            raise Cancelled(ctx.cancel.reason) from None
        raise ToolError(f"The sound of comp {comp['name']!r} could not be measured: "
                        f"{exc}.") from None
    return {"comp": comp["name"], "start": start, "end": end,
            "sampleRate": measured["sampleRate"], "window": measured["window"],
            "peak": dbfs(measured["peak"]), "clipped": measured["peak"] > 1.0,
            "levels": measured["levels"]}
