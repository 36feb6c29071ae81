"""Blend modes and track mattes, as Skia blend modes and layers.

A track matte is drawn with two nested layers:

    saveLayer(blend = the layer's blend mode)      <- the matted result joins the comp here
        the layer, drawn normally
        saveLayer(blend = DstIn or DstOut [+ luma to alpha])
            the matte layer, drawn normally         <- keeps or cuts the layer's pixels
        restore
    restore

DstIn keeps the layer where the matte is opaque, DstOut where it is transparent. For luma
mattes, Skia's luma color filter turns the matte's premultiplied color into alpha, so a
transparent part of a luma matte counts as black.
"""

from __future__ import annotations

import skia

BLEND_MODES = {
    "normal": skia.BlendMode.kSrcOver,
    "add": skia.BlendMode.kPlus,
    "multiply": skia.BlendMode.kMultiply,
    "screen": skia.BlendMode.kScreen,
    "overlay": skia.BlendMode.kOverlay,
    "darken": skia.BlendMode.kDarken,
    "lighten": skia.BlendMode.kLighten,
    "difference": skia.BlendMode.kDifference,
}
NORMAL = skia.BlendMode.kSrcOver

MATTE_MODES = {
    "alpha": (skia.BlendMode.kDstIn, False),
    "alphaInverted": (skia.BlendMode.kDstOut, False),
    "luma": (skia.BlendMode.kDstIn, True),
    "lumaInverted": (skia.BlendMode.kDstOut, True),
}


def blend_mode(name: str | None) -> skia.BlendMode:
    return BLEND_MODES.get(name or "normal", NORMAL)


def layer_paint(opacity: float, blend: skia.BlendMode,
                image_filter: skia.ImageFilter | None = None) -> skia.Paint:
    """The paint a layer's saveLayer composites with: effects, then opacity, then blending."""
    paint = skia.Paint()
    paint.setAlphaf(opacity)
    paint.setBlendMode(blend)
    if image_filter is not None:
        paint.setImageFilter(image_filter)
    return paint


def matte_paint(kind: str) -> skia.Paint:
    mode, luma = MATTE_MODES[kind]
    paint = skia.Paint()
    paint.setBlendMode(mode)
    if luma:
        paint.setColorFilter(skia.LumaColorFilter.Make())
    return paint


def draw_matted(canvas: skia.Canvas, kind: str, blend: skia.BlendMode, draw_layer,
                draw_matte) -> None:
    """Draw a layer through its track matte; the callables draw each one normally."""
    canvas.saveLayer(None, layer_paint(1.0, blend))
    draw_layer()
    canvas.saveLayer(None, matte_paint(kind))
    draw_matte()
    canvas.restore()
    canvas.restore()
