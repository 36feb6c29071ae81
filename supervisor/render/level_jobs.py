"""A comp's sound measured on the preview worker: peak and RMS per 100 ms for `audio_levels`
(workers/audio_task.py mixes and measures).

The preview worker, not a render worker: an agent checking levels mid-render is never kept
waiting behind the render's chunks, and the preview deadline bounds the call (a stretch of a
few minutes mixes in a second or two).
"""

from __future__ import annotations

from protocol.cancel import Cancel
from supervisor.render.snapshot_jobs import run_with_snapshot
from supervisor.runtime.pool import Pool


def measure_levels(pool: Pool, snapshot_id: str, document: dict, comp: dict, start: float,
                   end: float, cancel: Cancel | None = None) -> dict:
    """{sampleRate, window, levels: [{time, peak, rms}], peak} of `comp` from `start` to `end`
    seconds; JobFailed as the pool raised it."""
    worker = pool.acquire("preview", cancel)
    try:
        return run_with_snapshot(pool, worker, "audio_levels",
                                 {"comp": comp["id"], "start": start, "end": end},
                                 snapshot_id, document, cancel=cancel)
    finally:
        pool.release(worker)
