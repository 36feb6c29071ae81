"""comp.saveFrameAs: one frame of a comp as a PNG, now or as a queued one-frame item.

Now: the frame is drawn and written on the preview worker, which is always warm and never busy with
the render queue, so a still does not wait behind (or count as) a running render. It goes through
the same chunk task and the same cleanup as a render's frames: a temporary renamed into place,
removed on cancel; and, like every render, never over one of the project's inputs
(supervisor/render/inputs.py). Being on the preview worker, it is held to the preview deadline like
any preview (it is the same work as a full-size preview, and every preview waits while it draws); a
frame that needs longer is queued and rendered on the render workers, which have no deadline.
Queued: a png item of that one frame, named by the queue's rules (two stills of one comp at
different times keep one pattern, two files).
"""

from __future__ import annotations

import os

from protocol.wire.frames import OUT_OF_MEMORY
from protocol.model.output_names import (OutputNameError, expand_comp_name, frame_path,
                                         project_folder, split_extension)
from supervisor.engine.commands.lookup import find_comp
from supervisor.errors import CommandError
from supervisor.render.frame_choice import frame_at
from supervisor.render.inputs import find_overwrite
from supervisor.render.plan import missing_footage, single_item_plan
from supervisor.render.run import RenderRun
from supervisor.runtime.pool import DEADLINE
from supervisor.work import Work

DEFAULT_STILL = "[compName]_[#####].png"


def save_frame_as(service, engine, params: dict, work: Work | None) -> dict:
    snapshot_id, document = engine.snapshot()
    comp = _comp(document, params.get("comp"))
    time = float(params.get("time", 0.0))
    number = frame_at(comp, time)
    if params.get("queue"):
        add = {"comp": comp["id"], "format": "png", "frames": str(number)}
        if params.get("path") is not None:
            add["output"] = params["path"]
        added = engine.run("renderQueue.add", add)
        return {"queued": True, "item": added["item"], "output": added["output"],
                "comp": comp["name"], "time": time, "frame": number}
    path = still_path(engine, comp, number, params.get("path"))
    engine.check_path(path, "write")
    overwrite = find_overwrite(document, engine.project_path, [path])
    if overwrite is not None:
        raise CommandError(overwrite.sentence("comp.saveFrameAs", "choose another path"))
    missing = missing_footage(document, comp)
    if missing:
        raise CommandError(f"the frame was not saved: comp {comp['name']!r} uses footage that "
                           f"is missing: {', '.join(missing)}; re-link it with footage.replace.")
    plan = single_item_plan("still", comp, "png", path, [number], workers=1)
    run = RenderRun(service.pool, snapshot_id, document, [plan], kind="preview",
                    cancel=work.cancel.child() if work is not None else None,
                    check_write=lambda path: engine.check_path(path, "write"))
    report = run.run()
    if work is not None:
        work.cancel.check()
    entry = report["items"][0]
    if entry["status"] != "done":
        raise CommandError(not_saved(run.items[0], service.pool, comp, time))
    return {"path": path, "comp": comp["name"], "time": time, "frame": number,
            "width": comp["width"], "height": comp["height"]}


def not_saved(item, pool, comp: dict, time: float) -> str:
    """One sentence for a still that failed (`item`, its RenderRun ItemRun)."""
    where = f"comp {comp['name']!r} at {time} s"
    reason = item.failure.reason if item.failure is not None else None
    if reason == DEADLINE:
        return (f"the frame was not saved: drawing {where} took longer than the "
                f"{pool.preview_deadline:g} s preview deadline (comp.saveFrameAs draws on the "
                "preview worker), so it was stopped and the worker replaced; simplify the comp, "
                "or queue the frame with queue: true and render it with renderQueue.render, "
                "which has no deadline.")
    if reason == OUT_OF_MEMORY:
        return (f"the frame was not saved: while it drew {where}, {item.failure}; simplify "
                "the comp (fewer or smaller layers and effects) or make it smaller.")
    return item.error or "the frame was not saved: it was stopped."


def _comp(document: dict, ref) -> dict:
    if ref is not None:
        return find_comp(document, ref)
    if not document["comps"]:
        raise CommandError("the project has no comps yet; create one with comp.new first.")
    return document["comps"][0]


def still_path(engine, comp: dict, number: int, path: str | None) -> str:
    """The file a still goes to: `path` (a file, or a pattern whose [####] is the frame
    number; relative to the project's folder), or [compName]_[#####].png there."""
    try:
        pattern = expand_comp_name(path if path is not None else DEFAULT_STILL, comp["name"])
    except OutputNameError as error:
        raise CommandError(f"{error}.") from None
    if not split_extension(pattern)[1]:
        pattern += ".png"
    if not os.path.isabs(pattern):
        folder = project_folder(engine.project_path)
        if folder is None:
            if engine.confined:
                raise CommandError("the frame needs the project's folder, but the project is "
                                   "unsaved; give an absolute path inside a write root, or save "
                                   "the project first.")
            folder = os.getcwd()
        pattern = os.path.join(folder, pattern)
    return os.path.normpath(frame_path(pattern, number))
