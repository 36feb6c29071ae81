"""Shape, solid and text layers' content as Lottie shape items (docs/interchange.md, "Lottie").

Every outline is written as a bezier path (`sh`) starting where rendervisor's own outline starts
(a rect at its top-left corner, an ellipse at its top, each clockwise), so a trimmed or dashed
stroke runs the same way in a player. A polygon's or star's corners and a text's glyphs are the
compositor's own (workers/compositor/shapes.py, text_layout.py), turned into paths.

The stroke draws over the fill, and only the stroke is trimmed and dashed, so a shape is two
groups: [stroke group (paths, trim, stroke), fill group (paths, fill)], Lottie drawing the first
item of a list on top.
"""

from __future__ import annotations

from typing import Any

import skia

from protocol.model.bezier import ellipse_path, rect_path
from protocol.model.keyframes import is_animated, static_value
from workers.compositor.shapes import shape_path
from workers.compositor.text_layout import lay_out
from workers.interchange.lottie_values import Timing, animated, mapped

# Lottie's line caps and joins, by rendervisor's names.
CAPS = {"butt": 1, "round": 2, "square": 3}
JOINS = {"miter": 1, "round": 2, "bevel": 3}
MITER_LIMIT = 4  # Skia's default, which the compositor keeps


def bezier_shape(path: dict) -> dict:
    """A rendervisor bezier path as a Lottie shape value {c, v, i, o}."""
    return {"c": bool(path.get("closed", True)), "v": [list(p) for p in path["points"]],
            "i": [list(t) for t in path["inTangents"]],
            "o": [list(t) for t in path["outTangents"]]}


def path_item(prop: Any, timing: Timing, name: str = "Path") -> dict:
    """An `sh` item for a bezier path property (static or keyed)."""
    return {"ty": "sh", "nm": name, "ks": animated(prop, timing, bezier_shape)}


def skia_shapes(path: skia.Path) -> list[dict]:
    """A Skia path's contours as Lottie shape values (quads raised to cubics, conics cut into
    quads first)."""
    shapes: list[dict] = []
    current: dict | None = None

    def begin(point) -> dict:
        return {"c": False, "v": [[point.x(), point.y()]], "i": [[0.0, 0.0]], "o": [[0.0, 0.0]]}

    def add(end, out_handle, in_handle) -> None:
        last = current["v"][-1]
        current["o"][-1] = [out_handle[0] - last[0], out_handle[1] - last[1]]
        current["v"].append([end.x(), end.y()])
        current["i"].append([in_handle[0] - end.x(), in_handle[1] - end.y()])
        current["o"].append([0.0, 0.0])

    iterator = skia.Path.Iter(path, False)
    while True:
        verb, points = iterator.next()
        if verb == skia.Path.kDone_Verb:
            break
        if verb == skia.Path.kMove_Verb:
            current = begin(points[0])
            shapes.append(current)
        elif verb == skia.Path.kLine_Verb:
            add(points[1], (points[0].x(), points[0].y()), (points[1].x(), points[1].y()))
        elif verb == skia.Path.kQuad_Verb:
            _add_quad(add, points[0], points[1], points[2])
        elif verb == skia.Path.kConic_Verb:
            for quad in _conic_quads(points, iterator.conicWeight()):
                _add_quad(add, *quad)
        elif verb == skia.Path.kCubic_Verb:
            add(points[3], (points[1].x(), points[1].y()), (points[2].x(), points[2].y()))
        elif verb == skia.Path.kClose_Verb and current is not None:
            current["c"] = True
            _drop_closing_point(current)
    return [shape for shape in shapes if len(shape["v"]) > 1]


def _add_quad(add, p0, p1, p2) -> None:
    c1 = (p0.x() + 2 / 3 * (p1.x() - p0.x()), p0.y() + 2 / 3 * (p1.y() - p0.y()))
    c2 = (p2.x() + 2 / 3 * (p1.x() - p2.x()), p2.y() + 2 / 3 * (p1.y() - p2.y()))
    add(p2, c1, c2)


def _conic_quads(points, weight: float) -> list:
    """A conic segment as quads (two levels of subdivision: well under a hundredth of a pixel
    for a glyph's or an oval's arcs)."""
    quads = skia.Path.ConvertConicToQuads(points[0], points[1], points[2], weight, 2)
    return [(quads[i], quads[i + 1], quads[i + 2]) for i in range(0, len(quads) - 2, 2)]


def _drop_closing_point(shape: dict) -> None:
    """A closed contour whose last point repeats its first: the closing segment is implied."""
    first, last = shape["v"][0], shape["v"][-1]
    if len(shape["v"]) > 2 and abs(first[0] - last[0]) < 1e-6 and abs(first[1] - last[1]) < 1e-6:
        shape["i"][0] = shape["i"][-1]
        for key in ("v", "i", "o"):
            shape[key].pop()


def outline_items(kind: str, content: dict, timing: Timing, warnings: list[str],
                  where: str) -> list[dict]:
    """A shape's outline as `sh` items, starting where rendervisor's outline starts."""
    if kind == "path":
        return [path_item(content["path"], timing)]
    if kind in ("rect", "ellipse"):
        radius = static_value(content.get("cornerRadius", 0)) or 0
        if kind == "rect" and (radius > 0 or is_animated(content.get("cornerRadius"))):
            return [_rounded_rect(content, timing)]
        make = rect_path if kind == "rect" else ellipse_path
        return [path_item(mapped(content["size"], lambda size: make(size[0] / 2, size[1] / 2,
                                                                    size[0], size[1])), timing)]
    # Polygon and star: the compositor's corners at the first key's values.
    if any(is_animated(content.get(key)) for key in ("size", "points", "innerRadius")):
        warnings.append(f"{where}: a {kind} whose size or corners change over time is written "
                        "at its first key's shape")
    width, height = static_value(content["size"])
    geometry = shape_path(kind, {**content, "size": [width, height],
                                 "points": static_value(content.get("points", 5)),
                                 "innerRadius": static_value(content.get("innerRadius", 0.5))},
                          0.0, width, height)
    return [{"ty": "sh", "nm": "Path", "ks": {"a": 0, "k": shape}}
            for shape in skia_shapes(geometry)]


def _rounded_rect(content: dict, timing: Timing) -> dict:
    """A rounded rect as Lottie's own `rc` (its size and radius may animate)."""
    return {"ty": "rc", "nm": "Rect", "d": 1,
            "p": animated(content["size"], timing, lambda size: [size[0] / 2, size[1] / 2]),
            "s": animated(content["size"], timing, list),
            "r": animated(content.get("cornerRadius", 0), timing)}


def paint_items(content: dict, outline: list[dict], timing: Timing, warnings: list[str],
                where: str, stroke_join: str | None = None) -> list[dict]:
    """The two groups that draw a shape: its stroke over its fill."""
    groups = []
    stroke = content.get("stroke")
    if static_value(stroke) is not None and (is_animated(content.get("strokeWidth"))
                                             or (static_value(content.get("strokeWidth", 0))
                                                 or 0) > 0):
        items = list(outline) + _trim_items(content, timing)
        items.append(_stroke(content, stroke, timing, stroke_join, warnings, where))
        groups.append(_group("Stroke", items))
    fill = content.get("fill")
    if static_value(fill) is not None:
        groups.append(_group("Fill", list(outline) + [_fill(fill, timing, warnings, where)]))
    return groups


def _group(name: str, items: list[dict]) -> dict:
    return {"ty": "gr", "nm": name, "it": items + [_identity_transform()]}


def _identity_transform() -> dict:
    return {"ty": "tr", "nm": "Transform", "a": {"a": 0, "k": [0, 0]},
            "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
            "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}


def color_rgb(color: list) -> list:
    return [float(color[0]), float(color[1]), float(color[2])]


def color_opacity(color: list) -> float:
    return float(color[3] if len(color) > 3 else 1.0) * 100


def _fill(fill: Any, timing: Timing, warnings: list[str], where: str) -> dict:
    first = static_value(fill)
    if isinstance(first, dict):
        if is_animated(fill):
            warnings.append(f"{where}: an animated gradient is written at its first key")
        return _gradient_fill(first)
    return {"ty": "fl", "nm": "Fill", "r": 1, "c": animated(fill, timing, color_rgb),
            "o": animated(fill, timing, color_opacity)}


def _gradient_fill(gradient: dict) -> dict:
    """A gradient fill: its colour stops, then its alpha stops where any stop is see-through."""
    stops = sorted(gradient["stops"], key=lambda stop: stop[0])
    colors = [value for offset, color in stops for value in [offset, *color_rgb(color)]]
    if any(color_opacity(color) < 100 for _, color in stops):
        colors += [value for offset, color in stops for value in [offset, color_opacity(color) / 100]]
    item = {"ty": "gf", "nm": "Gradient", "r": 1, "o": {"a": 0, "k": 100},
            "g": {"p": len(stops), "k": {"a": 0, "k": colors}}}
    if gradient["type"] == "radial":
        cx, cy = gradient["center"]
        item.update({"t": 2, "s": {"a": 0, "k": [cx, cy]},
                     "e": {"a": 0, "k": [cx + float(gradient["radius"]), cy]},
                     "h": {"a": 0, "k": 0}, "a": {"a": 0, "k": 0}})
    else:
        item.update({"t": 1, "s": {"a": 0, "k": list(gradient["start"])},
                     "e": {"a": 0, "k": list(gradient["end"])}})
    return item


def _stroke(content: dict, stroke: Any, timing: Timing, join: str | None,
            warnings: list[str], where: str) -> dict:
    if isinstance(static_value(stroke), dict):
        warnings.append(f"{where}: a gradient stroke is written in its first stop's colour")
        stroke = static_value(stroke)["stops"][0][1]
    item = {"ty": "st", "nm": "Stroke", "c": animated(stroke, timing, color_rgb),
            "o": animated(stroke, timing, color_opacity),
            "w": animated(content.get("strokeWidth", 0), timing),
            "lc": CAPS[content.get("strokeCap") or "butt"],
            "lj": JOINS[join or content.get("strokeJoin") or "miter"], "ml": MITER_LIMIT}
    dashes = list(content.get("dashes") or [])
    if dashes:
        pattern = dashes * 2 if len(dashes) % 2 else dashes
        item["d"] = [{"n": "d" if index % 2 == 0 else "g", "nm": f"dash {index}",
                      "v": {"a": 0, "k": length}} for index, length in enumerate(pattern)]
        item["d"].append({"n": "o", "nm": "offset",
                          "v": animated(content.get("dashOffset", 0), timing)})
    return item


def _trim_items(content: dict, timing: Timing) -> list[dict]:
    start, end = content.get("trimStart", 0), content.get("trimEnd", 100)
    offset = content.get("trimOffset", 0)
    if not any(is_animated(v) for v in (start, end, offset)) and \
            abs(float(end) - float(start)) >= 100:
        return []
    return [{"ty": "tm", "nm": "Trim", "m": 1, "s": animated(start, timing),
             "e": animated(end, timing), "o": animated(offset, timing)}]


def text_items(content: dict, timing: Timing, warnings: list[str], where: str) -> list[dict]:
    """A text layer's glyphs as filled (and stroked) paths, laid out by the compositor."""
    animated_keys = [key for key, value in content.items() if is_animated(value)]
    if animated_keys or content.get("animators"):
        warnings.append(f"{where}: text written as shapes holds still: its "
                        + ("animators" if content.get("animators") else ", ".join(animated_keys))
                        + " are written at the first key")
    layout = lay_out({key: static_value(value) for key, value in content.items()}, 0.0)
    outline = []
    for glyph in layout.glyphs:
        path = layout.skia_fonts[glyph.font].getPath(glyph.gid)
        if path is None:
            continue
        path.offset(glyph.x, glyph.y)
        outline += [{"ty": "sh", "nm": "Glyph", "ks": {"a": 0, "k": shape}}
                    for shape in skia_shapes(path)]
    if not outline:
        return []
    first = {key: static_value(value) for key, value in content.items()
             if key in ("fill", "stroke", "strokeWidth")}
    paint = {"fill": first.get("fill", [1, 1, 1, 1]), "stroke": first.get("stroke"),
             "strokeWidth": first.get("strokeWidth", 0)}
    groups = paint_items(paint, outline, timing, warnings, where, stroke_join="round")
    if not content.get("strokeOver"):
        groups.reverse()  # the stroke under the fill, as the compositor draws it by default
    return groups

