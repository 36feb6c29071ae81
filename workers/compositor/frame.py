"""The compositor's entry: one comp of a document snapshot, at one time, as straight RGBA.

    render_frame(document, comp_id, time, *, footage=None, scale=1.0) -> RenderedFrame
    render_to_surface(...) -> (skia.Surface, missing)   # no readback, for callers that encode
                                                         # or scale with Skia themselves

Skia draws premultiplied RGBA. When the comp's background is opaque (the usual case) every
pixel ends opaque, premultiplied equals straight, and the frame is drawn directly into the
output array through a surface wrapped around it: no copy at all. Otherwise (a transparent
render, motion blur's sub-frames) it is drawn on a raster surface kept per output size for the
life of the worker process (allocating a new 1920x1080 surface costs more than drawing a simple
frame) and read back, converting to straight alpha (about 4 ms a 1080p frame here). The kept
surfaces stay within KEPT_SURFACE_BYTES, so a worker that drew a few huge frames does not hold
them for the rest of its life.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
import skia

from protocol.model.colors import normalize_color
from workers.compositor.comp import draw_layers
from workers.compositor.context import RenderContext
from workers.compositor.footage import FootageCache
from workers.compositor.motion_blur import (average_premultiplied, motion_blur_settings,
                                            sample_times)

# Bytes of surfaces kept between frames: a render uses one size, a preview worker a few (its
# max_side, full size, a proxy). Kept by count, four full-size previews of a 16384-pixel comp
# left 4 GiB idle in the preview worker; in bytes, a 4K surface (32 MiB) and several smaller
# ones fit, and a larger surface is made for its frame and freed after it: allocating costs
# little beside drawing a frame that size, and a worker's idle memory stays small.
KEPT_SURFACE_BYTES = 64 << 20


@dataclass
class RenderedFrame:
    pixels: np.ndarray  # H x W x 4 uint8, straight (unpremultiplied) RGBA, C-contiguous
    missing: list = field(default_factory=list)  # footage paths that could not be read


_surfaces: OrderedDict = OrderedDict()
_default_cache: list = []


def default_footage_cache() -> FootageCache:
    """The process-wide cache used when a caller passes none."""
    if not _default_cache:
        _default_cache.append(FootageCache())
    return _default_cache[0]


def _context(document: dict, footage: FootageCache | None) -> RenderContext:
    return RenderContext.for_document(
        document, footage if footage is not None else default_footage_cache(), draw_layers)


def output_size(comp: dict, scale: float) -> tuple[int, int]:
    if not scale > 0:
        raise ValueError(f"scale must be above 0 (1 is full size, 0.5 half), not {scale!r}")
    width = max(1, int(round(float(comp.get("width", 1920)) * scale)))
    height = max(1, int(round(float(comp.get("height", 1080)) * scale)))
    return width, height


def _surface(width: int, height: int) -> skia.Surface:
    surface = _surfaces.get((width, height))
    if surface is not None:
        _surfaces.move_to_end((width, height))
        return surface
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
    surface = skia.Surface.MakeRaster(info)
    if surface is None:  # the size is valid (output_size), so what failed is the allocation
        raise MemoryError(f"no memory for a {width}x{height} drawing surface")
    if _surface_bytes(width, height) <= KEPT_SURFACE_BYTES:
        _surfaces[(width, height)] = surface
        while sum(_surface_bytes(*size) for size in _surfaces) > KEPT_SURFACE_BYTES:
            _surfaces.popitem(last=False)
    return surface


def _surface_bytes(width: int, height: int) -> int:
    return width * height * 4


def _background(comp: dict, transparent: bool) -> skia.Color4f:
    if transparent:
        return skia.Color4f(0, 0, 0, 0)
    return skia.Color4f(*normalize_color(comp.get("background", [0, 0, 0, 1])))


def _draw(surface: skia.Surface, ctx: RenderContext, comp: dict, time: float, scale: float,
          background: skia.Color4f) -> None:
    canvas = surface.getCanvas()
    canvas.resetMatrix()
    canvas.clear(background)
    canvas.save()
    if scale != 1.0:
        canvas.scale(scale, scale)
    draw_layers(canvas, ctx, comp, time)
    canvas.restore()


def render_to_surface(document: dict, comp_id: str, time: float, *,
                      footage: FootageCache | None = None, scale: float = 1.0,
                      transparent: bool = False) -> tuple[skia.Surface, list]:
    """Draw the frame into this process's surface for its size (valid until the next render of
    that size) and return it with the missing footage. No motion blur: that needs readbacks."""
    ctx = _context(document, footage)
    comp = ctx.find_comp(comp_id)
    surface = _surface(*output_size(comp, scale))
    _draw(surface, ctx, comp, time, scale, _background(comp, transparent))
    return surface, ctx.missing


def render_frame(document: dict, comp_id: str, time: float, *,
                 footage: FootageCache | None = None, scale: float = 1.0,
                 transparent: bool = False, out: np.ndarray | None = None) -> RenderedFrame:
    """The comp `comp_id` (id or name) at comp time `time`, as straight RGBA.

    `scale` renders at round(w*scale) x round(h*scale); `transparent` leaves the background
    out; `out` (H x W x 4 uint8, C-contiguous) is filled and returned instead of a new array,
    for callers that encode each frame before rendering the next.
    """
    ctx = _context(document, footage)
    comp = ctx.find_comp(comp_id)
    width, height = output_size(comp, scale)
    if out is None:
        out = np.empty((height, width, 4), np.uint8)
    elif out.shape != (height, width, 4) or out.dtype != np.uint8 or \
            not out.flags["C_CONTIGUOUS"]:
        raise ValueError(f"out must be a C-contiguous uint8 array of shape {(height, width, 4)}, "
                         f"not {out.dtype} {out.shape}")
    background = _background(comp, transparent)
    blur = motion_blur_settings(comp)
    if blur is not None:
        _render_motion_blur(ctx, comp, time, scale, background, blur, out)
    elif background.fA >= 1.0:
        # Every pixel ends opaque, where premultiplied equals straight: draw straight into the
        # caller's array, with no surface of our own and no readback copy.
        _draw(_wrap(out), ctx, comp, time, scale, background)
    else:
        surface = _surface(width, height)
        _draw(surface, ctx, comp, time, scale, background)
        _read(surface, out, straight=True)
    return RenderedFrame(pixels=out, missing=ctx.missing)


def _render_motion_blur(ctx: RenderContext, comp: dict, time: float, scale: float,
                        background: skia.Color4f, blur: tuple, out: np.ndarray) -> None:
    samples, angle = blur
    surface = _surface(out.shape[1], out.shape[0])
    total = np.zeros(out.shape, np.uint32)
    for sample_time in sample_times(time, float(comp.get("frameRate", 30)), samples, angle):
        _draw(surface, ctx, comp, sample_time, scale, background)
        _read(surface, out, straight=False)
        total += out
    average_premultiplied(total, samples, out, opaque=background.fA >= 1.0)


def _wrap(pixels: np.ndarray) -> skia.Surface:
    """A raster surface drawing into `pixels` itself (wrapping costs microseconds). The
    surface must not outlive the array; callers drop it before returning the array."""
    return skia.Surface(pixels, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)


def _read(surface: skia.Surface, out: np.ndarray, *, straight: bool) -> None:
    """Copy the surface into `out`: premultiplied as stored, or converted to straight alpha.
    With `straight=False` on a frame that is not opaque the caller gets premultiplied data,
    which only motion blur wants."""
    height, width = out.shape[:2]
    alpha = skia.kUnpremul_AlphaType if straight else skia.kPremul_AlphaType
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_8888_ColorType, alpha)
    # The Pixmap does not keep `out` alive; `out` outlives it here.
    if not surface.readPixels(skia.Pixmap(info, out, width * 4)):
        raise RuntimeError(f"reading back a {width}x{height} frame failed")
