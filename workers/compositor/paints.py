"""Skia paints from the document's colors and gradient fills (docs/document.md, "Content").

Every drawer builds its paint here, so a color means the same thing on a solid, a shape, a
text and an effect.
"""

from __future__ import annotations

from typing import Any

import skia

from protocol.model.colors import normalize_color

_JOINS = {"miter": skia.Paint.kMiter_Join, "round": skia.Paint.kRound_Join,
          "bevel": skia.Paint.kBevel_Join}
_CAPS = {"butt": skia.Paint.kButt_Cap, "round": skia.Paint.kRound_Cap,
         "square": skia.Paint.kSquare_Cap}


def color4f(value: Any, opacity: float = 1.0) -> skia.Color4f:
    r, g, b, a = normalize_color(value)
    return skia.Color4f(r, g, b, a * opacity)


def color_paint(value: Any, opacity: float = 1.0) -> skia.Paint:
    paint = skia.Paint(AntiAlias=True)
    paint.setColor4f(color4f(value, opacity))
    return paint


def fill_paint(fill: Any, opacity: float = 1.0) -> skia.Paint:
    """A paint for a fill that is a color or a gradient (in the content box's coordinates)."""
    if isinstance(fill, dict):
        paint = skia.Paint(AntiAlias=True)
        paint.setShader(gradient_shader(fill))
        # Dithered: a gradient spread over more pixels than 8 bits have levels (a dark sky
        # across 1920 px) would otherwise show flat bands that H.264 and GIF make worse.
        paint.setDither(True)
        paint.setAlphaf(opacity)
        return paint
    return color_paint(fill, opacity)


def stroke_paint(stroke: Any, width: float, join: str | None, cap: str | None,
                 opacity: float = 1.0) -> skia.Paint:
    paint = fill_paint(stroke, opacity)
    paint.setStyle(skia.Paint.kStroke_Style)
    paint.setStrokeWidth(width)
    paint.setStrokeJoin(_JOINS.get(join or "miter", skia.Paint.kMiter_Join))
    paint.setStrokeCap(_CAPS.get(cap or "butt", skia.Paint.kButt_Cap))
    return paint


def gradient_shader(gradient: dict) -> skia.Shader:
    stops = sorted(gradient["stops"], key=lambda stop: stop[0])
    colors = [color4f(color).toColor() for _, color in stops]
    positions = [float(offset) for offset, _ in stops]
    if gradient.get("type") == "radial":
        cx, cy = gradient["center"]
        return skia.GradientShader.MakeRadial(skia.Point(cx, cy), float(gradient["radius"]),
                                              colors, positions)
    (x0, y0), (x1, y1) = gradient["start"], gradient["end"]
    return skia.GradientShader.MakeLinear([skia.Point(x0, y0), skia.Point(x1, y1)], colors,
                                          positions)
