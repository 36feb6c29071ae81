"""Which comp frame a preview or a still shows: a time is floored to the frame whose span holds
it, so `render_preview`, `rendervisor preview` and `comp.saveFrameAs` show the very frame a
render writes for that time, and label it with that frame's number. A time or a frame outside
the comp is refused with one sentence, never drawn as a background-only frame.
"""

from __future__ import annotations

import math

from protocol.model.keyframes import frame_count
from supervisor.errors import CommandError


def frame_at(comp: dict, time: float) -> int:
    """The comp frame showing at `time` (the frame whose span holds it)."""
    count = frame_count(comp["duration"], comp["frameRate"])
    # The epsilon: 0.1 * 30 is 3.0000000000000004 in floats, and must still be frame 3.
    number = math.floor(time * comp["frameRate"] + 1e-9)
    if not 0 <= number < count:
        raise CommandError(f"time {time:g} is outside comp {comp['name']!r}, which runs from 0 "
                           f"to {comp['duration']:g} s (frames 0-{count - 1}).")
    return number


def checked_frame(comp: dict, number: int) -> int:
    count = frame_count(comp["duration"], comp["frameRate"])
    if not 0 <= number < count:
        raise CommandError(f"frame {number} is outside comp {comp['name']!r}, which has frames "
                           f"0-{count - 1}.")
    return number


def chosen_frame(comp: dict, time: float | None = None, frame: int | None = None) -> int:
    """The frame a caller asked for by `time` or by `frame` (neither: frame 0)."""
    if time is not None and frame is not None:
        raise CommandError("give either a time or a frame, not both.")
    if frame is not None:
        return checked_frame(comp, frame)
    return frame_at(comp, 0.0 if time is None else time)
