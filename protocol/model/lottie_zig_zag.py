"""A Zig Zag shape modifier (`zz`) made into the paths it makes, as lottie-web makes them: the
ThorVG rendervisor plays Lottie with (1.0) does not draw the modifier, and drew the shapes
before it plain.

    zig_zags_as_paths(animation)   # in place: each zig zag's shapes become paths

A zig zag in a shape list bends every path before it in that list (ellipses `el`, paths
`sh`; a still rectangle is a path by then, lottie_web_rules.py): `r` ridges on each segment
(rounded), `s` their amplitude, `pt` 1 for corners, 2 for smooth points. Each shape becomes a
path (`sh`), still when nothing about it moves, else a hold key at every frame of its layer,
and the modifier goes. A list whose zig zag bends anything else (a group, a star, a rounded
or moving rectangle) is left to ThorVG as it is.

lottie-web's ZigZagModifier (5.13), step by step: the corner at each vertex pushed out along
the perpendicular of its neighbours' chord, the ridges at equal steps of each segment's
bezier parameter pushed out along its normal, alternately in and out.

Pure: JSON in, changed in place; no I/O.
"""

from __future__ import annotations

import math

from protocol.model.lottie_trees import dicts, layers
from protocol.model.lottie_values import bezier_point, value_at

# Over at most this many frames a moving zig zag is held at whole frames; beyond, it is left
# to ThorVG.
MAX_FRAMES = 10_000

# lottie-web's handle length for a quarter ellipse, over the radius.
ELLIPSE_HANDLE = 0.5519

BENT = {"el", "sh"}


def zig_zags_as_paths(animation: dict) -> None:
    for layer in layers(animation):
        _in_list(layer.get("shapes"), layer)


def _in_list(items, layer: dict) -> None:
    items = dicts(items)
    for item in items:
        if item.get("ty") == "gr":
            _in_list(item.get("it"), layer)
    for index, item in enumerate(items):
        if item.get("ty") != "zz":
            continue
        bent = [shape for shape in items[:index] if shape.get("ty") in BENT]
        others = [shape for shape in items[:index]
                  if shape.get("ty") not in BENT | {"fl", "st", "gf", "gs", "tr"}]
        frames = _frames(layer)
        if others or not bent or frames is None:
            return
        for shape in bent:
            moving = any(_moves(prop) for prop in (item.get("s"), item.get("r"), item.get("pt"),
                                                   shape.get("ks"), shape.get("s"),
                                                   shape.get("p")))
            paths = [(frame, _bent_path(shape, item, frame))
                     for frame in (frames if moving else [0])]
            if any(path is None for _, path in paths):
                return
            kept = {key: shape[key] for key in ("nm", "mn", "hd", "ind", "ix") if key in shape}
            shape.clear()
            shape.update(kept, ty="sh", ks={"a": 0, "k": paths[0][1]} if not moving else {
                "a": 1, "k": [{"t": frame, "s": [path], "h": 1} for frame, path in paths]})
        items.remove(item)
        return


def _frames(layer: dict) -> list[int] | None:
    """The whole frames of the layer's own time it is shown at."""
    start = layer.get("st", 0)
    first, last = math.floor(layer.get("ip", 0) - start), math.ceil(layer.get("op", 0) - start)
    return list(range(first, last + 1)) if 0 <= last - first <= MAX_FRAMES else None


def _moves(prop) -> bool:
    return isinstance(prop, dict) and prop.get("a") == 1


def _number(prop, frame: float, default: float) -> float:
    if not isinstance(prop, dict):
        return default
    value = value_at(prop, frame)
    value = value[0] if isinstance(value, list) and value else value
    return float(value) if isinstance(value, (int, float)) else default


def _bent_path(shape: dict, zig_zag: dict, frame: float) -> dict | None:
    path = _ellipse(shape, frame) if shape.get("ty") == "el" else _path(shape, frame)
    if path is None:
        return None
    amplitude = _number(zig_zag.get("s"), frame, 0)
    ridges = max(0, math.floor(_number(zig_zag.get("r"), frame, 0) + 0.5))
    point_type = _number(zig_zag.get("pt"), frame, 1)
    if amplitude != 0:
        path = _zig_zag(path, amplitude, ridges, point_type)
    return {"c": path["c"], "v": path["v"],
            "i": [[x - v[0], y - v[1]] for (x, y), v in zip(path["i"], path["v"])],
            "o": [[x - v[0], y - v[1]] for (x, y), v in zip(path["o"], path["v"])]}


def _path(shape: dict, frame: float) -> dict | None:
    """A path's vertices and its handles made absolute, as lottie-web holds them."""
    value = value_at(shape.get("ks") or {}, frame)
    value = value[0] if isinstance(value, list) and value else value
    if not isinstance(value, dict) or not value.get("v"):
        return None
    points = [list(map(float, p[:2])) for p in value["v"]]
    absolute = {key: [[p[0] + h[0], p[1] + h[1]] for p, h in zip(points, value.get(key) or [])]
                for key in ("i", "o")}
    if any(len(handles) != len(points) for handles in absolute.values()):
        return None
    return {"c": bool(value.get("c")), "v": points, **absolute}


def _ellipse(shape: dict, frame: float) -> dict | None:
    """An ellipse as lottie-web makes it a path: four points from the top, clockwise unless
    its direction `d` is 3."""
    position, size = value_at(shape.get("p") or {}, frame), value_at(shape.get("s") or {}, frame)
    if not (isinstance(position, list) and isinstance(size, list) and len(position) >= 2 and
            len(size) >= 2):
        return None
    x, y = position[0], position[1]
    rx, ry = size[0] / 2, size[1] / 2
    turn = -1 if shape.get("d") == 3 else 1
    k = ELLIPSE_HANDLE
    return {"c": True,
            "v": [[x, y - ry], [x + turn * rx, y], [x, y + ry], [x - turn * rx, y]],
            "i": [[x - turn * rx * k, y - ry], [x + turn * rx, y - ry * k],
                  [x + turn * rx * k, y + ry], [x - turn * rx, y + ry * k]],
            "o": [[x + turn * rx * k, y - ry], [x + turn * rx, y + ry * k],
                  [x - turn * rx * k, y + ry], [x - turn * rx, y - ry * k]]}


def _zig_zag(path: dict, amplitude: float, ridges: int, point_type: float) -> dict:
    """lottie-web's ZigZagModifier.processPath."""
    count = len(path["v"])
    out = {"c": path["c"], "v": [], "i": [], "o": []}
    segments = count if path["c"] else count - 1
    if segments <= 0:
        return out
    direction = -1
    _corner(out, path, 0, amplitude, ridges, point_type, direction)
    for index in range(segments):
        segment = _segment(path, index)
        chord = math.dist(segment[3], segment[0]) if point_type == 2 else 0
        direction = -direction
        for ridge in range(ridges):
            t = (ridge + 1) / (ridges + 1)
            _point(out, bezier_point(segment, t), _normal_angle(segment, t), direction,
                   amplitude, chord / ((ridges + 1) * 2), chord / ((ridges + 1) * 2))
            direction = -direction
        _corner(out, path, index + 1, amplitude, ridges, point_type, direction)
    return out


def _corner(out: dict, path: dict, at: int, amplitude: float, ridges: int, point_type: float,
            direction: int) -> None:
    """The vertex `at`, pushed out square to the chord between its neighbours (for an open
    path's last, the vertex after it is the first, as lottie-web takes it)."""
    vertices, count = path["v"], len(path["v"])
    before, after = vertices[count - 1 if at == 0 else at - 1], vertices[(at + 1) % count]
    point = vertices[at % count]
    # lottie-web turns the chord a quarter turn, [x, y] to [y, -x], and takes its angle
    angle = -math.atan2(-(after[0] - before[0]), after[1] - before[1])
    out_length = math.dist(point, after) / ((ridges + 1) * 2) if point_type == 2 else 0
    in_length = math.dist(point, before) / ((ridges + 1) * 2) if point_type == 2 else 0
    _point(out, point, angle, direction, amplitude, out_length, in_length)


def _point(out: dict, point, angle: float, direction: int, amplitude: float,
           out_length: float, in_length: float) -> None:
    x = point[0] + math.cos(angle) * direction * amplitude
    y = point[1] - math.sin(angle) * direction * amplitude
    leaving, arriving = angle - math.pi / 2, angle + math.pi / 2
    out["v"].append([x, y])
    out["o"].append([x + math.cos(leaving) * out_length, y - math.sin(leaving) * out_length])
    out["i"].append([x + math.cos(arriving) * in_length, y - math.sin(arriving) * in_length])


def _segment(path: dict, index: int) -> list:
    """The cubic from vertex `index` to the next, its handles made thirds of the chord where
    they are none (lottie-web's PolynomialBezier, linearized)."""
    after = (index + 1) % len(path["v"])
    p0, p1, p2, p3 = path["v"][index], path["o"][index], path["i"][after], path["v"][after]
    if _same(p0, p1):
        p1 = [p0[0] + (p3[0] - p0[0]) / 3, p0[1] + (p3[1] - p0[1]) / 3]
    if _same(p2, p3):
        p2 = [p0[0] + (p3[0] - p0[0]) * 2 / 3, p0[1] + (p3[1] - p0[1]) * 2 / 3]
    return [p0, p1, p2, p3]


def _same(a, b) -> bool:
    return all(abs(x - y) * 100000 <= min(abs(x), abs(y)) for x, y in zip(a, b))


def _normal_angle(c: list, t: float) -> float:
    u = 1 - t
    d = [3 * u * u * (c[1][k] - c[0][k]) + 6 * u * t * (c[2][k] - c[1][k]) +
         3 * t * t * (c[3][k] - c[2][k]) for k in (0, 1)]
    return math.atan2(d[0], d[1])
