"""`rendervisor preview PROJECT [--comp NAME] [--time S | --frame N] --output FILE.png
[--max-side N]`: one frame of a saved project to a PNG.

Drawn in this process with the same compositor the workers use (a one-shot command has no
session to keep responsive, so a worker pool would only add its start-up time). The PNG appears
at its path only when complete (a temporary, then a rename), and never over one of the project's
inputs (render_inputs.py).
"""

from __future__ import annotations

import os

from protocol.keyframes import frame_count, frame_time
from supervisor.cli import UsageError
from supervisor.cli_project import check_writable, open_engine
from supervisor.commands.lookup import find_comp
from supervisor.engine import CommandError
from supervisor.render_inputs import find_overwrite


def run(args) -> int:
    engine = open_engine(args.project, "preview")
    doc = engine.doc
    try:
        if args.comp is None and not doc["comps"]:
            raise CommandError(f"{engine.project_path} has no comps to preview")
        comp = find_comp(doc, args.comp) if args.comp is not None else doc["comps"][0]
    except CommandError as error:
        raise UsageError(f"rendervisor preview: {error}") from None
    time = chosen_time(comp, args)
    if args.max_side is not None and args.max_side < 0:
        raise UsageError("rendervisor preview: --max-side must be 0 (full size) or more.")
    output = os.path.abspath(args.output)
    if not output.lower().endswith(".png"):
        raise UsageError(f"rendervisor preview: --output {args.output} must end in .png.")
    check_writable(output, "preview")
    _revision, document = engine.snapshot()
    overwrite = find_overwrite(document, engine.project_path, [output])
    if overwrite is not None:
        raise UsageError("rendervisor preview: " + overwrite.sentence(
            "the preview", "choose another --output"))

    from workers.compositor import render_frame
    from workers.exporter import OpenedFiles
    from workers.exporter.image_sequence import write_image
    from workers.render_tasks import encode_png, preview_scale
    scale = preview_scale(comp["width"], comp["height"], args.max_side or 0)
    frame = render_frame(document, comp["id"], time, scale=scale)
    opened = OpenedFiles()
    try:
        write_image(encode_png(frame.pixels), output, opened)
    except BaseException:
        opened.remove_all()
        raise
    for missing in frame.missing:
        print(f"rendervisor preview: footage is missing and was left out: {missing}")
    print(output)
    return 0


def chosen_time(comp: dict, args) -> float:
    """Comp time of --frame N or --time S (default 0), refused outside the comp."""
    count = frame_count(comp["duration"], comp["frameRate"])
    if args.frame is not None:
        if not 0 <= args.frame < count:
            raise UsageError(f"rendervisor preview: --frame {args.frame} is outside comp "
                             f"{comp['name']!r}, which has frames 0-{count - 1}.")
        return frame_time(args.frame, comp["frameRate"])
    time = args.time or 0.0
    if not 0 <= time < comp["duration"]:
        raise UsageError(f"rendervisor preview: --time {time} is outside comp "
                         f"{comp['name']!r}, which lasts {comp['duration']} s.")
    return time
