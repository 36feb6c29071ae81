"""Motion paths: where a position-like property is between two keys whose spatial tangents bend
the straight line into a cubic, and which way it is heading (for auto-orient).

Between keys with values P0 and P3, the path is the cubic P0, P0 + spatialOut, P3 + spatialIn,
P3 (the tangents relative to their keys, as `prop.addKey` takes them). The temporal ease gives a
fraction f of the way; the point is the one at arc length f * L along the cubic (L its length),
not at the cubic's own parameter f, which bunches up where the handles are long. That is how
After Effects moves a layer along a motion path, so an ease keeps its speed profile on a curve.
A fraction past 0 or 1 (an overshooting ease) continues along the end tangent.

Pure: no I/O. The arc-length tables are memoised, since a render asks for the same segment on
every frame; the results do not depend on the memo.
"""

from __future__ import annotations

import bisect
import math
from functools import lru_cache

Point = tuple[float, float]

# Chords per arc-length table. 128 chords put a point of a 1000 px curve within a few hundredths
# of a pixel of its exact arc-length position (and cost about 0.2 ms to build once).
SAMPLES = 128


def is_curved(out_tangent, in_tangent) -> bool:
    return any(out_tangent or ()) or any(in_tangent or ())


def point_along(start, out_tangent, in_tangent, end, fraction: float) -> list[float]:
    """The point `fraction` of the way along the motion path from `start` to `end`."""
    curve = _controls(start, out_tangent, in_tangent, end)
    lengths = _table(curve)
    total = lengths[-1]
    if total <= 0:
        return [float(start[0]), float(start[1])]
    distance = fraction * total
    if distance <= 0 or distance >= total:
        at_end = distance >= total
        origin = curve[3] if at_end else curve[0]
        dx, dy = _unit(_derivative(curve, 1.0 if at_end else 0.0), curve)
        beyond = distance - total if at_end else distance
        return [origin[0] + dx * beyond, origin[1] + dy * beyond]
    x, y = _point(curve, _parameter(lengths, distance))
    return [x, y]


def heading_along(start, out_tangent, in_tangent, end, fraction: float) -> float:
    """The direction of travel, in degrees clockwise from +x (y points down), at `fraction`."""
    curve = _controls(start, out_tangent, in_tangent, end)
    lengths = _table(curve)
    total = lengths[-1]
    t = _parameter(lengths, min(max(fraction, 0.0), 1.0) * total) if total > 0 else 0.0
    dx, dy = _unit(_derivative(curve, t), curve)
    return math.degrees(math.atan2(dy, dx))


def _controls(start, out_tangent, in_tangent, end) -> tuple[Point, Point, Point, Point]:
    out_tangent, in_tangent = out_tangent or (0.0, 0.0), in_tangent or (0.0, 0.0)
    return ((float(start[0]), float(start[1])),
            (start[0] + out_tangent[0], start[1] + out_tangent[1]),
            (end[0] + in_tangent[0], end[1] + in_tangent[1]),
            (float(end[0]), float(end[1])))


@lru_cache(maxsize=1024)
def _table(curve: tuple) -> tuple[float, ...]:
    """Cumulative chord lengths at t = i / SAMPLES."""
    lengths, previous, total = [0.0], curve[0], 0.0
    for i in range(1, SAMPLES + 1):
        point = _point(curve, i / SAMPLES)
        total += math.hypot(point[0] - previous[0], point[1] - previous[1])
        lengths.append(total)
        previous = point
    return tuple(lengths)


def _parameter(lengths: tuple, distance: float) -> float:
    """The cubic's t at arc length `distance`, linear between the table's samples."""
    index = min(max(bisect.bisect_left(lengths, distance), 1), SAMPLES)
    low, high = lengths[index - 1], lengths[index]
    within = (distance - low) / (high - low) if high > low else 0.0
    return (index - 1 + within) / SAMPLES


def _point(curve, t: float) -> Point:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = curve
    u = 1 - t
    a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
    return (a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3)


def _derivative(curve, t: float) -> Point:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = curve
    u = 1 - t
    a, b, c = 3 * u * u, 6 * u * t, 3 * t * t
    return (a * (x1 - x0) + b * (x2 - x1) + c * (x3 - x2),
            a * (y1 - y0) + b * (y2 - y1) + c * (y3 - y2))


def _unit(vector: Point, curve) -> Point:
    """`vector` made unit length; where it vanishes (a handle on its own point), the chord's
    direction instead, and (1, 0) for a path that goes nowhere."""
    for dx, dy in (vector, (curve[3][0] - curve[0][0], curve[3][1] - curve[0][1])):
        length = math.hypot(dx, dy)
        if length > 1e-12:
            return dx / length, dy / length
    return 1.0, 0.0
