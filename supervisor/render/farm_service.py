"""The session's RenderService as a farm node uses it: the same planning and chunk scheduling
(supervisor/render/service.py, supervisor/render/run.py), with `--chunk-size` deciding the chunks
when it is given, each item's events (started, progressed, finished) told to the display, and
the frames a stopped sequence finished kept for a rerun.
Kept apart so the MCP session's service carries no command-line option."""

from __future__ import annotations

from supervisor.render.service import RenderService
from workers.exporter.chunk_plan import plan_chunks


class FarmRenderService(RenderService):
    # A farm manager stops a task with SIGTERM and runs it again later: the frames it finished
    # stay for that rerun's --skip-existing.
    keep_stopped = True

    def __init__(self, pool, chunk_size: int | None = None, on_item=None,
                 allow_missing: bool = False) -> None:
        super().__init__(pool)
        self.chunk_size = chunk_size
        self.allow_missing = allow_missing
        # (item id, status, progress) as the run reports each item: the display's row events
        self.on_item = on_item

    def _item_event(self, engine, item_id: str, status: str, progress: float) -> None:
        super()._item_event(engine, item_id, status, progress)
        if self.on_item is not None:
            self.on_item(item_id, status, progress)

    def relink_hint(self, project_path: str | None) -> str:
        return (f"put the file back, or point the footage of {project_path} at where it is now "
                "and save the project")

    def _queue_plans(self, engine, snapshot_id: str, document: dict,
                     item_ids: list | None = None) -> list:
        plans = super()._queue_plans(engine, snapshot_id, document, item_ids)
        if self.chunk_size is not None:
            for plan in plans:
                if plan.chunks:
                    # Video chunks still start on key frames: plan_chunks rounds the size up.
                    plan.chunks = plan_chunks(plan.frames, plan.format, parts=1,
                                              chunk_size=self.chunk_size)
        return plans
