"""The pixel size a vector source (an SVG, a Lottie animation) is rasterised at: the size its
box is shown at on the canvas, so an enlarged logo stays sharp and a shrunk one costs less.

One rule for both, so an SVG and a Lottie animation placed the same way are drawn at the same
resolution.
"""

from __future__ import annotations

import math

import skia

# The longest side a vector source is rasterised at: an 8K frame's. A layer enlarged past it is
# resampled from this, rather than asking for a raster of gigabytes.
MAX_RENDER_SIDE = 8192
# How a raster is drawn back into its box: at the size shown its pixels land nearly one to
# one, so bilinear is exact enough and cheaper than bicubic; where they land exactly one to one
# (on whole pixels, unrotated), each is copied as it is.
SAMPLING = skia.SamplingOptions(skia.FilterMode.kLinear)
EXACT = skia.SamplingOptions(skia.FilterMode.kNearest)


# How far from a whole pixel a scale or an offset may be and still count as whole: the
# canvas's matrix is single precision, so 500 px at 80% comes out as 400.000006.
WHOLE = 1e-3


def shown_size(canvas: skia.Canvas, width: float, height: float) -> tuple[int, int] | None:
    """(columns, rows) of the raster for a `width` x `height` box drawn through the canvas's
    matrix (its largest scale, within MAX_RENDER_SIDE); None when it is shown at no size."""
    scale = min(canvas.getTotalMatrix().getMaxScale(), MAX_RENDER_SIDE / max(width, height))
    if not scale > 0:
        return None
    return max(1, math.ceil(width * scale - WHOLE)), max(1, math.ceil(height * scale - WHOLE))


def one_to_one(canvas: skia.Canvas, size: tuple[int, int], width: float,
               height: float) -> tuple[int, int] | None:
    """Where on the canvas's device the top-left pixel of a raster of `size` lands when it is
    drawn into the box [0, 0, width, height], if each of its pixels lands on one whole device
    pixel (no rotation, no flip, the box shown at the raster's size, on whole pixels); else
    None."""
    matrix = canvas.getTotalMatrix()
    if not matrix.isScaleTranslate() or not (matrix.getScaleX() > 0 and matrix.getScaleY() > 0):
        return None
    shown = matrix.mapRect(skia.Rect.MakeWH(width, height))
    x, y = round(shown.left()), round(shown.top())
    if abs(shown.left() - x) > WHOLE or abs(shown.top() - y) > WHOLE \
            or abs(shown.width() - size[0]) > WHOLE or abs(shown.height() - size[1]) > WHOLE:
        return None
    return x, y


def draw_raster(canvas: skia.Canvas, image: skia.Image, width: float, height: float,
                paint: skia.Paint) -> None:
    """`image` drawn into the box [0, 0, width, height] of the canvas."""
    at = one_to_one(canvas, (image.width(), image.height()), width, height)
    if at is not None:  # each pixel copied as it is
        canvas.save()
        canvas.resetMatrix()
        canvas.drawImage(image, *at, EXACT, paint)
        canvas.restore()
        return
    canvas.drawImageRect(image, skia.Rect.MakeWH(width, height), SAMPLING, paint)
