"""A rendervisor property as a Lottie animated property (docs/interchange.md, "Lottie").

    static          {"a": 0, "k": VALUE}
    keyed           {"a": 1, "k": [{"t", "s", "o", "i", "h"?, "to"?, "ti"?}, ..., {"t", "s"}]}

Key times are frames of the comp the layer is in, as rendervisor's are its comp's seconds (a
layer's start, `st`, moves only the time of a precomp's contents, never its keys). A key's interpolation is the segment to the next
key, as in rendervisor: linear and the named eases are cubic beziers (`o` the first handle, `i`
the second), hold is `h: 1`, and the eases no bezier draws (spring, bounce, elastic, back) are
baked to a key on every frame of their segment. A position's spatial tangents are `to` and `ti`.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from protocol.model.keyframes import NAMED_EASES, is_animated, value_at

LINEAR = (0.0, 0.0, 1.0, 1.0)


class Timing:
    """Key times as frames of a comp at `rate`."""

    def __init__(self, rate: float) -> None:
        self.rate = rate

    def frame(self, comp_time: float) -> float:
        return round(comp_time * self.rate, 6)


def animated(prop: Any, timing: Timing, convert: Callable[[Any], Any] = lambda v: v,
             spatial: bool = False) -> dict:
    """The Lottie property for `prop`, each value passed through `convert`."""
    if not is_animated(prop):
        return {"a": 0, "k": convert(prop)}
    keys = prop["keys"]
    if len(keys) == 1:
        return {"a": 0, "k": convert(keys[0]["value"])}
    out: list[dict] = []
    for left, right in zip(keys, keys[1:]):
        interpolation = left.get("interpolation", "linear")
        curve = _bezier(interpolation)
        if curve is None and interpolation != "hold":
            out.extend(_baked(prop, left, right, timing, convert))
            continue
        key = {"t": timing.frame(left["time"]), "s": _array(convert(left["value"]))}
        if interpolation == "hold":
            key["h"] = 1
        else:
            dims = len(key["s"]) if spatial is False else 1
            x1, y1, x2, y2 = curve
            key["o"] = {"x": [x1] * dims, "y": [y1] * dims}
            key["i"] = {"x": [x2] * dims, "y": [y2] * dims}
            if spatial:
                key["to"] = list(left.get("spatialOut") or [0.0, 0.0])
                key["ti"] = list(right.get("spatialIn") or [0.0, 0.0])
        out.append(key)
    out.append({"t": timing.frame(keys[-1]["time"]), "s": _array(convert(keys[-1]["value"]))})
    return {"a": 1, "k": out}


def mapped(prop: Any, change: Callable[[Any], Any]) -> Any:
    """`prop` with each value (static or of each key) passed through `change`."""
    if not is_animated(prop):
        return change(prop)
    return {"keys": [{**key, "value": change(key["value"])} for key in prop["keys"]]}


def _array(value: Any) -> Any:
    """Keyframe values are arrays in Lottie, even a number's; a shape's is [shape]."""
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _bezier(interpolation: Any) -> tuple | None:
    if isinstance(interpolation, str) and interpolation in NAMED_EASES:
        return NAMED_EASES[interpolation]
    if isinstance(interpolation, dict) and "bezier" in interpolation:
        return tuple(float(v) for v in interpolation["bezier"])
    return None


def _baked(prop: dict, left: dict, right: dict, timing: Timing,
           convert: Callable[[Any], Any]) -> list[dict]:
    """A segment of an ease no bezier draws, as linear keys on every frame it spans (the
    evaluator's own values, so the curve is rendervisor's exactly at each frame)."""
    first = math.ceil(left["time"] * timing.rate - 1e-9)
    last = math.ceil(right["time"] * timing.rate - 1e-9)
    times = [left["time"]] + [f / timing.rate for f in range(first, last)
                              if left["time"] < f / timing.rate < right["time"]]
    keys = []
    for time in times:
        value = _array(convert(value_at(prop, time)))
        dims = len(value)
        keys.append({"t": timing.frame(time), "s": value,
                     "o": {"x": [0.0] * dims, "y": [0.0] * dims},
                     "i": {"x": [1.0] * dims, "y": [1.0] * dims}})
    return keys
