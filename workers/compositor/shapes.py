"""Solid and shape layers: geometry in the content box, filled and stroked.

The content box is `[0, 0, w, h]` (docs/document.md, "Layer coordinates"). Rects and ellipses
use Skia's own primitives rather than a path, which Skia draws faster and anti-aliases exactly.
"""

from __future__ import annotations

import math

import skia

from protocol.model.keyframes import value_at
from workers.compositor.bezier_paths import skia_path
from workers.compositor.kept_paints import KeptPaints
from workers.compositor.paints import color_paint, fill_paint, stroke_paint
from workers.compositor.strokes import draws_nothing, is_plain, stroke_effect


def solid_size(comp: dict, layer: dict, time: float) -> tuple[float, float]:
    content = layer.get("content", {})
    width = value_at(content.get("width"), time) or comp.get("width", 1920)
    height = value_at(content.get("height"), time) or comp.get("height", 1080)
    return float(width), float(height)


class SolidDrawing:
    """A solid at one time: its rect and color; drawn with a single paint."""

    single_paint = True

    def __init__(self, comp: dict, layer: dict, time: float) -> None:
        self._rect = skia.Rect.MakeWH(*solid_size(comp, layer, time))
        color = value_at(layer.get("content", {}).get("color", [0, 0, 0, 1]), time)
        self._paints = KeptPaints(lambda opacity, blend: [_with_blend(color_paint(color, opacity),
                                                                  blend)])

    def bounds(self) -> skia.Rect:
        return self._rect

    def draw(self, canvas: skia.Canvas, paint_args: dict) -> None:
        canvas.drawRect(self._rect, self._paints.get(paint_args)[0])

    def bound(self, paint_args: dict) -> tuple:
        """`draw` with these paint args as (function, a, b), drawn by function(canvas, a, b):
        here Skia's own drawRect, so a render plan's loop calls straight into Skia."""
        return skia.Canvas.drawRect, self._rect, self._paints.get(paint_args)[0]


def shape_size(layer: dict, time: float) -> tuple[float, float]:
    width, height = value_at(layer.get("content", {}).get("size", [100, 100]), time)
    return float(width), float(height)


def shape_single_paint(layer: dict, time: float) -> bool:
    """True when the shape is filled or stroked, not both: one draw call, so the layer's
    opacity can go in the paint without the stroke darkening where it overlaps the fill."""
    content = layer.get("content", {})
    has_fill = value_at(content.get("fill"), time) is not None
    has_stroke = _stroke_width(content, time) > 0 and value_at(content.get("stroke"), time) \
        is not None
    return not (has_fill and has_stroke)


def shape_outset(layer: dict, time: float) -> float:
    """How far the stroke (and a miter join, up to Skia's default limit of 4) reaches outside
    the content box."""
    content = layer.get("content", {})
    if value_at(content.get("stroke"), time) is None:
        return 0.0
    return _stroke_width(content, time) * 2.0


class ShapeDrawing:
    """A shape at one time: its geometry, built once for the fill and the stroke alike (and,
    for a trimmed or dashed stroke, its outline and path effect), and the paints to draw them
    with. Reused by a render plan for every frame when nothing of the shape is animated."""

    def __init__(self, layer: dict, time: float) -> None:
        content = layer.get("content", {})
        width, height = shape_size(layer, time)
        kind = content.get("shape", "rect")
        outset = shape_outset(layer, time)
        self._bounds = skia.Rect.MakeWH(width, height).makeOutset(outset, outset)
        self.single_paint = shape_single_paint(layer, time)
        steps = []  # ((function, geometry), make_paint(opacity, blend))
        geometry = _primitive(kind, content, time, width, height)
        fill = value_at(content.get("fill"), time)
        if fill is not None:
            steps.append((geometry, lambda opacity, blend: _with_blend(
                fill_paint(fill, opacity), blend)))
        stroke = value_at(content.get("stroke"), time)
        stroke_width = _stroke_width(content, time)
        if stroke is not None and stroke_width > 0 and not draws_nothing(content, time):
            join = value_at(content.get("strokeJoin"), time)
            cap = value_at(content.get("strokeCap"), time)
            effect, alpha = None, 1.0
            if not is_plain(content, time):
                # Trim and dashes measure the outline, so every kind is drawn as its path here.
                path = outline(kind, content, time, width, height)
                effect, alpha = stroke_effect(content, time, path)
                geometry = skia.Canvas.drawPath, path

            def make_stroke(opacity, blend, effect=effect, alpha=alpha):
                paint = _with_blend(stroke_paint(stroke, stroke_width, join, cap, opacity), blend)
                if effect is not None:
                    paint.setPathEffect(effect)
                if alpha != 1.0:
                    paint.setAlphaf(paint.getAlphaf() * alpha)
                return paint
            steps.append((geometry, make_stroke))
        self._draws = [draw for draw, _ in steps]
        self._paints = KeptPaints(lambda opacity, blend: [make(opacity, blend)
                                                      for _, make in steps])

    def bounds(self) -> skia.Rect:
        return self._bounds

    def draw(self, canvas: skia.Canvas, paint_args: dict) -> None:
        for (function, geometry), paint in zip(self._draws, self._paints.get(paint_args)):
            function(canvas, geometry, paint)

    def bound(self, paint_args: dict) -> tuple:
        """`draw` with these paint args as (function, a, b), drawn by function(canvas, a, b):
        for a fill or a stroke alone, the Skia call itself."""
        steps = [(function, geometry, paint) for (function, geometry), paint
                 in zip(self._draws, self._paints.get(paint_args))]
        if len(steps) == 1:
            return steps[0]
        return _draw_steps, steps, None


def _draw_steps(canvas: skia.Canvas, steps: list, _) -> None:
    for function, geometry, paint in steps:
        function(canvas, geometry, paint)


def _with_blend(paint: skia.Paint, blend: skia.BlendMode) -> skia.Paint:
    paint.setBlendMode(blend)
    return paint


def _stroke_width(content: dict, time: float) -> float:
    return float(value_at(content.get("strokeWidth", 0), time) or 0)


def _primitive(kind: str, content: dict, time: float, width: float, height: float) -> tuple:
    """The shape's geometry and the Skia call that draws it, (function, geometry), drawn by
    function(canvas, geometry, paint): built once for the fill and the stroke alike."""
    rect = skia.Rect.MakeWH(width, height)
    if kind == "rect":
        radius = float(value_at(content.get("cornerRadius", 0), time) or 0)
        if radius > 0:
            return skia.Canvas.drawRRect, skia.RRect.MakeRectXY(rect, radius, radius)
        return skia.Canvas.drawRect, rect
    if kind == "ellipse":
        return skia.Canvas.drawOval, rect
    return skia.Canvas.drawPath, shape_path(kind, content, time, width, height)


def outline(kind: str, content: dict, time: float, width: float, height: float) -> skia.Path:
    """Any shape's outline as a path, where a trimmed or dashed stroke measures its length:
    a rect from its top-left corner, an ellipse from its top, a polygon or star from its
    first corner, each clockwise; a path from its first point."""
    if kind not in ("rect", "ellipse"):
        return shape_path(kind, content, time, width, height)
    path = skia.Path()
    rect = skia.Rect.MakeWH(width, height)
    radius = float(value_at(content.get("cornerRadius", 0), time) or 0)
    if kind == "ellipse":
        path.addOval(rect, skia.PathDirection.kCW, 0)
    elif radius > 0:
        # Start 7 is the top-left corner's start, the nearest a rounded rect has to a corner.
        path.addRRect(skia.RRect.MakeRectXY(rect, radius, radius), skia.PathDirection.kCW, 7)
    else:
        path.addRect(rect, skia.PathDirection.kCW, 0)
    return path


def shape_path(kind: str, content: dict, time: float, width: float,
               height: float) -> skia.Path:
    """Polygon, star and free path geometry, in the content box."""
    if kind == "path":
        return skia_path(value_at(content.get("path"), time))
    path = skia.Path()
    points = value_at(content.get("points", 5), time)
    corners = max(3, int(points)) if not isinstance(points, list) else 5
    rx, ry = width / 2.0, height / 2.0
    if kind == "star":
        inner = float(value_at(content.get("innerRadius", 0.5), time))
        vertices = [(rx * (1 if i % 2 == 0 else inner), ry * (1 if i % 2 == 0 else inner),
                     i * math.pi / corners) for i in range(corners * 2)]
    else:
        vertices = [(rx, ry, i * 2 * math.pi / corners) for i in range(corners)]
    # The first corner points straight up, as in every drawing tool.
    for i, (sx, sy, angle) in enumerate(vertices):
        x, y = rx + sx * math.sin(angle), ry - sy * math.cos(angle)
        path.moveTo(x, y) if i == 0 else path.lineTo(x, y)
    path.close()
    return path
