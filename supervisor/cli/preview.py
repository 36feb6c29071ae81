"""`rendervisor preview PROJECT [--comp NAME] [--time S | --frame N] --output FILE.png
[--max-side N]`: one frame of a saved project to a PNG.

Drawn on a preview worker, as render_preview draws it (supervisor/render/preview_jobs.py), so a
project from anywhere is held to the same preview deadline and memory limit, and a frame past
either is one line on stderr and exit 1 rather than a command that hangs or takes the
machine's memory. The PNG appears at its path only when complete (a temporary, then a rename),
and never over one of the project's inputs (supervisor/render/inputs.py).
"""

from __future__ import annotations

import os
import sys

from protocol.model.keyframes import frame_time
from supervisor.errors import UsageError
from supervisor.cli.project import check_writable, open_engine
from supervisor.engine.commands.lookup import find_comp
from supervisor.errors import CommandError
from supervisor.render.inputs import find_overwrite
from supervisor.runtime.pool import JobFailed
from supervisor.render.frame_choice import chosen_frame
from supervisor.render.preview_jobs import draw_preview, why_not_drawn
from supervisor.cli.render import start_pool
from workers.exporter import OpenedFiles
from workers.exporter.image_sequence import write_image

EXIT_FAILED = 1


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
    snapshot_id, document = engine.snapshot()
    overwrite = find_overwrite(document, engine.project_path, [output])
    if overwrite is not None:
        raise UsageError("rendervisor preview: " + overwrite.sentence(
            "the preview", "choose another --output"))

    pool = start_pool(1, kind="preview")
    try:
        value = draw_preview(pool, snapshot_id, document, comp, time, args.max_side or 0,
                             transparent=False)
    except JobFailed as error:
        print(f"rendervisor preview: {why_not_drawn(error, pool, comp, time, '--max-side')}",
              file=sys.stderr)
        return EXIT_FAILED
    finally:
        pool.close()
    opened = OpenedFiles()
    try:
        write_image(value["png"], output, opened)
    except BaseException:
        opened.remove_all()
        raise
    for missing in value["missing"]:
        print(f"rendervisor preview: footage is missing and was left out: {missing}")
    print(output)
    return 0


def chosen_time(comp: dict, args) -> float:
    """Comp time of the frame --frame N or --time S (default 0) asks for: a time is floored
    to its frame, as a render writes it; refused outside the comp."""
    try:
        number = chosen_frame(comp, args.time, args.frame)
    except CommandError as error:
        raise UsageError(f"rendervisor preview: {error}") from None
    return frame_time(number, comp["frameRate"])
