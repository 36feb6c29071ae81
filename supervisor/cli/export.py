"""`rendervisor export PROJECT --comp NAME --output FILE [--format F] [--render-graphics]`: a comp
of a saved project as an editorial timeline or a Lottie animation (docs/interchange.md).

The same commands an agent runs (timeline.export, lottie.export), on this machine's workers:
the file is written on a worker, graphics pre-render on the render workers. Warnings go to
stderr, one a line (with --render-graphics, the render's progress first); the files' paths to
stdout. Exit 0 written, 1 failed, 2 bad usage or input, 130 interrupted (nothing half-written
is left).
"""

from __future__ import annotations

import os
import sys

from protocol.cancel import Cancelled
from protocol.model.timeline_formats import timeline_format_for
from supervisor.cli.display import Bar, PlainLines, Quiet
from supervisor.cli.project import check_writable, open_engine
from supervisor.cli.render import on_signals, start_pool
from supervisor.engine.commands.lookup import find_comp
from supervisor.errors import CommandError, UsageError
from supervisor.render.service import RenderService
from supervisor.work import Work

EXIT_FAILED = 1
EXIT_INTERRUPTED = 130


def run(args) -> int:
    output = os.path.abspath(args.output)
    fmt = args.format or ("lottie" if output.lower().endswith(".json")
                          else timeline_format_for(output))
    if fmt is None:
        raise UsageError(f"rendervisor export: cannot tell the format of {args.output}; give "
                         "--format (otio, fcpxml, fcp7xml, edl, lottie) or end --output in "
                         ".otio, .fcpxml, .xml, .edl or .json.")
    if args.render_graphics and fmt == "lottie":
        raise UsageError("rendervisor export: --render-graphics is for timelines; a Lottie "
                         "file holds the graphics themselves.")
    engine = open_engine(args.project, "export")
    try:
        find_comp(engine.doc, args.comp)
    except CommandError as error:
        raise UsageError(f"rendervisor export: {error}") from None
    check_writable(output, "export")
    pool = start_pool(args.workers if args.render_graphics else 1, kind="preview")
    engine.render_service = RenderService(pool)
    # Pre-rendering graphics is a render: its frames shown as `rendervisor render` shows them.
    display = (Bar() if sys.stderr.isatty() else PlainLines()) if args.render_graphics \
        else Quiet()
    work = Work(report_progress=display.progress)
    on_signals(work.cancel.cancel)
    command, params = ("lottie.export", {"comp": args.comp, "path": output}) \
        if fmt == "lottie" else ("timeline.export", {
            "comp": args.comp, "path": output, "format": fmt,
            "renderGraphics": bool(args.render_graphics)})
    try:
        result = engine.run(command, params, work)
    except Cancelled:
        display.finished({"items": []})
        print("rendervisor export: interrupted; partial outputs were removed.", file=sys.stderr)
        return EXIT_INTERRUPTED
    except CommandError as error:
        display.finished({"items": []})
        print(f"rendervisor export: {error}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        pool.close()
    display.finished({"items": []})  # the bar closed; the files are said below
    for warning in result.get("warnings", []):
        print(f"rendervisor export: warning: {warning}", file=sys.stderr)
    for graphics in result.get("graphics", []):
        print(graphics)
    print(result["path"])
    return 0
