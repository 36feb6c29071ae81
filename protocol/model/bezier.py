"""Bezier paths as the document stores them: the value of a path shape's `path` and of a mask's
`path` (docs/document.md, "Bezier paths").

    {"points": [[x, y], ...], "inTangents": [[dx, dy], ...], "outTangents": [[dx, dy], ...],
     "closed": true}

Each tangent is relative to its point, as Lottie's `i` and `o` are: the segment from point k to
point k+1 is the cubic P[k], P[k] + out[k], P[k+1] + in[k+1], P[k+1]; a closed path adds the
segment from the last point back to the first. Zero tangents make straight segments. A path is
one property, so two keys with the same number of points morph point by point and tangent by
tangent; keys of different counts hold (there is no sensible pairing of their points).

Pure: no I/O.
"""

from __future__ import annotations

import math
from typing import Any

from protocol.model.limits import MAX_PATH_POINTS
from protocol.model.numbers import is_number

PATH_HINT = ('a path {"points": [[x, y], ...], "inTangents": [[dx, dy], ...], "outTangents": '
             '[[dx, dy], ...], "closed": true|false} (tangents optional, one per point)')
PATH_KEYS = ("points", "inTangents", "outTangents", "closed")

# The distance of a cubic's control points from its ends that best approximates a quarter
# circle: 4/3 * (sqrt(2) - 1). Four such segments make a circle whose area is within 0.03% of
# pi r^2, which is how After Effects and Lottie draw ellipses as paths.
KAPPA = 4.0 / 3.0 * (math.sqrt(2.0) - 1.0)


def check_path(value: Any) -> dict:
    """`value` as a stored path (tangents filled in with zeros, `closed` default true), or
    ValueError with a fragment saying what was expected."""
    if isinstance(value, list):
        value = {"points": value}  # a bare list of points: straight segments, closed
    if not isinstance(value, dict):
        raise ValueError(f"expected {PATH_HINT}, got {value!r}")
    extra = sorted(set(value) - set(PATH_KEYS))
    if extra:
        raise ValueError(f"a path takes {', '.join(PATH_KEYS)}, not {', '.join(extra)}")
    points = value.get("points")
    if not isinstance(points, list) or len(points) < 2:
        raise ValueError(f"a path needs at least 2 points [x, y], got {points!r}")
    if len(points) > MAX_PATH_POINTS:
        raise ValueError(f"has {len(points):,} points, over the limit of {MAX_PATH_POINTS:,} "
                         "for a path; simplify the outline")
    path = {"points": [_pair(p, "a point [x, y]") for p in points]}
    for key in ("inTangents", "outTangents"):
        tangents = value.get(key)
        if tangents is None:
            path[key] = [[0.0, 0.0] for _ in points]
            continue
        if not isinstance(tangents, list) or len(tangents) != len(points):
            raise ValueError(f"{key} must be a list of one [dx, dy] per point ({len(points)}), "
                             f"got {tangents!r}")
        path[key] = [_pair(t, "a tangent [dx, dy]") for t in tangents]
    closed = value.get("closed", True)
    if not isinstance(closed, bool):
        raise ValueError(f"a path's closed is true or false, got {closed!r}")
    path["closed"] = closed
    return path


def _pair(value: Any, what: str) -> list:
    if not (isinstance(value, list) and len(value) == 2 and all(is_number(v) for v in value)):
        raise ValueError(f"expected {what}, got {value!r}")
    return list(value)


def is_path(value: Any) -> bool:
    return isinstance(value, dict) and "points" in value and "inTangents" in value


def morph(a: dict, b: dict, fraction: float) -> dict:
    """The path `fraction` (0..1, or past it for an overshooting ease) of the way from `a` to
    `b`: every point and tangent interpolated on its own. Paths of different point counts
    hold `a`; `closed` is always `a`'s."""
    if len(a["points"]) != len(b["points"]):
        return a
    return {key: [[x + (y - x) * fraction for x, y in zip(p, q)]
                  for p, q in zip(a[key], b[key])]
            for key in ("points", "inTangents", "outTangents")} | {"closed": a["closed"]}


def segments(path: dict) -> list[tuple[tuple, tuple, tuple, tuple]]:
    """The path's cubic segments, each (P0, P1, P2, P3) with absolute control points."""
    points, ins, outs = path["points"], path["inTangents"], path["outTangents"]
    count = len(points)
    pairs = [(k, k + 1) for k in range(count - 1)]
    if path.get("closed", True):
        pairs.append((count - 1, 0))
    return [((points[i][0], points[i][1]),
             (points[i][0] + outs[i][0], points[i][1] + outs[i][1]),
             (points[j][0] + ins[j][0], points[j][1] + ins[j][1]),
             (points[j][0], points[j][1])) for i, j in pairs]


def rect_path(cx: float, cy: float, width: float, height: float) -> dict:
    """A closed rectangle centered on (cx, cy), from its top-left corner clockwise."""
    left, top, right, bottom = cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2
    points = [[left, top], [right, top], [right, bottom], [left, bottom]]
    return {"points": points, "inTangents": [[0.0, 0.0] for _ in points],
            "outTangents": [[0.0, 0.0] for _ in points], "closed": True}


def ellipse_path(cx: float, cy: float, width: float, height: float) -> dict:
    """A closed ellipse centered on (cx, cy) as four cubics (KAPPA), from its top clockwise."""
    rx, ry = width / 2, height / 2
    kx, ky = rx * KAPPA, ry * KAPPA
    return {"points": [[cx, cy - ry], [cx + rx, cy], [cx, cy + ry], [cx - rx, cy]],
            "inTangents": [[-kx, 0.0], [0.0, -ky], [kx, 0.0], [0.0, ky]],
            "outTangents": [[kx, 0.0], [0.0, ky], [-kx, 0.0], [0.0, -ky]],
            "closed": True}
