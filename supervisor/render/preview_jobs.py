"""One preview frame drawn on the preview worker, and the sentence for one that was not.

Both front doors draw previews here (`render_preview`, `rendervisor preview`), so a preview is
bounded the same way wherever it is asked for: by the pool's preview deadline (a frame too slow
to look at is stopped and its worker replaced) and by the workers' memory limit (a frame too
large fails by name). Each sentence says what to do, in the caller's own word for the size
option (`max_side`, `--max-side`).
"""

from __future__ import annotations

from protocol.wire.frames import OUT_OF_MEMORY
from protocol.cancel import Cancel
from supervisor.runtime.pool import DEADLINE, JobFailed, Pool
from supervisor.render.snapshot_jobs import run_with_snapshot


def draw_preview(pool: Pool, snapshot_id: str, document: dict, comp: dict, time: float,
                 max_side: int, transparent: bool, cancel: Cancel | None = None) -> dict:
    """{png, width, height, missing} of `comp` at `time`; JobFailed as the pool raised it."""
    worker = pool.acquire("preview", cancel)
    try:
        return run_with_snapshot(pool, worker, "preview",
                                 {"comp": comp["id"], "time": time, "max_side": max_side,
                                  "transparent": transparent},
                                 snapshot_id, document, cancel=cancel)
    finally:
        pool.release(worker)


def why_not_drawn(error: JobFailed, pool: Pool, comp: dict, time: float,
                  size_option: str, worker: str = "preview") -> str:
    """One sentence for a preview that failed with `error` on a `worker` worker."""
    where = f"comp {comp['name']!r} at {time} s"
    if error.reason == DEADLINE:
        return (f"Drawing {where} took longer than the {pool.preview_deadline:g} s preview "
                f"deadline, so the {worker} worker was stopped and replaced; simplify the comp "
                f"(fewer or smaller blurs, less motion blur) or lower {size_option}, then try "
                "again.")
    if error.reason == OUT_OF_MEMORY:
        return (f"The preview of {where} could not be drawn: {error}; lower {size_option} or "
                "simplify the comp, then try again.")
    return f"The preview of {where} could not be rendered: {error}."
