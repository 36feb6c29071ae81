"""Which moment of its source a precomp, video, Lottie or audio layer shows (or plays) at a
comp time: its own time scaled by `speed`, or its `timeRemap` property where that is set,
wrapped by `loop` (docs/document.md, "Time").

One function for every drawer and the mixer, so a precomp's picture and its sound can never
read time differently. Pure: no I/O.
"""

from __future__ import annotations

from protocol.model.keyframes import value_at

# Layer types that show a source with a timeline of its own, and so take timeRemap, speed and
# loop: name -> (value kind, animatable, default).
TIME_CONTENT: dict[str, tuple[str, bool, object]] = {
    # Source seconds at each comp time; null for none. Keys freeze (equal values), slow
    # (values closer than their times), reverse (falling values) or jump.
    "timeRemap": ("numberOrNull", True, None),
    # Percent of real time the source plays at (200 twice as fast, -100 backwards); not
    # animatable, since the source time would then be an integral of the keys. Ignored while
    # timeRemap is set, which says the source time outright.
    "speed": ("number", False, 100),
    # Repeat the source from its start each time it reaches its end.
    "loop": ("bool", False, False),
}
TIMED_TYPES = ("precomp", "video", "lottie", "audio")


def source_time(layer: dict, time: float, duration: float | None) -> float:
    """Seconds into the layer's source at comp time `time`. `duration` is the source's length
    in seconds (what a loop repeats), None when it has none (a still)."""
    content = layer.get("content", {})
    remapped = value_at(content.get("timeRemap"), time)
    if remapped is not None:
        source = float(remapped)
    else:
        source = (time - layer.get("startTime", 0.0)) * float(content.get("speed", 100)) / 100
    if content.get("loop") and duration and duration > 0:
        source %= duration
    return source
