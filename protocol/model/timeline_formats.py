"""The editorial formats a comp's timeline is written in and read from, one table: the name a
command takes, the file extension, the OpenTimelineIO adapter that reads and writes it, and what
the format can hold (docs/interchange.md says the rest in words).

Both sides read it: the supervisor for names, extensions and what to pre-render, the worker that
runs OpenTimelineIO for the adapter. Pure: data only.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TimelineFormat:
    name: str
    extension: str  # with its dot
    adapter: str  # OpenTimelineIO's adapter name
    description: str
    # Holds a nested timeline (a precomp as a compound clip or nested sequence); where it does
    # not, a precomp is graphics (pre-rendered or listed).
    nests: bool = True
    # Holds one video track and no sound (a CMX 3600 EDL): the video tracks are flattened,
    # the topmost clip winning where they overlap.
    one_video_track: bool = False
    # Holds a clip's speed (OpenTimelineIO's linear time warp); where it does not, a clip
    # plays at 100% there, and the export says so.
    speeds: bool = True


TIMELINE_FORMATS: dict[str, TimelineFormat] = {f.name: f for f in (
    TimelineFormat("otio", ".otio", "otio_json", "OpenTimelineIO JSON: everything below"),
    TimelineFormat("fcpxml", ".fcpxml", "fcpx_xml", "Final Cut Pro X XML (also DaVinci Resolve)",
                   speeds=False),
    TimelineFormat("fcp7xml", ".xml", "fcp_xml",
                   "Final Cut Pro 7 XML (also Premiere Pro and DaVinci Resolve)", speeds=False),
    TimelineFormat("edl", ".edl", "cmx_3600", "CMX 3600 EDL: one video track, no sound",
                   nests=False, one_video_track=True),
)}


def timeline_format_for(path: str) -> str | None:
    """The format a file name's extension names (`cut.edl` -> edl), or None."""
    lowered = path.lower()
    return next((f.name for f in TIMELINE_FORMATS.values() if lowered.endswith(f.extension)),
                None)
