"""A command's task run on the preview worker (expression.check, lottie.bake): the worker
taken and given back, the job bounded by the preview deadline, and a failure said as one
sentence naming what was being done.
"""

from __future__ import annotations

from typing import Any

from protocol.cancel import Cancel, Cancelled
from supervisor.errors import CommandError
from supervisor.render.snapshot_jobs import run_with_snapshot
from supervisor.runtime.pool import DEADLINE, JobFailed, Pool


def on_preview_worker(pool: Pool, task: str, payload: dict, cancel: Cancel | None, *,
                      doing: str, advice: str, snapshot: tuple[str, dict] | None = None) -> Any:
    """The task's result; with `snapshot` (id, document) the job carries the project as a
    preview's does. `doing` names the work for a sentence ("Baking /x/a.json"), `advice` says
    what to do when it outlasts the deadline."""
    worker = pool.acquire("preview", cancel)
    try:
        if snapshot is None:
            return pool.run("preview", task, payload, worker=worker, cancel=cancel)
        return run_with_snapshot(pool, worker, task, payload, *snapshot, cancel=cancel)
    except JobFailed as error:
        if cancel is not None and cancel.cancelled:
            raise Cancelled(cancel.reason) from None
        if error.reason == DEADLINE:
            raise CommandError(f"{doing} took longer than the {pool.preview_deadline:g} s "
                               "preview deadline, so the preview worker was stopped and "
                               f"replaced; {advice}.") from None
        raise CommandError(f"{doing} failed: {error}.") from None
    finally:
        pool.release(worker)
