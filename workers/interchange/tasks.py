"""The interchange tasks a worker runs (docs/interchange.md):

    timeline_export  {snapshot, document?, comp, path, format, graphics} -> {path, tracks,
                     clips, warnings}: the comp's timeline written to `path`
    lottie_export    {snapshot, document?, comp, path} -> {path, layers, warnings}

The supervisor has checked every path against the session's roots before the job is sent.
A timeline is imported on a probe worker, as every untrusted file is read (workers/probes/
timelines.py).

OpenTimelineIO (its adapters and plugins) is imported by the first timeline job, not with this
module: every worker is forked from a forkserver that imports the task modules, and a render's
start waits for those imports, while timelines are rare.
"""

from __future__ import annotations

from workers.interchange.lottie_export import write_lottie
from workers.snapshots import document_for
from workers.tasks import TaskError, task


def _comp(document: dict, comp_id: str) -> dict:
    comp = next((c for c in document["comps"] if c["id"] == comp_id), None)
    if comp is None:
        raise TaskError(f"the project has no comp {comp_id!r}")
    return comp


@task("timeline_export")
def timeline_export(job):
    from workers.interchange.timeline_export import write_timeline  # the module docstring says why
    spec = job.payload
    document = document_for(spec)
    return write_timeline(document, _comp(document, spec["comp"]), spec["path"],
                          spec["format"], dict(spec.get("graphics") or {}))


@task("lottie_export")
def lottie_export(job):
    spec = job.payload
    document = document_for(spec)
    return write_lottie(document, _comp(document, spec["comp"]), spec["path"])
