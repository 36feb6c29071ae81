"""Running a drawing job on a worker with the project snapshot it needs, sent once per revision.

The supervisor remembers, per worker, the revision it last sent; a job for that revision goes
without the document. If the worker answers `snapshot-missing` (it was replaced, or its cache
was taken by another revision), the job is sent once more with the document.
"""

from __future__ import annotations

from typing import Any

from supervisor.pool import JobFailed, Pool, Worker

MISSING = "this worker does not hold revision"


def run_with_snapshot(pool: Pool, worker: Worker, task: str, payload: dict, revision: int,
                      document: dict, **options: Any) -> Any:
    with_document = worker.state.get("revision") != revision
    for attempt in range(2):
        job = dict(payload, revision=revision)
        if with_document:
            job["document"] = document
        try:
            value = pool.run(worker.kind, task, job, worker=worker, **options)
        except JobFailed as exc:
            if attempt == 0 and not with_document and str(exc).startswith(MISSING):
                with_document = True
                continue
            raise
        worker.state["revision"] = revision
        return value
    raise AssertionError("unreachable")
