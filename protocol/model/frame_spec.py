"""Frame specs: which frames of a comp to render, as the CLI's `--frames` and a render queue
item's `frames` spell them.

A spec is a comma list of parts, each `N` (one frame), `A-B` (A through B, inclusive) or `A-`
(A through the comp's last frame). Frame numbers are comp frames, from 0. Whitespace around
parts is ignored. Pure: no I/O.
"""

from __future__ import annotations

import re

_PART = re.compile(r"^(\d+)(?:(-)(\d*))?$")


class FrameSpecError(ValueError):
    """A frame spec that cannot be read; the message says which part and why."""


def parse_frame_spec(spec: str) -> list[tuple[int, int | None]]:
    """The spec's ranges as (first, last) pairs, inclusive; last is None for an open `A-`."""
    if not isinstance(spec, str) or not spec.strip():
        raise FrameSpecError(f"frame spec {spec!r} is empty; use N, A-B, A- or a comma list "
                             "such as 0-29,60")
    ranges: list[tuple[int, int | None]] = []
    for raw in spec.split(","):
        part = raw.strip()
        match = _PART.match(part)
        if not match:
            raise FrameSpecError(f"frame spec part {part!r} in {spec!r} is not N, A-B or A-; "
                                 "frames are whole numbers from 0, e.g. 0-29,60")
        first = int(match.group(1))
        if match.group(2) is None:
            ranges.append((first, first))
        elif match.group(3) == "":
            ranges.append((first, None))
        else:
            last = int(match.group(3))
            if last < first:
                raise FrameSpecError(f"frame spec part {part!r} in {spec!r} ends before it "
                                     f"starts; write it as {last}-{first}")
            ranges.append((first, last))
    return ranges


def frame_ranges(spec: str | None, frame_count: int) -> list[tuple[int, int]]:
    """The frames a spec selects in a comp of `frame_count` frames (None: all), as sorted,
    disjoint, inclusive (first, last) ranges: checking a spec, or counting its frames, never
    builds one number per frame.

    Frames past the comp's end are refused rather than silently dropped, so a typo in a spec
    never renders less than was asked for without saying so."""
    if spec is None:
        return [(0, frame_count - 1)] if frame_count > 0 else []
    ranges = []
    for first, last in parse_frame_spec(spec):
        end = frame_count - 1 if last is None else last
        if first > frame_count - 1 or end > frame_count - 1:
            raise FrameSpecError(f"frame spec {spec!r} asks for frame "
                                 f"{max(first, end)}, but the comp has frames 0-"
                                 f"{frame_count - 1}")
        ranges.append((first, end))
    merged: list[tuple[int, int]] = []
    for first, last in sorted(ranges):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def frames_of(spec: str | None, frame_count: int) -> list[int]:
    """The sorted, unique frames a spec selects in a comp of `frame_count` frames (None: all),
    one by one, for a render that visits each (at most MAX_COMP_FRAMES,
    protocol/model/limits.py)."""
    return [frame for first, last in frame_ranges(spec, frame_count)
            for frame in range(first, last + 1)]


def spec_of(frames) -> str | None:
    """The shortest comma list of `N` and `A-B` parts naming exactly `frames` (None when there
    are none): what a report gives, to be passed back as --frames."""
    parts = []
    for number in sorted(set(frames)):
        if parts and number == parts[-1][1] + 1:
            parts[-1][1] = number
        else:
            parts.append([number, number])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in parts) or None
