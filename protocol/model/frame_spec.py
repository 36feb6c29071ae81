"""Frame specs: which frames of a comp to render, as the CLI's `--frames` and a render queue
item's `frames` spell them.

A spec is a comma list of parts, each `N` (one frame), `A-B` (A through B, inclusive), `A-`
(A through the comp's last frame), or either range with a step, `A-BxS` or `A-xS` (every Sth
frame from A: `0-100x5` is 0, 5, ..., 100). Frame numbers are comp frames, from 0. Whitespace
around parts is ignored. Pure: no I/O.
"""

from __future__ import annotations

import re

_PART = re.compile(r"^(\d+)(?:(-)(\d*)(?:x(\d+))?)?$")
FORMS = "N, A-B, A- or A-BxS (every Sth frame)"


class FrameSpecError(ValueError):
    """A frame spec that cannot be read; the message says which part and why."""


def parse_frame_spec(spec: str) -> list[tuple[int, int | None, int]]:
    """The spec's parts as (first, last, step), inclusive; last is None for an open `A-`."""
    if not isinstance(spec, str) or not spec.strip():
        raise FrameSpecError(f"frame spec {spec!r} is empty; use {FORMS}, or a comma list "
                             "such as 0-29,60")
    parts: list[tuple[int, int | None, int]] = []
    for raw in spec.split(","):
        part = raw.strip()
        match = _PART.match(part)
        if not match:
            raise FrameSpecError(f"frame spec part {part!r} in {spec!r} is not {FORMS}; "
                                 "frames are whole numbers from 0, e.g. 0-29,60 or 0-100x5")
        first = int(match.group(1))
        step = int(match.group(4)) if match.group(4) is not None else 1
        if step < 1:
            raise FrameSpecError(f"frame spec part {part!r} in {spec!r}: a step must be at "
                                 "least 1 (x1 is every frame)")
        if match.group(2) is None:
            parts.append((first, first, 1))
        elif match.group(3) == "":
            parts.append((first, None, step))
        else:
            last = int(match.group(3))
            if last < first:
                raise FrameSpecError(f"frame spec part {part!r} in {spec!r} ends before it "
                                     f"starts; write it as {last}-{first}")
            parts.append((first, last, step))
    return parts


def frame_ranges(spec: str | None, frame_count: int) -> list[tuple[int, int, int]]:
    """The frames a spec selects in a comp of `frame_count` frames (None: all), as sorted
    (first, last, step) runs, inclusive, `last` the last frame the step lands on; runs of
    every frame are merged when they touch. Checking a spec, or counting its frames, never
    builds one number per frame.

    Frames past the comp's end are refused rather than silently dropped, so a typo in a spec
    never renders less than was asked for without saying so."""
    if spec is None:
        return [(0, frame_count - 1, 1)] if frame_count > 0 else []
    runs = []
    for first, last, step in parse_frame_spec(spec):
        end = frame_count - 1 if last is None else last
        if first > frame_count - 1 or end > frame_count - 1:
            raise FrameSpecError(f"frame spec {spec!r} asks for frame "
                                 f"{max(first, end)}, but the comp has frames 0-"
                                 f"{frame_count - 1}")
        runs.append((first, first + (end - first) // step * step, step))
    merged: list[tuple[int, int, int]] = []
    for first, last, step in sorted(runs):
        if merged and step == merged[-1][2] == 1 and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last), 1)
        else:
            merged.append((first, last, step))
    return merged


def frames_of(spec: str | None, frame_count: int) -> list[int]:
    """The sorted, unique frames a spec selects in a comp of `frame_count` frames (None: all),
    one by one, for a render that visits each (at most MAX_COMP_FRAMES,
    protocol/model/limits.py)."""
    runs = frame_ranges(spec, frame_count)
    frames = [frame for first, last, step in runs for frame in range(first, last + 1, step)]
    if len(runs) > 1:  # runs with steps may interleave
        frames = sorted(set(frames))
    return frames


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
