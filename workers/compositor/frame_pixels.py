"""Where a vector renderer may draw straight into the frame's pixels instead of handing Skia a
raster to draw: the common case of a layer shown unrotated on whole pixels (the raster is
drawn at the size shown, so at any scale), at full opacity, blended normally, onto the frame
itself (not into an offscreen layer), unclipped.

Why: in the Skia build rendervisor uses, drawing a premultiplied RGBA image over an RGBA
surface takes the slow path of Skia's pipeline (about 30 ms for a 1080p raster, where copying
the same bytes takes 1 ms); ThorVG compositing its drawing over the frame's pixels as it
rasterises costs nothing beyond the drawing. Both give the same source-over result on 8-bit
premultiplied pixels, so the shortcut is taken only where nothing Skia would do differs:
no resampling, no fractional offset, no opacity or blend mode, no clip narrower than the box, no
layer of Skia's in between, 8-bit premultiplied RGBA or BGRA.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import skia

from workers.compositor.blending import NORMAL
from workers.compositor.raster_size import one_to_one

_BYTE_ORDERS = {skia.kRGBA_8888_ColorType: "rgba", skia.kBGRA_8888_ColorType: "bgra"}


class FramePixels(NamedTuple):
    """The frame's pixels as a renderer's target: `address` of the first row, `stride` in
    pixels, `width` x `height`, channels in `order` ("rgba" or "bgra" in memory,
    premultiplied), and where the box's top-left corner falls in them (`x`, `y`)."""
    address: int
    stride: int
    width: int
    height: int
    order: str
    x: int
    y: int


def frame_pixels(canvas: skia.Canvas, size: tuple[int, int], width: float, height: float,
                 paint_args: dict) -> FramePixels | None:
    """The frame's pixels, when a raster of `size` drawn into the box [0, 0, width, height]
    with `paint_args` would land on them one to one, each pixel blended source-over as it is;
    None otherwise (the raster is then drawn by Skia)."""
    if paint_args["opacity"] != 1.0 or paint_args["blend"] != NORMAL:
        return None
    at = one_to_one(canvas, size, width, height)
    if at is None:
        return None
    x, y = at
    pixmap = skia.Pixmap()
    if not canvas.peekPixels(pixmap) or pixmap.alphaType() != skia.kPremul_AlphaType \
            or pixmap.colorType() not in _BYTE_ORDERS:
        return None
    address = np.asarray(pixmap.addr()).ctypes.data
    top = canvas.accessTopLayerPixels()
    if top is None or np.asarray(top).ctypes.data != address:
        return None  # drawing into an offscreen layer of Skia's, not the frame
    shown = skia.IRect.MakeXYWH(x, y, size[0], size[1])
    if not shown.intersect(skia.IRect.MakeWH(pixmap.width(), pixmap.height())):
        return None
    if not canvas.isClipRect() or not canvas.getDeviceClipBounds().contains(shown):
        return None
    surface = canvas.getSurface()
    if surface is not None:  # an image taken of the frame keeps what it showed
        surface.notifyContentWillChange(skia.Surface.kRetain_ContentChangeMode)
    return FramePixels(address, pixmap.rowBytes() // 4, pixmap.width(), pixmap.height(),
                       _BYTE_ORDERS[pixmap.colorType()], x, y)
