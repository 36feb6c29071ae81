"""A Lottie property's value at a frame, its keys interpolated as a Lottie player does
(per-dimension cubic bezier eases from `o` to `i`, `h` holds, Bodymovin's older keys with
their end value `e`; a path's keys point by point; a position along its motion path, the
bezier its keys' spatial tangents `to` and `ti` make, as lottie-web moves it).

    value_at({"a": 1, "k": [{"t": 0, "s": [0], ...}, {"t": 10, "s": [100]}]}, 5.0)

Read by lottie.bake (an expression's `value`) and by the rules that rewrite a file as
lottie-web plays it. Pure: JSON in, numbers out.
"""

from __future__ import annotations

from typing import Any

from protocol.model.keyframes import cubic_bezier


def still_value(prop: Any) -> Any:
    """The value of a property that does not move (no keys, no expression); None otherwise."""
    if not isinstance(prop, dict) or prop.get("a") == 1 or "x" in prop:
        return None
    value = prop.get("k")
    if isinstance(value, list) and value and isinstance(value[0], dict) and "t" in value[0]:
        return None
    return value


def value_at(prop: dict, frame: float):
    """The property's value at `frame` (as the file spells it: a list per key, a number or a
    list when it does not move)."""
    keys = prop.get("k")
    if prop.get("a") != 1 or not isinstance(keys, list) or not keys or \
            not isinstance(keys[0], dict):
        return keys
    if frame <= keys[0]["t"]:
        return keys[0].get("s")
    for left, right in zip(keys, keys[1:]):
        if left["t"] <= frame < right["t"]:
            start = left.get("s")
            end = left.get("e", right.get("s"))
            if left.get("h") == 1 or end is None:
                return start
            progress = (frame - left["t"]) / (right["t"] - left["t"])
            if _is_spatial(left, start, end):
                return _along_motion_path(start, end, left["to"], left["ti"],
                                          _eased(left, 0, progress))
            return [_between(a, b, _eased(left, dimension, progress))
                    for dimension, (a, b) in enumerate(zip(start, end))]
    last = keys[-1]
    return last.get("s", keys[-2].get("e") if len(keys) > 1 else None)


def _between(start, end, eased: float):
    """The value `eased` of the way from `start` to `end`: numbers, or a path's points (its
    vertices `v` and tangents `i`, `o`, one by one, as players move a keyed path)."""
    if isinstance(start, dict) and isinstance(end, dict):
        return {**start, **{key: [[a + (b - a) * eased for a, b in zip(p, q)]
                                  for p, q in zip(start[key], end[key])]
                            for key in ("v", "i", "o") if key in start and key in end}}
    return start + (end - start) * eased


# Points lottie-web samples a motion path's bezier at: the eased progress is a fraction of the
# length of the polyline through them.
MOTION_PATH_STEPS = 150


def _is_spatial(key: dict, start, end) -> bool:
    tangents = (key.get("to"), key.get("ti"))
    return all(isinstance(t, list) and len(t) >= 2 for t in tangents) and \
        isinstance(start, list) and isinstance(end, list) and len(start) >= 2 and \
        any(value != 0 for t in tangents for value in t)


def _along_motion_path(start: list, end: list, out: list, into: list, eased: float) -> list:
    """The point `eased` of the way along the length of the bezier from `start` (leaving along
    `out`) to `end` (arriving along `into`), both tangents relative to their points."""
    count = min(len(start), len(end), len(out), len(into))
    controls = [start[:count], [start[d] + out[d] for d in range(count)],
                [end[d] + into[d] for d in range(count)], end[:count]]
    points = [bezier_point(controls, step / (MOTION_PATH_STEPS - 1))
              for step in range(MOTION_PATH_STEPS)]
    lengths = [sum((b - a) ** 2 for a, b in zip(p, q)) ** 0.5
               for p, q in zip(points, points[1:])]
    wanted = sum(lengths) * eased
    if eased <= 0 or wanted <= 0:
        return points[0]
    for here, there, length in zip(points, points[1:], lengths):
        if wanted < length:
            return [a + (b - a) * wanted / length for a, b in zip(here, there)]
        wanted -= length
    return points[-1]


def bezier_point(controls: list, t: float) -> list:
    """The point at parameter `t` of the cubic bezier through `controls` (four points of any
    dimension)."""
    u = 1 - t
    weights = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
    return [sum(w * point[d] for w, point in zip(weights, controls))
            for d in range(len(controls[0]))]


def _eased(key: dict, dimension: int, progress: float) -> float:
    out, into = key.get("o") or {}, key.get("i") or {}

    def pick(handle: dict, axis: str, default: float) -> float:
        value = handle.get(axis, default)
        if isinstance(value, list):
            value = value[min(dimension, len(value) - 1)] if value else default
        return float(value)

    return cubic_bezier(pick(out, "x", 0), pick(out, "y", 0), pick(into, "x", 1),
                        pick(into, "y", 1), progress)
