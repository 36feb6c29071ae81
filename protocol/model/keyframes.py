"""Keyframe evaluation: the value of a property at a comp time.

One place for it, so the supervisor (`prop.get`), the preview worker and the render workers can
never disagree about a value. Pure functions over the document's plain data (see
docs/document.md, "Properties and keyframes"); no I/O, no state.
"""

from __future__ import annotations

import math
from typing import Any

from protocol.model.bezier import is_path, morph
from protocol.model.easing import NAMES as NAMED_CURVES
from protocol.model.easing import check_ease, ease_fraction
from protocol.model.motion_paths import is_curved, point_along
from protocol.model.numbers import is_number

# The named eases, as CSS-style cubic beziers (x1, y1, x2, y2).
NAMED_EASES: dict[str, tuple[float, float, float, float]] = {
    "linear": (0.0, 0.0, 1.0, 1.0),
    "easeIn": (0.42, 0.0, 1.0, 1.0),
    "easeOut": (0.0, 0.0, 0.58, 1.0),
    "easyEase": (0.33, 0.0, 0.67, 1.0),
}
INTERPOLATIONS = ("linear", "hold", "easeIn", "easeOut", "easyEase", *NAMED_CURVES)


class Driven(dict):
    """A property whose value a worker works out for each time: an expression's result
    (workers/expressions/). It stands, in a worker's copy of the document, where the stored
    property was; `value_at` asks it, and everything that decides by `is_animated` treats it as
    moving. It has no keys of its own (`stored` keeps the property it replaced), so nothing
    takes a shortcut through keys past its value."""

    def __init__(self, stored: Any, at, at_times) -> None:
        super().__init__(keys=[])
        self.stored = stored
        self.at = at  # at(time) -> the value
        self.at_times = at_times  # at_times(times) -> the values: many times in one go


def is_animated(prop: Any) -> bool:
    return isinstance(prop, dict) and "keys" in prop


def static_value(prop: Any) -> Any:
    """The value of a property that is not animated, or of an animated one at its first key."""
    if isinstance(prop, Driven):
        return static_value(prop.stored)
    if is_animated(prop):
        return prop["keys"][0]["value"] if prop["keys"] else None
    return prop


def value_at(prop: Any, time: float) -> Any:
    """The property's value at comp time `time` (seconds)."""
    if not is_animated(prop):
        return prop
    if isinstance(prop, Driven):
        return prop.at(time)
    keys = prop["keys"]
    if not keys:
        return None
    segment = segment_at(keys, time)
    if segment is None:
        return keys[0]["value"] if time <= keys[0]["time"] else keys[-1]["value"]
    left, right, fraction = segment
    if fraction is not None and is_curved(left.get("spatialOut"), right.get("spatialIn")):
        return point_along(left["value"], left.get("spatialOut"), right.get("spatialIn"),
                           right["value"], fraction)
    return interpolate(left["value"], right["value"], fraction)


def segment_at(keys: list, time: float) -> tuple[dict, dict, float | None] | None:
    """(the key before `time`, the key after, the eased fraction between them, None for a
    hold), or None before the first key and from the last key on."""
    if not keys or time <= keys[0]["time"] or time >= keys[-1]["time"]:
        return None
    # Keys are few (a handful per property); a linear scan beats bisect's overhead here.
    for left, right in zip(keys, keys[1:]):
        if left["time"] <= time < right["time"]:
            span = right["time"] - left["time"]
            progress = (time - left["time"]) / span if span > 0 else 1.0
            return left, right, eased(left.get("interpolation", "linear"), progress, span)
    return None


def eased(interpolation: Any, progress: float, span: float = 1.0) -> float | None:
    """Map linear progress 0..1 through a segment of `span` seconds by an interpolation;
    None means hold."""
    if interpolation == "hold":
        return None
    if interpolation in NAMED_CURVES or (isinstance(interpolation, dict)
                                         and "bezier" not in interpolation):
        return ease_fraction(interpolation, progress, span)
    if isinstance(interpolation, dict):
        x1, y1, x2, y2 = interpolation["bezier"]
    else:
        x1, y1, x2, y2 = NAMED_EASES[interpolation]
    if (x1, y1, x2, y2) == (0.0, 0.0, 1.0, 1.0):
        return progress
    return cubic_bezier(x1, y1, x2, y2, progress)


def interpolate(a: Any, b: Any, fraction: float | None) -> Any:
    if fraction is None:
        return a
    if isinstance(a, bool) or isinstance(b, bool):
        return a
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a + (b - a) * fraction
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [interpolate(x, y, fraction) for x, y in zip(a, b)]
    if is_path(a) and is_path(b):
        return morph(a, b, fraction)
    return a  # text, null, gradients, mismatched shapes: hold


def cubic_bezier(x1: float, y1: float, x2: float, y2: float, x: float) -> float:
    """y for x on the CSS cubic-bezier(x1, y1, x2, y2) from (0,0) to (1,1)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0

    def sample(a1: float, a2: float, s: float) -> float:
        return 3 * a1 * (1 - s) ** 2 * s + 3 * a2 * (1 - s) * s * s + s ** 3

    def slope(a1: float, a2: float, s: float) -> float:
        return 3 * a1 * (1 - s) ** 2 + 6 * (a2 - a1) * (1 - s) * s + 3 * (1 - a2) * s * s

    # Newton's method from a good guess, then bisection if the slope is too flat to trust.
    s = x
    for _ in range(16):
        error = sample(x1, x2, s) - x
        if abs(error) < 1e-15:
            return sample(y1, y2, s)
        d = slope(x1, x2, s)
        if abs(d) < 1e-9:
            break
        s -= error / d
    # Newton can stall near flat stretches (x1 or x2 at 0 or 1); bisection always converges.
    if not (0.0 <= s <= 1.0) or abs(sample(x1, x2, s) - x) > 1e-12:
        low, high = 0.0, 1.0
        s = x
        for _ in range(60):
            if sample(x1, x2, s) < x:
                low = s
            else:
                high = s
            s = (low + high) / 2
    return sample(y1, y2, s)


def frame_time(frame: int, frame_rate: float) -> float:
    return frame / frame_rate


def frame_count(duration: float, frame_rate: float) -> int:
    return max(0, int(math.floor(duration * frame_rate + 0.5)))


def check_interpolation(interpolation: Any) -> Any:
    """`interpolation` if it is one the evaluator knows, else ValueError saying what is."""
    if interpolation in INTERPOLATIONS:
        return interpolation
    if isinstance(interpolation, dict) and set(interpolation) == {"bezier"}:
        points = interpolation["bezier"]
        if (isinstance(points, list) and len(points) == 4
                and all(is_number(p) for p in points)
                and 0 <= points[0] <= 1 and 0 <= points[2] <= 1):
            return {"bezier": list(points)}
    curve = check_ease(interpolation)
    if curve is not None:
        return curve
    raise ValueError(f"expected an interpolation ({', '.join(INTERPOLATIONS)}, "
                     f'{{"bezier": [x1, y1, x2, y2]}} with x1 and x2 in 0..1, or one of '
                     f'{", ".join(NAMED_CURVES)} with parameters such as {{"spring": '
                     f'{{"stiffness": 100, "damping": 10, "mass": 1}}}}), got '
                     f"{interpolation!r}")
