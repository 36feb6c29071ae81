"""The interchange tasks a worker runs (docs/interchange.md):

    timeline_export  {snapshot, document?, comp, path, format, graphics} -> {path, tracks,
                     clips, warnings}: the comp's timeline written to `path`
    timeline_import  {path, frameRate?} -> the timeline's summary (protocol/model/timeline_summary.py)
    lottie_export    {snapshot, document?, comp, path} -> {path, layers, warnings}

The supervisor has checked every path against the session's roots before the job is sent.
"""

from __future__ import annotations

from workers.interchange.lottie_export import write_lottie
from workers.interchange.timeline_export import write_timeline
from workers.interchange.timeline_import import read_timeline
from workers.snapshots import document_for
from workers.tasks import TaskError, task


def _comp(document: dict, comp_id: str) -> dict:
    comp = next((c for c in document["comps"] if c["id"] == comp_id), None)
    if comp is None:
        raise TaskError(f"the project has no comp {comp_id!r}")
    return comp


@task("timeline_export")
def timeline_export(job):
    spec = job.payload
    document = document_for(spec)
    return write_timeline(document, _comp(document, spec["comp"]), spec["path"],
                          spec["format"], dict(spec.get("graphics") or {}))


@task("timeline_import")
def timeline_import(job):
    return read_timeline(job.payload["path"], job.payload.get("frameRate"))


@task("lottie_export")
def lottie_export(job):
    spec = job.payload
    document = document_for(spec)
    return write_lottie(document, _comp(document, spec["comp"]), spec["path"])
