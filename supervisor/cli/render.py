"""`rendervisor render PROJECT ...`: a render-farm node rendering a saved project's queue, or one
comp, on this machine's render workers or on a Dask cluster (docs/farm.md).

    parse flags ─► open the project (exit 2 on any problem) ─► set up the queue in memory
      ─► --set / --data: every row checked, one queue item per row (cli/template_rows.py)
      (the forkserver starts first, importing the workers' modules meanwhile)
      ─► check outputs are writable ─► start the render workers in the background
      ─► renderQueue.render through the session's own RenderService, with a CallContext whose
         progress feeds the display and whose cancel SIGINT/SIGTERM trigger
      ─► exit 0 (all done), 1 (an item failed), 130 (interrupted: partial outputs removed)

The project file is never written: the queue changes the flags make (a temporary item for
--comp, --frames on every item) live in this process's engine only. Every item is rendered,
whatever status a saved project gives it: "done" there is the memory of an earlier session,
not an instruction to a farm node.
"""

from __future__ import annotations

import os
import signal
import threading

from protocol.cancel import Cancelled
from protocol.model.output_names import queue_outputs
from supervisor.cli.display import display_for
from supervisor.cli.flag_pairs import flag_pairs
from supervisor.cli.project import check_inputs, check_writable, open_engine
from supervisor.cli.queue_items import pick_items
from supervisor.cli.template_rows import queue_rows, template_rows
from supervisor.engine.commands.lookup import find_comp
from supervisor.engine.probes import own_pool
from supervisor.errors import CommandError, UsageError
from supervisor.render.farm_service import FarmRenderService
from supervisor.runtime import teardown
from supervisor.runtime.pool import Pool, start_forkserver, worker_preload
from supervisor.work import Work

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def prepare_queue(engine, args, rows=None) -> None:
    """Turn the flags into the queue this process renders (in memory only). With template
    `rows`, --output is left to queue_rows, which gives it to each row's items: its fields
    are the rows' to fill in, and are checked row by row."""
    options = codec_options(args)
    output = os.path.abspath(args.output) if args.output and rows is None else None
    try:
        if args.item:
            if args.comp is not None:
                raise UsageError("rendervisor render: --item picks items of the project's "
                                 "queue and --comp replaces the queue with one comp; give one "
                                 "or the other.")
            picked = pick_items(engine.doc, args.item)
            engine.edit_quietly(lambda doc: doc.update(renderQueue=picked))
        comp = args.comp if args.comp is not None else lone_comp(engine)
        if comp is not None:
            engine.edit_quietly(lambda doc: doc["renderQueue"].clear())
            params = {"comp": comp, "frames": args.frames,
                      "skipExisting": args.skip_existing, "codecOptions": options}
            if args.start_number is not None:
                params["startNumber"] = args.start_number
            if output:
                params["output"] = output
            if args.format:
                params["format"] = args.format
            engine.run("renderQueue.add", params)
            # Reported by the comp's name: the item's id exists in this process alone.
            name = find_comp(engine.doc, comp)["name"]
            engine.edit_quietly(lambda doc: doc["renderQueue"][0].update(id=name))
            return
        items = engine.doc["renderQueue"]
        if (args.output or args.format) and len(items) > 1:
            raise UsageError(f"rendervisor render: --output and --format set one item's output, "
                             f"but the queue has {len(items)} items; add --comp NAME to render "
                             "one comp, or leave them out.")
        for item in list(items):
            params = {"item": item["id"]}
            if args.frames is not None:
                params["frames"] = args.frames
            if args.skip_existing:
                params["skipExisting"] = True
            if args.start_number is not None:
                params["startNumber"] = args.start_number
            if options:
                params["codecOptions"] = {**item["codecOptions"], **options}
            if output:
                params["output"] = output
            if args.format:
                params["format"] = args.format
            engine.run("renderQueue.set", params)  # also queues an item saved as done again
    except CommandError as error:
        raise UsageError(f"rendervisor render: {error}") from None


def codec_options(args) -> dict[str, str]:
    """--codec-option's KEY=VALUE pairs; UsageError naming the first malformed one."""
    return flag_pairs(args.codec_option, "--codec-option", "KEY=VALUE", "crf=20")


def lone_comp(engine) -> str | None:
    """The comp to render when the queue is empty: the project's only comp (its id); None
    when the queue has items. Several comps and an empty queue is a usage error naming them."""
    doc = engine.doc
    if doc["renderQueue"]:
        return None
    if len(doc["comps"]) == 1:
        return doc["comps"][0]["id"]
    if not doc["comps"]:
        raise UsageError(f"rendervisor render: {engine.project_path} has no comps, so there is "
                         "nothing to render.")
    names = ", ".join(repr(comp["name"]) for comp in doc["comps"])
    raise UsageError(f"rendervisor render: {engine.project_path} has an empty render queue and "
                     f"comps {names}; name one with --comp, or queue items in the project.")


def planned_outputs(engine) -> dict[str, str]:
    """Item id -> its output as the render names it (`[compName]`, `[param:NAME]` filled in)."""
    return {planned.item: planned.output for planned in queue_outputs(engine.doc)}


def on_signals(callback) -> None:
    """Run `callback` on its own thread at SIGINT or SIGTERM. Not in the handler itself: the
    handler interrupts the main thread wherever it is, perhaps holding a lock stop() needs."""
    def handler(signum, frame):
        threading.Thread(target=callback, daemon=True, name="render-interrupt").start()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, handler)


def run(args) -> int:
    if args.cluster is not None:
        from supervisor.cli.cluster import require_dask  # Dask and the worker side: only here
        require_dask()
    codec_options(args)  # a malformed pair is refused before the project is read or a worker forked
    # The forkserver first, while this process is still single-threaded: it imports Skia, PyAV
    # and numpy in its own process while this one loads and checks the project, so a short
    # render does not wait for those imports after the project is read.
    context = None if args.cluster is not None else start_forkserver()
    # This machine's pool, its workers not started yet: the project's files (footage, fonts,
    # the data file) are read on its probe workers from here on. A cluster renders elsewhere,
    # and the files are read on this process's own probe pool.
    pool = Pool(context, args.workers, preload=worker_preload()) if context else None
    renderers = None
    try:
        engine = open_engine(args.project, "render", pool)
        rows = template_rows(engine, args)
        prepare_queue(engine, args, rows)
        row_of = queue_rows(engine, rows, args) if rows is not None else {}
        outputs = planned_outputs(engine)
        folders = {os.path.dirname(output): output for output in outputs.values()}
        for output in folders.values():  # a folder once, however many rows write into it
            check_writable(output, "render")
        check_inputs(engine, args.allow_missing)
        display = display_for(args)
        display.name_rows({item: (row, outputs[item]) for item, row in row_of.items()})
        renderers = start_pool(args.workers, args.cluster, pool=pool)
        return render(engine, renderers, args, display)
    finally:
        for started in {id(p): p for p in (renderers, pool) if p is not None}.values():
            started.close()


def start_pool(workers: int, cluster: str | None = None, kind: str = "render", pool=None):
    """This machine's workers (`pool`, or a new one), the ones of `kind` starting in the
    background at once (they say ready while the work is planned), or a Dask cluster standing
    in for them."""
    if cluster is not None:
        from supervisor.cli.cluster import ClusterPool
        teardown.become_subreaper()
        # Sound is mixed on this node, on a worker of this process's own pool.
        return ClusterPool(cluster, workers, local=own_pool())
    pool = pool or Pool(start_forkserver(), workers, preload=worker_preload())
    pool.warm(kind, pool.capacity(kind) or 1)
    return pool


def render_queue(engine, pool, work: Work, chunk_size: int | None = None,
                 on_item=None, allow_missing: bool = False) -> dict:
    """Render the engine's queue on `pool` with `work`'s progress and cancel (and each item's
    events told to `on_item`; missing footage drawn as a placeholder with `allow_missing`);
    the report, or Cancelled, or CommandError (nothing to render, outputs that clash)."""
    engine.render_service = FarmRenderService(pool, chunk_size=chunk_size, on_item=on_item,
                                              allow_missing=allow_missing)
    return engine.run("renderQueue.render", {"wait": True}, work)


def render(engine, pool, args, display) -> int:
    work = Work(report_progress=display.progress)
    on_signals(work.cancel.cancel)
    try:
        report = render_queue(engine, pool, work, args.chunk_size, display.item,
                              args.allow_missing)
        work.cancel.check()  # the signal came as the last item finished
        display.finished(report)
        return EXIT_FAILED if report["failed"] else EXIT_OK
    except Cancelled:
        display.interrupted()
        return EXIT_INTERRUPTED
    except CommandError as error:  # nothing to render, outputs that clash
        raise UsageError(f"rendervisor render: {error}") from None
    finally:
        display.close()
