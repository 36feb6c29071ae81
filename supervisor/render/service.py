"""The session's render service: what renderQueue.render, renderQueue.stop,
renderQueue.estimate, comp.saveFrameAs, render.preRender, file.createProxy and template.preview
do (supervisor/engine/commands/render*.py hand them here).

    renderQueue.render ──► snapshot ──► each item with template values: its own snapshot
                                        (render/item_snapshots.py)
                                   ──► plan (render/plan.py: refusals, clashes, outputs over
                                             inputs, chunks)
                                   ──► RenderRun (render/run.py: chunks over render workers)
       wait true:  runs on the calling lane thread, progress and cancel through its Work
       wait false: a job (render/render_jobs.py, as render_start makes one) on a thread of
                   its own; renderQueue.stop or Session.close stop it

Only one render runs at a time: `_current` is taken under `_lock` before anything is planned,
so a second render, however it is started (blocking, wait:false, a batch step), is refused
with a sentence. A render works on its snapshot; the document only hears of it through the
queue items' status (matched by id; an item removed meanwhile is left out of the reply and
counted in failed) and `engine.item_progress`.
"""

from __future__ import annotations

import logging
import threading

from supervisor.errors import CommandError
from supervisor.runtime.pool import Pool
from supervisor.engine.commands.lookup import find_item
from supervisor.engine.renderer import Renderer
from supervisor.render.plan import RELINK_HINT, RenderRefused, plan_render
from supervisor.render.render_jobs import RenderJob, RenderJobs
from supervisor.render.run import RenderRun
from supervisor.work import Work
from supervisor.render.derived_footage import create_proxy, pre_render
from supervisor.render.estimates import estimate_item
from supervisor.render import interchange_jobs
from supervisor.render.item_snapshots import item_snapshots
from supervisor.render.stills import save_frame_as
from supervisor.render.template_previews import preview_template
from supervisor.render.expression_checks import check_expression
from supervisor.render.lottie_bakes import bake_lottie

log = logging.getLogger("rendervisor.render")

# How long renderQueue.stop and Session.close wait for a stopped render to clean up. Workers
# stop at their next frame or are killed after the teardown grace, so a render ends well within
# this; the bound keeps a stuck filesystem from hanging the session's end.
STOP_WAIT = 30.0


class RenderService(Renderer):
    """The session's renderer (supervisor/engine/renderer.py's interface): renders of the queue,
    stills, pre-renders and proxies, template previews, expression checks, and the
    interchange jobs, each on the pool's workers."""

    # Whether a stopped sequence keeps the frames it finished. A session's cancel takes back
    # everything the render wrote; a farm node's keeps them for a rerun (farm_service.py).
    keep_stopped = False
    # Whether an item showing missing footage renders with a placeholder drawn in its place
    # (a farm render's --allow-missing) rather than failing.
    allow_missing = False

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self._lock = threading.Lock()
        self._current: RenderRun | None = None
        self._mirrored: dict[str, str] = {}  # item id -> the status last written to the document
        self.jobs = RenderJobs()
        self._job: RenderJob | None = None  # the background render running, if one is

    # -- renderQueue.render ------------------------------------------------------------------

    def render(self, engine, params: dict, work: Work | None) -> dict:
        wait = params.get("wait", True) is not False
        if not wait:
            # Answered at once: its progress goes to renderQueue.list and render_status, and
            # cancelling that call stops nothing.
            job = self.start_job(engine)
            return {"rendering": job.run.item_ids, "job": job.id}
        run = self.start(engine, work)
        report = self._run_to_end(engine, run)
        if work is not None:
            work.cancel.check()  # cancelled: the caller answers nothing
        return report

    def start_job(self, engine, items: list | None = None) -> RenderJob:
        """Start a background render of the queue's items not yet done, or of `items` (ids,
        names or 1-based indexes, whatever their status); its job, to follow with
        render_status. CommandError as `start` refuses."""
        item_ids = None
        if items is not None:
            with engine.lock:
                item_ids = list(dict.fromkeys(find_item(engine.doc, ref)["id"] for ref in items))
        run = self.start(engine, item_ids=item_ids)
        job = self._job = self.jobs.add(run)

        def run_job() -> None:
            try:
                job.finish(self._run_to_end(engine, run))
            finally:
                if self._job is job:
                    self._job = None

        threading.Thread(target=run_job, daemon=True, name=f"render-{job.id}").start()
        return job

    def start(self, engine, work: Work | None = None, plans=None, snapshot_id=None,
              document=None, item_ids: list | None = None) -> RenderRun:
        """Take the one render slot and plan the render (the queue's items not yet done, the
        items `item_ids`, or the given `plans`); CommandError if a render runs, nothing is
        queued, or outputs clash."""
        with self._lock:
            stopping = self._current
        if stopping is not None and (stopping.stopped or stopping.all_ended):
            # A render that was stopped (a cancelled call, renderQueue.stop) or has ended every
            # item is only cleaning up: its workers stop at their next frame or are killed
            # after the teardown grace. A render asked for now waits for that, not refused.
            stopping.ended.wait(STOP_WAIT)
        with self._lock:
            if self._current is not None and not self._current.ended.is_set():
                raise CommandError(
                    "a render is already running (items "
                    f"{', '.join(self._current.item_ids)}); only one render runs at a time. "
                    "Wait for it to finish (renderQueue.list shows its progress) or stop it "
                    "with renderQueue.stop.")
            queued = plans is None
            if queued:
                snapshot_id, document = engine.snapshot()
                plans = self._queue_plans(engine, snapshot_id, document, item_ids)
            run = RenderRun(self.pool, snapshot_id, document, plans,
                            on_progress=work.progress if work is not None else None,
                            cancel=work.cancel.child() if work is not None else None,
                            on_item=(lambda item, status, progress: self._item_event(
                                engine, item, status, progress)) if queued else None,
                            keep_stopped=self.keep_stopped,
                            check_write=lambda path: engine.check_path(path, "write"),
                            probes=engine.probes)
            self._current = run
            self._mirrored.clear()  # the document's statuses may have changed since
        if not queued:
            return run
        for item in run.items:
            self._item_changed(engine, item.plan.id,
                               "rendering" if not item.finished else str(item.status),
                               1.0 if item.status == "done" else 0.0)
        return run

    def _queue_plans(self, engine, snapshot_id: str, document: dict,
                     item_ids: list | None = None) -> list:
        ids = item_ids or [item["id"] for item in document["renderQueue"]
                           if item["status"] != "done"]
        if not ids:
            done = len(document["renderQueue"])
            raise CommandError(
                "there is nothing to render: " + (
                    f"all {done} queue items are done; renderQueue.set queues an item again, "
                    "or renderQueue.add adds one." if done else
                    "the render queue is empty; add an item with renderQueue.add."))
        workers = self.pool.capacity("render") or 1
        try:
            return plan_render(document, ids, workers,
                               lambda path: engine.check_path(path, "write"),
                               engine.project_path,
                               item_snapshots(engine, snapshot_id, document, ids),
                               self.relink_hint(engine.project_path), engine.probes,
                               self.allow_missing)
        except RenderRefused as refusal:
            raise CommandError(str(refusal)) from None

    def relink_hint(self, project_path: str | None) -> str:
        """What to do about missing footage, in this front door's words."""
        return RELINK_HINT

    def _run_to_end(self, engine, run: RenderRun) -> dict:
        try:
            report = run.run()
        finally:
            with self._lock:
                if self._current is run:  # a render that waited for this one's end may be next
                    self._current = None
        for entry in report["items"]:
            self._item_changed(engine, entry["item"], entry["status"],
                               1.0 if entry["status"] == "done" else None)
        return self._matched(engine, report)

    def _matched(self, engine, report: dict) -> dict:
        """The report without items removed from the queue meanwhile; each counts as failed."""
        with engine.lock:
            present = {item["id"] for item in engine.doc["renderQueue"]}
        items = [entry for entry in report["items"] if entry["item"] in present]
        removed = len(report["items"]) - len(items)
        return {"completed": sum(entry["status"] == "done" for entry in items),
                "failed": sum(entry["status"] == "failed" for entry in items) + removed,
                "seconds": report["seconds"], "items": items}

    def _item_event(self, engine, item_id: str, status: str, progress: float) -> None:
        """What the render run reports of an item as it renders: its first chunk going out
        ("rendering", 0), each frame written, its end. A farm node also shows them."""
        self._item_changed(engine, item_id, status, progress)
        job = self._job
        if job is not None:
            job.notify()

    def _item_changed(self, engine, item_id: str, status: str, progress: float | None) -> None:
        """Mirror an item's state into the document (status) and engine.item_progress.

        Called for every frame written, from the render's threads: only a change of status
        touches the document (and takes its lock), so an edit holding the lock never holds up
        the workers' progress."""
        if progress is not None:
            engine.item_progress[item_id] = progress
        if self._mirrored.get(item_id) == status:
            return
        self._mirrored[item_id] = status

        def change(doc: dict) -> None:
            for item in doc["renderQueue"]:
                if item["id"] == item_id and item["status"] != status:
                    item["status"] = status

        engine.edit_quietly(change)

    # -- renderQueue.stop, the session's end --------------------------------------------------

    def stop(self, engine, params: dict, work: Work | None) -> dict:
        with self._lock:
            run = self._current
        if run is None:
            return {"stopped": False, "message": "no render is running."}
        run.stop()
        run.ended.wait(STOP_WAIT)
        report = run.report or {"items": []}
        return {"stopped": True,
                "items": [{"item": entry["item"], "status": entry["status"]}
                          for entry in report["items"]]}

    def close(self) -> None:
        """Stop a render still running (a wait:false one) and remove its partial files."""
        with self._lock:
            run = self._current
        if run is not None:
            run.stop()
            run.ended.wait(STOP_WAIT)

    # -- the other render commands ------------------------------------------------------------

    def save_frame_as(self, engine, params: dict, work: Work | None) -> dict:
        return save_frame_as(self, engine, params, work)

    def pre_render(self, engine, params: dict, work: Work | None) -> dict:
        return pre_render(self, engine, params, work)

    def create_proxy(self, engine, params: dict, work: Work | None) -> dict:
        return create_proxy(self, engine, params, work)

    def preview_template(self, engine, params: dict, work: Work | None) -> dict:
        return preview_template(self, engine, params, work)

    def estimate(self, engine, params: dict, work: Work | None) -> dict:
        return estimate_item(self.pool, engine, params["item"], work)

    def check_expression(self, engine, params: dict, work: Work | None) -> dict:
        return check_expression(self, engine, params, work)

    def bake_lottie(self, engine, params: dict, work: Work | None) -> dict:
        return bake_lottie(self, engine, params, work)
    def timeline_export(self, engine, params: dict, work: Work | None) -> dict:
        return interchange_jobs.timeline_export(self, engine, params, work)

    def timeline_import(self, engine, params: dict, work: Work | None) -> dict:
        return interchange_jobs.timeline_import(self, engine, params, work)

    def lottie_export(self, engine, params: dict, work: Work | None) -> dict:
        return interchange_jobs.lottie_export(self, engine, params, work)

    def run_plans(self, engine, snapshot_id: str, document: dict, plans: list,
                  work: Work | None) -> dict:
        """Render plans that are not queue items (a pre-render, a proxy) from a snapshot, as
        the one render, blocking, with the caller's progress and cancel; the run's report."""
        run = self.start(engine, work, plans, snapshot_id, document)
        try:
            report = run.run()
        finally:
            with self._lock:
                if self._current is run:  # a render that waited for this one's end may be next
                    self._current = None
        if work is not None:
            work.cancel.check()
        return report
