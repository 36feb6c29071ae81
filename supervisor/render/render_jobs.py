"""Renders started in the background and followed by polling: render_start, render_status and
`renderQueue.render {wait: false}`.

A host that gives each request 60 s cannot wait on a ten-minute render, and an agent should not
have to: it starts the render (the call returns at once with a job id), then asks for its state
as often as it likes, each ask waiting up to a bound for something to change. A job is the
render's run (supervisor/render/run.py) seen from outside:

    RenderService.start_job ──► RenderJob(id, run) ── thread: run.run() ──► report
                                    │  changed: notified on every item event and at the end
    render_status ──► job.wait_for_change(seconds, cancel) ──► job.status()

Jobs are kept by id after they end, so the last status (each item's output, its error) can be
read once more; the oldest ended jobs are forgotten past JOBS_KEPT. Never renders anything
itself, and never holds the document lock.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict

from protocol.cancel import Cancel

# Ended jobs remembered. Each holds its report (a few hundred bytes an item); an agent reads a
# job's end once or twice, so a handful is plenty, and a long session never grows without bound.
JOBS_KEPT = 16


class RenderJob:
    def __init__(self, job_id: str, run) -> None:
        self.id = job_id
        self.run = run
        self.report: dict | None = None  # the render service's report once the run ended
        self.changed = threading.Condition()

    def notify(self) -> None:
        """Something a status shows changed: wake every render_status waiting on the job."""
        with self.changed:
            self.changed.notify_all()

    def finish(self, report: dict) -> None:
        with self.changed:
            self.report = report
            self.changed.notify_all()

    @property
    def state(self) -> str:
        """rendering, then done (every item done), failed (an item failed) or stopped."""
        if self.report is None:
            return "rendering"
        if self.report["failed"]:
            return "failed"
        if any(entry["status"] == "stopped" for entry in self.report["items"]):
            return "stopped"
        return "done"

    def _mark(self) -> tuple:
        """What a change is: the state, or an item's status."""
        return (self.state, tuple(item.status for item in self.run.items))

    def wait_for_change(self, seconds: float, cancel: Cancel) -> None:
        """Return when the state or an item's status changes, `seconds` pass, or `cancel` is
        cancelled (the caller checks it); at once for a job that has ended, which will not
        change again (it may have ended between a client's two calls)."""
        deadline = time.monotonic() + seconds
        wake = cancel.on_cancel(self.notify)
        try:
            with self.changed:
                start = self._mark()
                while (self.report is None and self._mark() == start
                       and not cancel.cancelled):
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return
                    self.changed.wait(remaining)
        finally:
            wake()

    def status(self) -> dict:
        """{job, state, progress, total, items}: frames written of frames to write, and each
        item as it stands (its report entry once the render ended)."""
        run = self.run
        if self.report is not None:
            items = self.report["items"]
        else:
            items = [{"item": item.plan.id, "status": str(item.status), "output": item.plan.output,
                      **({"error": item.error} if item.error and item.status == "failed"
                         else {})}
                     for item in run.items]
        progress = run.total if self.state == "done" else min(run.written, run.total)
        return {"job": self.id, "state": self.state, "progress": progress,
                "total": run.total, "items": items}


class RenderJobs:
    """The session's jobs by id: the running one and the last JOBS_KEPT that ended."""

    def __init__(self) -> None:
        self._jobs: OrderedDict[str, RenderJob] = OrderedDict()
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()

    def add(self, run) -> RenderJob:
        with self._lock:
            job = RenderJob(f"render-{next(self._numbers)}", run)
            self._jobs[job.id] = job
            ended = [key for key, kept in self._jobs.items() if kept.report is not None]
            for key in ended[:max(0, len(ended) - JOBS_KEPT)]:
                del self._jobs[key]
            return job

    def get(self, job_id: str) -> RenderJob | None:
        with self._lock:
            return self._jobs.get(job_id)

    def known(self) -> list[str]:
        with self._lock:
            return list(self._jobs)
