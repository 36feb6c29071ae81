"""Text layers: drawing a layout (text_layout.py) with its fill and stroke, still or moved
glyph by glyph by the layer's text animators (text_animation.py), over a background box behind
each line when the text has a `background` color (a caption's box).

A text without animators draws its layout's one blob per paint, so a text that does not change
costs a draw call per frame; an animated one regroups its glyphs by paint each frame.
"""

from __future__ import annotations

import skia

from protocol.model.keyframes import value_at
from workers.compositor.kept_paints import KeptPaints
from workers.compositor.paints import fill_paint
from workers.compositor.text_animation import animated_draws
from workers.compositor.text_layout import lay_out


# A line's background box reaches this far (in ems of the text's size) past its ends.
BACKGROUND_PADDING = 0.3


def text_box(layer: dict, time: float) -> skia.Rect | None:
    """Where the text draws, in layer coordinates; None when animators may move glyphs
    anywhere."""
    content = layer.get("content", {})
    if content.get("animators"):
        return None
    layout = lay_out(content, time)
    bounds = layout.bounds.makeOffset(0, 0)  # a copy: the layout is kept for other frames
    for rect in background_rects(content, layout, time):
        bounds.join(rect)
    outset = _stroke_width(content, time) / 2.0
    return bounds.makeOutset(outset, outset)


def background_rects(content: dict, layout, time: float) -> list[skia.Rect]:
    """The background box of each line that has glyphs, in layer coordinates: the line's box
    (its width, and its line height), BACKGROUND_PADDING ems past each end; none without a
    background color."""
    if value_at(content.get("background"), time) is None:
        return []
    step = float(value_at(content.get("lineHeight", 1.2), time)) * layout.size
    pad = BACKGROUND_PADDING * layout.size
    return [skia.Rect.MakeLTRB(line.x - pad, line.top, line.x + line.width + pad,
                               line.top + step)
            for line in layout.lines if line.glyphs[1] > line.glyphs[0] and line.width > 0]


def has_stroke(layer: dict, time: float) -> bool:
    content = layer.get("content", {})
    return value_at(content.get("stroke"), time) is not None and _stroke_width(content, time) > 0


def _stroke_width(content: dict, time: float) -> float:
    if value_at(content.get("stroke"), time) is None:
        return 0.0
    return float(value_at(content.get("strokeWidth", 0), time) or 0)


class TextDrawing:
    """A text layer at one time: its layout (cached per worker by text_layout), the passes it
    draws (fill, and a stroke under or over it) and their paints. A render plan reuses one for
    every frame when nothing of the text is animated, animators' values included."""

    def __init__(self, layer: dict, time: float) -> None:
        content = layer.get("content", {})
        self._time = time
        self._layout = lay_out(content, time)
        box = text_box(layer, time)
        # Anti-aliasing reaches a pixel past the glyphs' outlines.
        self._box = None if box is None else box.makeOutset(2, 2)
        self._background = value_at(content.get("background"), time)
        self._background_rects = background_rects(content, self._layout, time)
        self.single_paint = not has_stroke(layer, time) and not self._background_rects
        fill = value_at(content.get("fill", [1, 1, 1, 1]), time)
        stroke = value_at(content.get("stroke"), time)
        self._stroke_width = _stroke_width(content, time)
        over = bool(value_at(content.get("strokeOver", False), time))
        self._passes = [("fill", fill)]
        if stroke is not None and self._stroke_width > 0:
            self._passes.insert(len(self._passes) if over else 0, ("stroke", stroke))
        self._animators = content.get("animators") or []
        self._paints = KeptPaints(self._make_paints)
        self._groups: list | None = None

    def bounds(self) -> skia.Rect | None:
        return self._box

    def draw(self, canvas: skia.Canvas, paint_args: dict) -> None:
        if not self._layout.glyphs:
            return
        if self._background_rects:
            paint = _paint("fill", self._background, 0.0, paint_args)
            for rect in self._background_rects:
                canvas.drawRect(rect, paint)
        if not self._animators:
            if self._layout.blob is not None:
                for paint in self._paints.get(paint_args):
                    canvas.drawTextBlob(self._layout.blob, 0, 0, paint)
            return
        if self._groups is None:
            self._groups = [(kind, animated_draws(self._layout, self._animators, color,
                                                  self._time, with_fill=kind == "fill"))
                            for kind, color in self._passes]
        for kind, draws in self._groups:
            for blob, paint_color, blur in draws:
                canvas.drawTextBlob(blob, 0, 0, _paint(kind, paint_color, self._stroke_width,
                                                       paint_args, blur))

    def bound(self, paint_args: dict) -> tuple:
        """`draw` with these paint args as (function, a, b), drawn by function(canvas, a, b)."""
        return _draw_with, self, paint_args

    def _make_paints(self, opacity: float, blend: skia.BlendMode) -> list:
        args = {"opacity": opacity, "blend": blend}
        return [_paint(kind, color, self._stroke_width, args) for kind, color in self._passes]


def _draw_with(canvas: skia.Canvas, drawing: TextDrawing, paint_args: dict) -> None:
    drawing.draw(canvas, paint_args)


def _paint(kind: str, color, stroke_width: float, paint_args: dict,
           blur: float = 0.0) -> skia.Paint:
    paint = fill_paint(color, paint_args["opacity"])
    paint.setBlendMode(paint_args["blend"])
    if kind == "stroke":
        paint.setStyle(skia.Paint.kStroke_Style)
        paint.setStrokeWidth(stroke_width)
        paint.setStrokeJoin(skia.Paint.kRound_Join)
    if blur > 0:
        # The same sigma as the gaussianBlur effect's: radius / 2.
        paint.setMaskFilter(skia.MaskFilter.MakeBlur(skia.kNormal_BlurStyle, blur / 2.0))
    return paint
