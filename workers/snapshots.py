"""The project snapshot a render or preview worker draws from, and its render plans.

The supervisor sends the document with a job only when this worker does not hold that snapshot
yet (once per snapshot, not once per job); later jobs name the snapshot's id alone. The id is
the engine's (`Engine.snapshot`): its identity and revision, so two projects at one revision,
rendered one after the other on this worker, are two snapshots. A worker that was replaced
since holds nothing, and says so with a SNAPSHOT_MISSING error, on which the supervisor sends
the document again.

A snapshot's render plans (workers/compositor/render_plan.py, one per comp) are kept with it and
dropped with it: the chunks of a render and the previews of one revision draw from one plan,
and an edit, which makes a new snapshot, makes new plans.
"""

from __future__ import annotations

from protocol.wire.frames import SNAPSHOT_MISSING
from workers.compositor import FootageCache, RenderPlan
from workers.tasks import TaskError


class SnapshotMissing(TaskError):
    type = SNAPSHOT_MISSING


_held: dict = {"snapshot": None, "document": None, "plans": {}}


def document_for(payload: dict) -> dict:
    """The document the job's snapshot id names, caching one that came with the job."""
    snapshot = payload.get("snapshot")
    if "document" in payload:
        if payload["document"] is not _held["document"]:
            _held["plans"] = {}
        _held["snapshot"], _held["document"] = snapshot, payload["document"]
        return payload["document"]
    if snapshot is not None and snapshot == _held["snapshot"]:
        return _held["document"]
    raise SnapshotMissing(f"this worker does not hold snapshot {snapshot} of the project")


def plan_for(payload: dict, comp_id: str, footage: FootageCache) -> RenderPlan:
    """The render plan of comp `comp_id` of the job's snapshot, compiled on first use."""
    document = document_for(payload)
    plan = _held["plans"].get(comp_id)
    if plan is None:
        plan = _held["plans"][comp_id] = RenderPlan(document, comp_id, footage)
    return plan
