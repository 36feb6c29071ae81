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
    # Counts a clip's source in the timeline's own rate, as an EDL's source timecodes do
    # (otherwise in the media's own rate).
    sources_at_timeline_rate: bool = False
    # Holds a clip's speed (OpenTimelineIO's linear time warp); where it does not, a clip
    # plays at 100% there, and the export says so.
    speeds: bool = True
    # The frame rates the format's writer knows, as it spells them; empty for any. A comp's or
    # a video's rate within RATE_SNAP of one is written as that one.
    rates: tuple[float, ...] = ()


TIMELINE_FORMATS: dict[str, TimelineFormat] = {f.name: f for f in (
    TimelineFormat("otio", ".otio", "otio_json", "OpenTimelineIO JSON: everything below"),
    TimelineFormat("fcpxml", ".fcpxml", "fcpx_xml", "Final Cut Pro X XML (also DaVinci Resolve)",
                   speeds=False, rates=(23.98, 24, 25, 29.97, 30, 50, 59.94, 60)),
    TimelineFormat("fcp7xml", ".xml", "fcp_xml",
                   "Final Cut Pro 7 XML (also Premiere Pro and DaVinci Resolve)", speeds=False),
    TimelineFormat("edl", ".edl", "cmx_3600", "CMX 3600 EDL: one video track, no sound",
                   nests=False, one_video_track=True, sources_at_timeline_rate=True),
)}


# How far a rate may be from one a format knows and still be written as it: 23.976 is 23.98,
# and a probed 29.97002997 is 29.97.
RATE_SNAP = 0.01


def format_rate(form: TimelineFormat, rate: float) -> float | None:
    """`rate` as the format writes it, or None when the format has no such rate."""
    if not form.rates:
        return rate
    nearest = min(form.rates, key=lambda known: abs(known - rate))
    return nearest if abs(nearest - rate) <= RATE_SNAP else None


def timeline_format_for(path: str) -> str | None:
    """The format a file name's extension names (`cut.edl` -> edl), or None."""
    lowered = path.lower()
    return next((f.name for f in TIMELINE_FORMATS.values() if lowered.endswith(f.extension)),
                None)
