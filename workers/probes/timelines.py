"""An editorial timeline `timeline.import` names (OTIO, FCP X XML, FCP 7 XML, EDL): read whole
from the file the supervisor checked (within the size limit) and summarised by
workers/interchange/timeline_import.py. Its XML is read by the standard library's expat, which
resolves no external entity and stops entities that expand past a small factor of the input."""

from __future__ import annotations

from workers.probes.opened import read_whole
from workers.tasks import TaskError


def probe_timeline(job_file: dict, limit: int, frame_rate: float | None) -> dict:
    """The timeline's summary (protocol/model/timeline_summary.py)."""
    # OpenTimelineIO on the first timeline, not in every worker's start: workers/interchange/
    # tasks.py says why.
    from workers.interchange.timeline_import import read_timeline
    try:
        text = read_whole(job_file, limit).decode("utf-8")
    except UnicodeDecodeError as error:
        raise TaskError(f"cannot import {job_file['name']}: it is not UTF-8 text (byte "
                        f"{error.start}); export it again from its editor.") from None
    return read_timeline(text, job_file["path"], frame_rate, job_file["name"])
