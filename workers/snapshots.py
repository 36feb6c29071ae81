"""The project snapshot a render or preview worker draws from.

The supervisor sends the document with a job only when this worker does not hold that snapshot
yet (once per snapshot, not once per job); later jobs name the snapshot's id alone. The id is
the engine's (`Engine.snapshot`): its identity and revision, so two projects at one revision,
rendered one after the other on this worker, are two snapshots. A worker that was replaced
since holds nothing, and says so with a SNAPSHOT_MISSING error, on which the supervisor sends
the document again.
"""

from __future__ import annotations

from protocol.wire.frames import SNAPSHOT_MISSING
from workers.tasks import TaskError


class SnapshotMissing(TaskError):
    type = SNAPSHOT_MISSING


_held: dict = {"snapshot": None, "document": None}


def document_for(payload: dict) -> dict:
    """The document the job's snapshot id names, caching one that came with the job."""
    snapshot = payload.get("snapshot")
    if "document" in payload:
        _held["snapshot"], _held["document"] = snapshot, payload["document"]
        return payload["document"]
    if snapshot is not None and snapshot == _held["snapshot"]:
        return _held["document"]
    raise SnapshotMissing(f"this worker does not hold snapshot {snapshot} of the project")
