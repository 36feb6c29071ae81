"""Many small drawing jobs at once (a filmstrip's frames, a layout check's moments), spread over
the preview worker and whichever render workers sit idle, never delaying a render.

    calling thread ── acquire the preview worker ── take a job, run it, ... until none is left
    borrower threads (one per render worker the pool may have) ── borrow an idle render worker
        (Pool.borrow_idle: never waits, never starts one), take a job, run it, give it back;
        stop when none is idle or no job is left

A render worker is borrowed for one job at a time, so a render that starts meanwhile waits for
its worker at most one small job. Every job, on whichever worker, is held to the pool's preview
deadline like a preview (a frame too slow to look at is stopped and its worker replaced), and
the caller's cancel scope stops them all.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from protocol.cancel import Cancel, Cancelled
from supervisor.errors import CommandError
from supervisor.render.preview_jobs import why_not_drawn
from supervisor.render.snapshot_jobs import run_with_snapshot
from supervisor.runtime.pool import DEADLINE, JobFailed, Pool, Worker


@dataclass
class Failure:
    index: int  # of the payload whose job failed
    error: JobFailed
    worker: str  # "preview" or "render": the kind of worker it ran on


def run_spread(pool: Pool, task: str, payloads: list[dict], snapshot_id: str, document: dict,
               cancel: Cancel) -> tuple[list[Any], Failure | None]:
    """Run `task` once per payload; (results in payload order, the first failure or None).
    After a failure no further job starts; those running finish."""
    results: list[Any] = [None] * len(payloads)
    state = {"next": 0, "finished": 0, "failure": None}
    lock = threading.Lock()
    # The wait for the preview worker (busy with someone's preview) ends when the borrowed
    # workers have done every job, or one failed: nothing is left for it then.
    waiting = cancel.child()

    def take() -> int | None:
        with lock:
            if state["failure"] is not None or cancel.cancelled or \
                    state["next"] >= len(payloads):
                return None
            state["next"] += 1
            return state["next"] - 1

    def run(worker: Worker, index: int) -> None:
        scope = cancel.child(pool.preview_deadline, DEADLINE)
        try:
            results[index] = run_with_snapshot(pool, worker, task, payloads[index], snapshot_id,
                                               document, cancel=scope)
        except JobFailed as error:
            with lock:
                if state["failure"] is None:
                    state["failure"] = Failure(index, error, worker.kind)
        finally:
            scope.close()
            with lock:
                state["finished"] += 1
                over = state["failure"] is not None or state["finished"] == len(payloads)
            if over:
                waiting.cancel()

    def borrow() -> None:
        while True:
            worker = pool.borrow_idle("render")
            if worker is None:
                return
            try:
                index = take()
                if index is None:
                    return
                run(worker, index)
            finally:
                pool.release(worker)

    borrowers = [threading.Thread(target=borrow, daemon=True, name=f"{task}-borrower-{n}")
                 for n in range(min(pool.capacity("render") or 0, len(payloads) - 1))]
    for thread in borrowers:
        thread.start()
    try:
        try:
            preview = pool.acquire("preview", waiting)
        except JobFailed as error:
            preview = None
            with lock:
                if cancel.cancelled or (state["failure"] is None and
                                        state["finished"] < len(payloads)):
                    state["failure"] = state["failure"] or Failure(0, error, "preview")
        if preview is not None:
            try:
                while (index := take()) is not None:
                    run(preview, index)
            finally:
                pool.release(preview)
    finally:
        # However this call ends (a bug raising here too), nothing more is handed out, the
        # borrowers are done with their workers, and the caller's scope is let go of.
        with lock:
            state["next"] = len(payloads)
        for thread in borrowers:
            thread.join()
        waiting.close()
    return results, state["failure"]


def spread_results(pool: Pool, task: str, payloads: list[dict], snapshot_id: str,
                   document: dict, cancel: Cancel, comp: dict, smaller: str) -> list[Any]:
    """run_spread's results in payload order; Cancelled when `cancel` is; a CommandError with
    the sentence for the first job that failed, at its payload's time in `comp` (`smaller`:
    what to make smaller when a job ran out of time or memory)."""
    results, failure = run_spread(pool, task, payloads, snapshot_id, document, cancel)
    if cancel.cancelled:
        raise Cancelled(cancel.reason)
    if failure is not None:
        time = round(payloads[failure.index]["time"], 3)
        raise CommandError(why_not_drawn(failure.error, pool, comp, time, smaller,
                                         failure.worker))
    return results
