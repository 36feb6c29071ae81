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
# one, so bilinear is exact enough and cheaper than bicubic.
SAMPLING = skia.SamplingOptions(skia.FilterMode.kLinear)


def shown_size(canvas: skia.Canvas, width: float, height: float) -> tuple[int, int] | None:
    """(columns, rows) of the raster for a `width` x `height` box drawn through the canvas's
    matrix (its largest scale, within MAX_RENDER_SIDE); None when it is shown at no size."""
    scale = min(canvas.getTotalMatrix().getMaxScale(), MAX_RENDER_SIDE / max(width, height))
    if not scale > 0:
        return None
    return max(1, math.ceil(width * scale)), max(1, math.ceil(height * scale))
