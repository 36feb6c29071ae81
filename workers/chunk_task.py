"""The `render_chunk` task: render one chunk of a queue item's frames and export them.

The supervisor plans the chunk (workers/exporter/chunk_plan.py) and records every file it can
create before sending it here; this task draws each frame with the compositor, from the
snapshot's render plan (prepared for the chunk's frames at once), into one reused array, hands
it to the exporter (frames to their files, or a video segment), and reports each written frame
as progress. It checks for cancellation before every frame, so a cancel stops
the worker at its next frame; on cancel or failure it removes what it created itself (on
cancel on a farm node, a sequence's finished frames excepted), and the supervisor's record covers a worker
killed before it could.

Never writes anything but the files `chunk_paths` names for this chunk, and only inside the
output folder the supervisor checked (workers/exporter/output_folders.py).
"""

from __future__ import annotations

import numpy as np

from protocol.cancel import Cancelled
from protocol.model.keyframes import frame_time
from protocol.model.output_formats import output_format
from protocol.model.output_names import frame_path
from workers.compositor import render_frame
from workers.compositor.color_management import SCENE_LINEAR, ColorError, View
from workers.compositor.cube_files import LutError
from workers.exporter import Chunk, CodecOptionError, JoinError, SegmentError, export_chunk
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.output_folders import FolderReplaced, OutputFolder
from workers.render_tasks import FOOTAGE
from workers.snapshots import document_for, plan_for
from workers.tasks import TaskError, task


# The display HDR10 frames are encoded for, as OpenColorIO's ACES configs name it.
PQ_DISPLAY = "Rec.2100-PQ - Display"
HDR_NEEDS_COLOR_MANAGEMENT = (
    "HDR10 (colorTags bt2020-pq) needs pictures encoded with the PQ curve, which a "
    "colour-managed project makes: set colorManagement with project.set (the item then shows "
    f"on {PQ_DISPLAY}), or leave colorTags out for BT.709.")


@task("render_chunk")
def render_chunk(job):
    """Payload: snapshot (+ document), comp, frames, firstIndex, token, keyframeInterval,
    format, output, frameRate, codecOptions, skipExisting, scale, transparent, startNumber,
    keepStopped, folder (the held output folder's identity: output_folders.py), display, view
    (a colour-managed project's output), colorTags, placeholders (draw missing footage as
    colour bars). Result: {segment, missing, frames}."""
    spec = job.payload
    document = document_for(spec)
    comp = next((c for c in document["comps"] if c["id"] == spec["comp"]), None)
    if comp is None:
        raise TaskError(f"the project snapshot has no comp {spec['comp']!r}")
    # The interval is the supervisor's (planned from the whole item), never worked out here
    # from the chunk: every chunk of one video must be encoded on one key frame grid.
    chunk = Chunk(tuple(spec["frames"]), spec["firstIndex"], spec["token"],
                  keyframe_interval=int(spec["keyframeInterval"]))
    scale = float(spec.get("scale", 1.0))
    start_number = int(spec.get("startNumber", 0))
    transparent = bool(spec.get("transparent", False))
    rate = comp["frameRate"]
    missing: set[str] = set()
    buffer: list[np.ndarray] = []
    # One plan per snapshot and comp, its matrices and opacities evaluated for the whole chunk.
    try:
        plan = plan_for(spec, comp["id"], FOOTAGE)
    except (LutError, ColorError) as error:  # a LUT or a colour config read at compile time
        raise TaskError(str(error)) from None
    # A render allowed to go on without footage draws colour bars where it is missing.
    plan.ctx.placeholders = bool(spec.get("placeholders"))
    view = output_view(spec)
    if spec.get("colorTags") == "bt2020-pq" and plan.ctx.managed is None:
        raise TaskError(HDR_NEEDS_COLOR_MANAGEMENT)
    plan.prepare([frame_time(number, rate) for number in chunk.frames], reused_out=True)

    def rendered():
        for number in chunk.frames:
            job.cancel.check()
            frame = render_frame(document, comp["id"], frame_time(number, rate),
                                 footage=FOOTAGE, scale=scale, transparent=transparent,
                                 out=buffer[0] if buffer else None, plan=plan, view=view)
            if not buffer:
                # One array for the whole chunk: each frame is encoded before the next is drawn.
                buffer.append(frame.pixels)
            missing.update(frame.missing)
            yield frame.pixels

    try:
        held = OutputFolder.of_job(spec)
    except FolderReplaced as error:
        raise TaskError(str(error)) from None
    opened = OpenedFiles(held=held)
    written: list[int] = []

    def on_frame(number: int) -> None:
        written.append(number)
        job.progress(number)

    try:
        segment = export_chunk(chunk, rendered(), spec["format"], spec["output"],
                               spec["frameRate"], spec.get("codecOptions") or {}, opened,
                               skip_existing=bool(spec.get("skipExisting")),
                               on_frame=on_frame, start_number=start_number,
                               scene_linear=plan.ctx.managed is not None and view.scene_linear,
                               color_tags=spec.get("colorTags"))
    except Cancelled:
        # On a farm node a stopped sequence keeps its whole frames for a rerun with
        # skipExisting; which of them stay is the supervisor's to decide (render/run.py).
        if spec.get("keepStopped") and output_format(spec["format"]).is_sequence:
            opened.keep([frame_path(spec["output"], number, start_number)
                         for number in written])
        opened.remove_all()
        raise
    except (CodecOptionError, SegmentError, JoinError, ValueError, OSError) as error:
        opened.remove_all()
        raise TaskError(str(error)) from None
    except BaseException:
        opened.remove_all()
        raise
    finally:
        if held is not None:
            held.close()
    return {"segment": segment, "missing": sorted(missing), "frames": len(chunk.frames)}


def output_view(spec: dict) -> View:
    """How a colour-managed project's frames leave its working space for this item: through
    the item's display and view, or, for EXR without either, not at all (scene-linear). HDR10
    (colorTags bt2020-pq) shows on the PQ display unless the item names another."""
    if spec["format"] == "exr" and not spec.get("display") and not spec.get("view"):
        return SCENE_LINEAR
    display = spec.get("display")
    if display is None and spec.get("colorTags") == "bt2020-pq":
        display = PQ_DISPLAY
    return View(display, spec.get("view"))
