"""Running a drawing job on a worker with the project snapshot it needs, sent once per snapshot.

The supervisor remembers, per worker, the snapshot id it last sent (`Engine.snapshot`: the
engine's identity and revision, never the revision alone, which restarts in every engine); a
job for that snapshot goes without the document. If the worker answers SNAPSHOT_MISSING (it
was replaced, or its cache was taken by another snapshot), the job is sent once more with the
document.
"""

from __future__ import annotations

from typing import Any

from protocol.wire.frames import SNAPSHOT_MISSING
from supervisor.runtime.pool import JobFailed, Pool, Worker


def run_with_snapshot(pool: Pool, worker: Worker, task: str, payload: dict, snapshot_id: str,
                      document: dict, **options: Any) -> Any:
    with_document = worker.state.get("snapshot") != snapshot_id
    for attempt in range(2):
        job = dict(payload, snapshot=snapshot_id)
        if with_document:
            job["document"] = document
        try:
            value = pool.run(worker.kind, task, job, worker=worker, **options)
        except JobFailed as exc:
            if attempt == 0 and not with_document and exc.reason == SNAPSHOT_MISSING:
                with_document = True
                continue
            raise
        worker.state["snapshot"] = snapshot_id
        return value
    raise AssertionError("unreachable")
