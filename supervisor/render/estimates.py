"""renderQueue.estimate: how long a queue item will take to render, from a few of its frames
drawn and encoded on the preview worker (workers/estimate_task.py) as the render would.

    seconds = STARTUP (the workers' first frame: the plan compiled, footage opened)
            + per frame (the sampled frames' median drawing, plus their encoding's mean)
              x the frames left to write / the render workers that share them

The render workers share an item's chunks, so its frames are divided among as many of them as
it has chunks; on a machine whose other work takes the cores, a render is slower than this
says. The sound's mix is not counted (it runs beside the pictures, on one worker).
"""

from __future__ import annotations

import statistics

from supervisor.engine.commands.lookup import find_item
from supervisor.errors import CommandError
from supervisor.render.plan import RenderRefused, plan_render
from supervisor.render.snapshot_jobs import run_with_snapshot
from supervisor.runtime.pool import JobFailed, Pool
from supervisor.work import Work

SAMPLES = 6  # frames drawn: spread from the item's first to its last


def estimate_item(pool: Pool, engine, item_ref, work: Work | None) -> dict:
    """{item, seconds, frames, sampled, perFrame, workers}; CommandError with a sentence for
    an item that could not be estimated."""
    snapshot_id, document = engine.snapshot()
    item = find_item(document, item_ref)
    workers = pool.capacity("render") or 1
    try:
        (plan,) = plan_render(document, [item["id"]], workers)
    except RenderRefused as error:
        raise CommandError(str(error)) from None
    if plan.error:
        raise CommandError(plan.error.replace("was not rendered", "cannot be estimated"))
    frames = plan.frames
    if not frames:
        return {"item": item["id"], "seconds": 0.0, "frames": 0, "sampled": 0,
                "perFrame": 0.0, "workers": 0}
    picked = sorted({frames[round(i * (len(frames) - 1) / max(1, SAMPLES - 1))]
                     for i in range(min(SAMPLES, len(frames)))})
    cancel = work.cancel if work is not None else None
    worker = pool.acquire("preview", cancel)
    try:
        measured = run_with_snapshot(pool, worker, "estimate_frames", {
            "comp": plan.comp["id"], "frames": picked, "scale": plan.scale,
            "format": plan.format, "codecOptions": plan.codec_options}, snapshot_id,
            document, cancel=cancel)
    except JobFailed as error:
        raise CommandError(f"{item['id']} cannot be estimated: {error}") from None
    finally:
        pool.release(worker)
    draws = measured["draw"]
    per_frame = statistics.median(draws) + measured["encode"] / len(draws)
    startup = max(0.0, draws[0] - statistics.median(draws))
    sharing = max(1, min(workers, len(plan.chunks)))
    seconds = startup + per_frame * len(frames) / sharing
    return {"item": item["id"], "seconds": round(seconds, 2), "frames": len(frames),
            "sampled": len(draws), "perFrame": round(per_frame, 4), "workers": sharing}
