"""The project snapshot a render or preview worker draws from.

The supervisor sends the document with a job only when this worker does not hold that revision
yet (once per revision, not once per job); later jobs name the revision alone. A worker that
was replaced since holds nothing, and says so with a `snapshot-missing` error, on which the
supervisor sends the document again.
"""

from __future__ import annotations

from workers.tasks import TaskError


class SnapshotMissing(TaskError):
    pass


_held: dict = {"revision": None, "document": None}


def document_for(payload: dict) -> dict:
    """The document the job's revision names, caching one that came with the job."""
    revision = payload.get("revision")
    if "document" in payload:
        _held["revision"], _held["document"] = revision, payload["document"]
        return payload["document"]
    if revision is not None and revision == _held["revision"]:
        return _held["document"]
    raise SnapshotMissing(f"this worker does not hold revision {revision} of the project")
