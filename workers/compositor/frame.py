"""The compositor's entry: one comp of a document snapshot, at one time, as straight RGBA.

    render_frame(document, comp_id, time, *, footage=None, scale=1.0, plan=None)
        -> RenderedFrame
    render_to_surface(...) -> (skia.Surface, missing)   # no readback, for callers that encode
                                                         # or scale with Skia themselves

A frame is drawn from a render plan (render_plan.py): a job that draws many frames of one
snapshot compiles one (`RenderPlan`, and `prepare` for each chunk) and passes it as `plan`; a
caller that passes none gets one compiled for its frame.

Skia draws premultiplied RGBA. When the comp's background is opaque (the usual case) every
pixel ends opaque, premultiplied equals straight, and the frame is drawn directly into the
output array through a surface wrapped around it: no copy at all. Otherwise (a transparent
render, motion blur's sub-frames) it is drawn on a raster surface kept per output size for the
life of the worker process (allocating a new 1920x1080 surface costs more than drawing a simple
frame) and read back, converting to straight alpha (about 4 ms a 1080p frame here). The kept
surfaces stay within KEPT_SURFACE_BYTES, so a worker that drew a few huge frames does not hold
them for the rest of its life. Every surface draws into a numpy array, so a plan can restore a
comp's still layers into it with one copy (still_layers.py).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
import skia

from protocol.model.colors import normalize_color
from workers.compositor.color_management import View
from workers.compositor.deep_frames import comp_depth, render_deep
from workers.compositor.footage import FootageCache
from workers.compositor.motion_blur import (average_premultiplied, motion_blur_settings,
                                            sample_times)
from workers.compositor.output_size import output_size
from workers.compositor.render_plan import RenderPlan

# Bytes of surfaces kept between frames: a render uses one size, a preview worker a few (its
# max_side, full size, a proxy). Kept by count, four full-size previews of a 16384-pixel comp
# left 4 GiB idle in the preview worker; in bytes, a 4K surface (32 MiB) and several smaller
# ones fit, and a larger surface is made for its frame and freed after it: allocating costs
# little beside drawing a frame that size, and a worker's idle memory stays small.
KEPT_SURFACE_BYTES = 64 << 20


@dataclass
class RenderedFrame:
    # H x W x 4 straight (unpremultiplied) RGBA, C-contiguous: uint8, or float32 (sRGB-encoded,
    # 0..1 and beyond) for a comp deeper than 8 bits or blending in linear light
    # (deep_frames.py)
    pixels: np.ndarray
    missing: list = field(default_factory=list)  # footage paths that could not be read


_surfaces: OrderedDict = OrderedDict()
_default_cache: list = []
_wrapped: list = []  # [array, the surface drawing into it]


def default_footage_cache() -> FootageCache:
    """The process-wide cache used when a caller passes none."""
    if not _default_cache:
        _default_cache.append(FootageCache())
    return _default_cache[0]


def compiled(document: dict, comp_id: str, footage: FootageCache | None,
             plan: RenderPlan | None) -> RenderPlan:
    """The caller's plan, or one compiled for this frame."""
    if plan is not None:
        return plan
    return RenderPlan(document, comp_id, footage if footage is not None else
                      default_footage_cache())


def _surface(width: int, height: int) -> tuple[skia.Surface, np.ndarray]:
    """This process's surface for the size, and the array it draws into."""
    kept = _surfaces.get((width, height))
    if kept is not None:
        _surfaces.move_to_end((width, height))
        return kept
    try:
        pixels = np.zeros((height, width, 4), np.uint8)
    except MemoryError:  # the size is valid (output_size), so what failed is the allocation
        raise MemoryError(f"no memory for a {width}x{height} drawing surface") from None
    kept = (_wrap(pixels), pixels)
    if _surface_bytes(width, height) <= KEPT_SURFACE_BYTES:
        _surfaces[(width, height)] = kept
        while sum(_surface_bytes(*size) for size in _surfaces) > KEPT_SURFACE_BYTES:
            _surfaces.popitem(last=False)
    return kept


def _surface_bytes(width: int, height: int) -> int:
    return width * height * 4


def _background(comp: dict, transparent: bool) -> skia.Color4f:
    if transparent:
        return skia.Color4f(0, 0, 0, 0)
    return skia.Color4f(*normalize_color(comp.get("background", [0, 0, 0, 1])))


def render_to_surface(document: dict, comp_id: str, time: float, *,
                      footage: FootageCache | None = None, scale: float = 1.0,
                      transparent: bool = False,
                      plan: RenderPlan | None = None) -> tuple[skia.Surface, list]:
    """Draw the frame into this process's surface for its size (valid until the next render of
    that size) and return it with the missing footage. No motion blur: that needs readbacks."""
    plan = compiled(document, comp_id, footage, plan)
    surface, pixels = _surface(*output_size(plan.comp, scale))
    missing = plan.draw(surface.getCanvas(), pixels, time, scale,
                        _background(plan.comp, transparent))
    return surface, missing


def render_frame(document: dict, comp_id: str, time: float, *,
                 footage: FootageCache | None = None, scale: float = 1.0,
                 transparent: bool = False, out: np.ndarray | None = None,
                 plan: RenderPlan | None = None, view: View | None = None) -> RenderedFrame:
    """The comp `comp_id` (id or name) at comp time `time`, as straight RGBA.

    `scale` renders at round(w*scale) x round(h*scale); `transparent` leaves the background
    out; `out` (H x W x 4 uint8, C-contiguous) is filled and returned instead of a new array,
    for callers that encode each frame before rendering the next; `plan` is the document's
    render plan for this comp, when the caller keeps one; `view`, in a colour-managed project,
    how the frame leaves its working space (default: the config's default display and view).
    """
    plan = compiled(document, comp_id, footage, plan)
    return render_drawn(plan.draw, plan.comp, time, scale=scale, transparent=transparent,
                        out=out, reused_out=plan.reused_out, managed=plan.ctx.managed,
                        view=view)


def render_drawn(draw, comp: dict, time: float, *, scale: float = 1.0,
                 transparent: bool = False, out: np.ndarray | None = None,
                 reused_out: bool = False, managed=None,
                 view: View | None = None) -> RenderedFrame:
    """A frame of `comp` as straight RGBA, drawn by `draw(canvas, pixels, time, scale,
    background, kept) -> missing` (a plan's `draw`) into the surface this frame needs; `kept`
    says the pixels still hold what was drawn into them last: this module's own surfaces, and
    `out` when the caller says it passes it again unchanged (`reused_out`). `managed`: the
    document's colour management (color_management.Managed), which `view` leaves through."""
    width, height = output_size(comp, scale)
    depth = comp_depth(comp, None if managed is None else managed.space)
    if depth is not None:
        display = None if managed is None else \
            (lambda pixels: managed.to_display(pixels, view or View()))
        pixels, missing = render_deep(draw, comp, time, depth, (width, height), scale,
                                      _background(comp, transparent), out, display)
        return RenderedFrame(pixels=pixels, missing=missing)
    if out is None:
        out = np.empty((height, width, 4), np.uint8)
    elif out.shape != (height, width, 4) or out.dtype != np.uint8 or \
            not out.flags["C_CONTIGUOUS"]:
        raise ValueError(f"out must be a C-contiguous uint8 array of shape {(height, width, 4)}, "
                         f"not {out.dtype} {out.shape}")
    background = _background(comp, transparent)
    blur = motion_blur_settings(comp)
    if blur is not None:
        missing = _render_motion_blur(draw, comp, time, scale, background, blur, out)
    elif background.fA >= 1.0:
        # Every pixel ends opaque, where premultiplied equals straight: draw straight into the
        # caller's array, with no surface of our own and no readback copy.
        missing = draw(_wrap(out).getCanvas(), out, time, scale, background, reused_out)
    else:
        surface, pixels = _surface(width, height)
        missing = draw(surface.getCanvas(), pixels, time, scale, background, True)
        _read(surface, out, straight=True)
    return RenderedFrame(pixels=out, missing=missing)


def _render_motion_blur(draw, comp: dict, time: float, scale: float,
                        background: skia.Color4f, blur: tuple, out: np.ndarray) -> list:
    samples, angle = blur
    surface, pixels = _surface(out.shape[1], out.shape[0])
    total = np.zeros(out.shape, np.uint32)
    missing: list = []
    for sample_time in sample_times(time, float(comp.get("frameRate", 30)), samples, angle):
        for path in draw(surface.getCanvas(), pixels, sample_time, scale, background, True):
            if path not in missing:
                missing.append(path)
        _read(surface, out, straight=False)
        total += out
    average_premultiplied(total, samples, out, opaque=background.fA >= 1.0)
    return missing


def _wrap(pixels: np.ndarray) -> skia.Surface:
    """A raster surface drawing into `pixels` itself. The last one made is kept, with its
    array (so the memory it draws into stays alive), for a caller that passes the same `out`
    for every frame of a chunk."""
    if _wrapped and _wrapped[0] is pixels:
        return _wrapped[1]
    surface = skia.Surface(pixels, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
    _wrapped[:] = [pixels, surface]
    return surface


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
