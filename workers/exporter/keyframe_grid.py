"""Where a video's segments start and what they are called while they are written: the key
frame grid every split of one video follows (`keyframe_interval_for`, `segment_ranges`) and a
segment's temporary name (`segment_path`).

Plain arithmetic and names, no encoder: the supervisor plans a video's chunks on this grid
and names each chunk's segment before dispatch, and must not import PyAV and numpy to do so
(segments.py, which encodes on the grid, does).
"""

from __future__ import annotations

from workers.exporter.atomic_files import temporary_path

# Frames between forced key frames, and so between encoder restarts. One second at 30 fps
# for a video of a few seconds: a shorter interval balances chunks across workers more finely
# but costs an encoder start (about 30 ms for x264, 200 ms for x265 at 1080p) and a key frame,
# which is where a lossy encoder's picture jumps (a near-static shot "pulses" at each one:
# the key frame codes the whole picture afresh, the frames between only what changed).
KEYFRAME_INTERVAL = 30
# A video shorter than KEYFRAME_UNITS intervals of KEYFRAME_INTERVAL gets a shorter interval, so
# it still splits into about KEYFRAME_UNITS runs that workers can share evenly (90 frames in 3
# runs of 30 leave one of 2 workers idle for the last third); never below MIN_KEYFRAME_INTERVAL
# frames, where the encoder starts and key frames would cost more than the balance gains.
KEYFRAME_UNITS = 8
MIN_KEYFRAME_INTERVAL = 8
# A longer video gets rarer key frames, as rare as still leaves LONG_KEYFRAME_UNITS runs to
# share out, up to MAX_KEYFRAME_INTERVAL (8 s at 30 fps, about x264's own default of 250):
# fewer pulses, and a player still finds a key frame within a few seconds of any seek.
LONG_KEYFRAME_UNITS = 16
MAX_KEYFRAME_INTERVAL = 240


def keyframe_interval_for(frame_count: int) -> int:
    """The key frame interval of a video of `frame_count` frames: about frame_count /
    KEYFRAME_UNITS for a short video (at least MIN_KEYFRAME_INTERVAL), KEYFRAME_INTERVAL from
    KEYFRAME_UNITS intervals on, and frame_count / LONG_KEYFRAME_UNITS once that is longer (at
    most MAX_KEYFRAME_INTERVAL). The one rule every split of a video must follow; it depends
    on nothing but the count, so the file is the same for any number of workers or nodes."""
    if frame_count >= KEYFRAME_UNITS * KEYFRAME_INTERVAL:
        return min(MAX_KEYFRAME_INTERVAL,
                   max(KEYFRAME_INTERVAL, frame_count // LONG_KEYFRAME_UNITS))
    return max(MIN_KEYFRAME_INTERVAL, -(-frame_count // KEYFRAME_UNITS))


def segment_path(final_path: str, first_frame_index: int, token: str | None = None) -> str:
    """A temporary name for a segment of `final_path`, in its folder (see temporary_path)."""
    return temporary_path(final_path, label=f"seg{first_frame_index:06d}", token=token)


def segment_ranges(frame_count: int, parts: int,
                   keyframe_interval: int | None = None) -> list[range]:
    """Split a video's frame indices into at most `parts` runs of near-equal length, every
    split on a multiple of the key frame interval (by default `keyframe_interval_for`), so the
    joined video is identical whatever `parts` is. Fewer runs come back when there are fewer
    intervals than parts."""
    if frame_count <= 0:
        return []
    if keyframe_interval is None:
        keyframe_interval = keyframe_interval_for(frame_count)
    intervals = -(-frame_count // keyframe_interval)
    parts = max(1, min(parts, intervals))
    ranges = []
    start = 0
    for part in range(parts):
        end_interval = (intervals * (part + 1)) // parts
        end = min(frame_count, end_interval * keyframe_interval)
        ranges.append(range(start, end))
        start = end
    return ranges
