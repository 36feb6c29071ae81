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
# (100%, on whole pixels), each is copied as it is, which Skia does as a plain blend of rows.
SAMPLING = skia.SamplingOptions(skia.FilterMode.kLinear)
EXACT = skia.SamplingOptions(skia.FilterMode.kNearest)


def shown_size(canvas: skia.Canvas, width: float, height: float) -> tuple[int, int] | None:
    """(columns, rows) of the raster for a `width` x `height` box drawn through the canvas's
    matrix (its largest scale, within MAX_RENDER_SIDE); None when it is shown at no size."""
    scale = min(canvas.getTotalMatrix().getMaxScale(), MAX_RENDER_SIDE / max(width, height))
    if not scale > 0:
        return None
    return max(1, math.ceil(width * scale)), max(1, math.ceil(height * scale))


def draw_raster(canvas: skia.Canvas, image: skia.Image, width: float, height: float,
                paint: skia.Paint) -> None:
    """`image` drawn into the box [0, 0, width, height] of the canvas."""
    matrix = canvas.getTotalMatrix()
    if matrix.isTranslate() and (image.width(), image.height()) == (width, height) \
            and float(matrix.getTranslateX()).is_integer() \
            and float(matrix.getTranslateY()).is_integer():
        canvas.drawImage(image, 0, 0, EXACT, paint)
        return
    canvas.drawImageRect(image, skia.Rect.MakeWH(width, height), SAMPLING, paint)
