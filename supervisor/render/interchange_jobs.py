"""What timeline.export, timeline.import and lottie.export do in the supervisor
(docs/interchange.md): check the paths, pre-render what an editor's timeline cannot hold, and
hand the file work to a worker, where OpenTimelineIO runs and untrusted files are read.

    timeline.export ──renderGraphics: each graphics run rendered as ProRes 4444 with alpha
                    │   into FOLDER/NAME_graphics/, as the one render (render/service.py)
                    └─► timeline_export job ──► the timeline file
    timeline.import ──► probe_timeline on a probe worker (engine/probes.py: opened and checked
                        here, read there) ──► summary, checked ──► comps (one undo step,
                                                                   engine/timeline_comps.py)
    lottie.export   ──► lottie_export job ──► the Lottie file

Exports run on the preview worker, which is always warm and never busy with the render queue.
"""

from __future__ import annotations

import copy
import os
import re

from protocol.model.document import allocate_id
from protocol.model.timeline_formats import TIMELINE_FORMATS, timeline_format_for
from protocol.model.timeline_layers import Run, graphics_runs, nested_comps
from protocol.model.timeline_summary import SummaryError, check_summary
from supervisor.engine.commands.lookup import find_comp
from supervisor.engine.timeline_comps import build_timeline
from supervisor.errors import CommandError
from supervisor.render.inputs import find_overwrite
from supervisor.render.plan import missing_footage, single_item_plan
from supervisor.render.snapshot_jobs import run_with_snapshot
from supervisor.runtime.pool import JobFailed
from supervisor.work import Work

WORKER = "preview"
GRAPHICS_PROFILE = {"profile": "4444"}  # ProRes 4444 keeps alpha


def timeline_export(service, engine, params: dict, work: Work | None) -> dict:
    path = _absolute(params["path"], "timeline.export")
    fmt = params.get("format") or timeline_format_for(path)
    if fmt is None:
        raise CommandError(f"timeline.export: {path} has no timeline extension; give format "
                           f"({', '.join(TIMELINE_FORMATS)}) or end the path in one of "
                           + ", ".join(f.extension for f in TIMELINE_FORMATS.values()) + ".")
    snapshot_id, document = engine.snapshot()
    comp = find_comp(document, params["comp"])
    _check_output(engine, document, path, "timeline.export")
    graphics: dict[str, str] = {}
    if params.get("renderGraphics"):
        graphics = _render_graphics(service, engine, snapshot_id, document, comp, path,
                                    TIMELINE_FORMATS[fmt].nests, work)
    result = _job(service, work, "timeline_export",
                  {"comp": comp["id"], "path": path, "format": fmt, "graphics": graphics},
                  snapshot_id, document)
    return {**result, "comp": comp["name"], "graphics": sorted(graphics.values())}


def lottie_export(service, engine, params: dict, work: Work | None) -> dict:
    path = _absolute(params["path"], "lottie.export")
    snapshot_id, document = engine.snapshot()
    comp = find_comp(document, params["comp"])
    _check_output(engine, document, path, "lottie.export")
    result = _job(service, work, "lottie_export", {"comp": comp["id"], "path": path},
                  snapshot_id, document)
    return {**result, "comp": comp["name"]}


def timeline_import(service, engine, params: dict, work: Work | None) -> dict:
    path = _absolute(params["path"], "timeline.import")
    engine.check_path(path, "read")
    options = {}
    if params.get("frameRate") is not None:
        if params["frameRate"] <= 0:
            raise CommandError(f"timeline.import: frameRate must be above 0, got "
                               f"{params['frameRate']}.")
        options["frameRate"] = params["frameRate"]
    summary = engine.probes.read("timeline", path, f"cannot import {path}",
                                 lambda real: engine.check_path(real, "read"),
                                 work.cancel if work is not None else None, options)
    try:
        check_summary(summary)
    except SummaryError as error:
        raise CommandError(f"cannot import {path}: the worker that read it sent back a summary "
                           f"rendervisor cannot use ({error}); this is a bug in rendervisor.")
    return engine.edit("timeline.import",
                       lambda: build_timeline(engine, summary, path, params.get("name")))


def _absolute(path: str, command: str) -> str:
    if not os.path.isabs(path):
        raise CommandError(f"{command}: path {path!r} must be absolute.")
    return os.path.normpath(path)


def _check_output(engine, document: dict, path: str, command: str) -> None:
    engine.check_path(path, "write")
    overwrite = find_overwrite(document, engine.project_path, [path])
    if overwrite is not None:
        raise CommandError(overwrite.sentence(command, "choose another path"))
    if os.path.isdir(path):
        raise CommandError(f"{command}: {path} is a folder; give a file path.")


def _job(service, work: Work | None, task: str, payload: dict, snapshot_id: str | None = None,
         document: dict | None = None) -> dict:
    """Run `task` on the preview worker (with the snapshot, when given); its result."""
    cancel = work.cancel.child() if work is not None else None
    pool = service.pool
    worker = pool.acquire(WORKER, cancel)
    try:
        if snapshot_id is None:
            return pool.run(WORKER, task, payload, worker=worker, cancel=cancel)
        return run_with_snapshot(pool, worker, task, payload, snapshot_id, document,
                                 cancel=cancel)
    except JobFailed as error:
        if work is not None:
            work.cancel.check()  # cancelled: the caller answers nothing
        raise CommandError(str(error).rstrip(".") + ".") from None
    finally:
        pool.release(worker)


# -- graphics, pre-rendered -------------------------------------------------------------------


def _render_graphics(service, engine, snapshot_id: str, document: dict, comp: dict,
                     path: str, nests: bool, work: Work | None) -> dict[str, str]:
    """Each graphics run of the comp (and of the comps it nests) rendered alone, with alpha;
    {run key: its file}."""
    runs = [run for shown in nested_comps(document, comp, nests)
            for run in graphics_runs(document, shown, nests)]
    if not runs:
        return {}
    missing = missing_footage(document, comp)
    if missing:
        raise CommandError(f"comp {comp['name']!r} uses footage that is missing: "
                           f"{', '.join(missing)}; re-link it with footage.replace before "
                           "pre-rendering its graphics.")
    folder = os.path.splitext(path)[0] + "_graphics"
    rendered = copy.deepcopy(document)
    plans, files = [], {}
    for number, run in enumerate(runs, 1):
        alone = _run_comp(rendered, run)
        output = os.path.join(folder, f"{number:02d}_{_safe(alone['name'])}.mov")
        engine.check_path(output, "write")
        plans.append(single_item_plan(f"graphics {number}", alone, "prores", output,
                                      list(range(run.first, run.end)),
                                      service.pool.capacity("render") or 1,
                                      codec_options=GRAPHICS_PROFILE, transparent=True))
        files[run.key] = output
    overwrite = find_overwrite(document, engine.project_path, list(files.values()))
    if overwrite is not None:
        raise CommandError(overwrite.sentence("timeline.export", "choose another path"))
    report = service.run_plans(engine, f"{snapshot_id}:graphics", rendered, plans, work)
    failed = [entry for entry in report["items"] if entry["status"] != "done"]
    if failed:
        raise CommandError(failed[0].get("error") or "the graphics render was stopped; no "
                           "timeline was written.")
    return files


def _run_comp(document: dict, run: Run) -> dict:
    """A comp of the run's layers alone (with the layers they are parented to, hidden), added
    to `document`: what its pre-render draws."""
    comp = next(c for c in document["comps"] if c["id"] == run.comp)
    by_id = {layer["id"]: layer for layer in comp["layers"]}
    keep = set(run.layers)
    for layer_id in run.layers:
        parent = by_id[layer_id].get("parent")
        while parent is not None and parent in by_id and parent not in keep:
            keep.add(parent)
            parent = by_id[parent].get("parent")
    layers = []
    for layer in comp["layers"]:
        if layer["id"] in keep:
            copied = copy.deepcopy(layer)
            copied["enabled"] = layer["enabled"] and layer["id"] in run.layers
            layers.append(copied)
    alone = {**copy.deepcopy({k: v for k, v in comp.items() if k != "layers"}),
             "id": allocate_id(document, "comp"), "layers": layers,
             "name": f"{comp['name']} {by_id[run.layers[0]]['name']}"}
    document["comps"].append(alone)
    return alone


def _safe(name: str) -> str:
    """A name as a file name's part: letters, digits, dashes and underscores."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_")[:60] or "graphics"
