"""Interchange commands: timeline.export, timeline.import, lottie.export (docs/interchange.md).

Each is carried out by the session's render service (supervisor/render/interchange_jobs.py): the
file work runs on a worker, where OpenTimelineIO runs and an imported file is read, and
timeline.export's graphics are pre-rendered as a render. These only declare the params.
"""

from __future__ import annotations

from protocol.model.timeline_formats import TIMELINE_FORMATS
from supervisor.engine.commands.registry import COMP_REF, READ_PATH, WRITE_PATH, formatted
from supervisor.engine.commands.render import render_command

_FORMATS = "; ".join(f"{f.name} ({f.extension}): {f.description}"
                     for f in TIMELINE_FORMATS.values())

render_command(
    "timeline.export", "Export a timeline",
    "Write a comp as an editorial timeline for an editor (Resolve, Premiere, Final Cut): video, "
    "image and sound layers become clips with their source ranges and speed, precomps nested "
    "timelines, markers carry over, sound levels where the format holds them. Layers a "
    "timeline cannot hold (text, shapes, effects, masks, moved or faded pictures) are listed "
    "in warnings, or with renderGraphics pre-rendered to ProRes 4444 with alpha in a folder "
    "beside the file and placed as clips. Returns {path, format, tracks, clips, graphics, "
    "warnings}.",
    {"comp": COMP_REF,
     "path": formatted(WRITE_PATH, "the timeline file to write"),
     "format": {"type": "string", "enum": list(TIMELINE_FORMATS),
                "description": f"default: by the path's extension; {_FORMATS}"},
     "renderGraphics": {"type": "boolean",
                        "description": "pre-render graphics layers beside the timeline and "
                                       "place them as clips (default false)"}},
    required=("comp", "path"), method=lambda renderer: renderer.timeline_export,
    waits_on="preview")

render_command(
    "timeline.import", "Import a timeline",
    "Build a comp from an editorial timeline (OTIO, FCP X XML, FCP 7 XML, EDL; by extension): "
    "each clip a layer with its source range and speed, tracks as layer order, nested "
    "timelines as precomps, markers kept. Media files are imported as footage; ones missing "
    "or outside the roots are listed in missing by name. Transitions are listed in warnings. "
    "One undo step. Returns {comp, name, layers, comps, footage, missing, warnings}.",
    {"path": formatted(READ_PATH, "the timeline file: " + ", ".join(
        f.extension for f in TIMELINE_FORMATS.values())),
     "name": {"type": "string", "description": "the new comp's name (default: the "
                                               "timeline's)"},
     "frameRate": {"type": "number", "description": "an EDL's frame rate, which the file does "
                                                    "not say (default 24); other formats "
                                                    "name their own"}},
    required=("path",), method=lambda renderer: renderer.timeline_import,
    waits_on="preview")

render_command(
    "lottie.export", "Export Lottie",
    "Write a comp as a Lottie animation (JSON) for web and mobile players: solids, shapes and "
    "paths with fills, gradients, strokes, trims and dashes, masks, precomps, text as "
    "shapes, still images embedded, transforms with keys and easing (spring, bounce, elastic "
    "and back baked to a key a frame), opacity, parenting, blend modes and track mattes. What "
    "Lottie cannot hold (effects, video, sound) is listed in warnings. Returns {path, layers, "
    "assets, warnings}.",
    {"comp": COMP_REF, "path": formatted(WRITE_PATH, "the Lottie file (.json) to write")},
    required=("comp", "path"), method=lambda renderer: renderer.lottie_export,
    waits_on="preview")
