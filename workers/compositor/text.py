"""Text layers: drawing a layout (text_layout.py) with its fill and stroke, still or moved
glyph by glyph by the layer's text animators (text_animation.py).

A text without animators draws its layout's one blob per paint, so a text that does not change
costs a draw call per frame; an animated one regroups its glyphs by paint each frame.
"""

from __future__ import annotations

import skia

from protocol.model.keyframes import value_at
from workers.compositor.paints import fill_paint
from workers.compositor.text_animation import animated_draws
from workers.compositor.text_layout import lay_out


def text_box(layer: dict, time: float) -> skia.Rect | None:
    """Where the text draws, in layer coordinates; None when animators may move glyphs
    anywhere."""
    content = layer.get("content", {})
    if content.get("animators"):
        return None
    bounds = lay_out(content, time).bounds
    outset = _stroke_width(content, time) / 2.0
    return bounds.makeOutset(outset, outset)


def has_stroke(layer: dict, time: float) -> bool:
    content = layer.get("content", {})
    return value_at(content.get("stroke"), time) is not None and _stroke_width(content, time) > 0


def _stroke_width(content: dict, time: float) -> float:
    if value_at(content.get("stroke"), time) is None:
        return 0.0
    return float(value_at(content.get("strokeWidth", 0), time) or 0)


def draw_text(canvas: skia.Canvas, comp: dict, layer: dict, time: float,
              paint_args: dict) -> None:
    content = layer.get("content", {})
    layout = lay_out(content, time)
    if not layout.glyphs:
        return
    fill = value_at(content.get("fill", [1, 1, 1, 1]), time)
    stroke = value_at(content.get("stroke"), time)
    stroke_width = _stroke_width(content, time)
    over = bool(value_at(content.get("strokeOver", False), time))
    passes = [("fill", fill)]
    if stroke is not None and stroke_width > 0:
        passes.insert(len(passes) if over else 0, ("stroke", stroke))
    animators = content.get("animators") or []
    for kind, color in passes:
        if animators:
            for blob, paint_color, blur in animated_draws(layout, animators, color, time,
                                                          with_fill=kind == "fill"):
                canvas.drawTextBlob(blob, 0, 0, _paint(kind, paint_color, stroke_width,
                                                       paint_args, blur))
        elif layout.blob is not None:
            canvas.drawTextBlob(layout.blob, 0, 0, _paint(kind, color, stroke_width,
                                                          paint_args))


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
