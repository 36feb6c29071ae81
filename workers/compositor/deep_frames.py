"""Comps drawn deeper than 8 bits, or blended in linear light: a comp's `bitDepth` (8, 16 or
"float") and `linearBlending` (docs/document.md, "Bit depth and linear light"), and comps of a
colour-managed project, drawn in its working space (color_management.py).

    comp_depth(comp, working=None) -> Depth | None   # None: the 8-bit sRGB comp frame.py draws
    render_deep(draw, comp, time, depth, ...) -> float32 H x W x 4 straight RGBA

A deep comp is drawn by the same render plan onto a Skia surface of half floats (16) or floats
("float"), kept per size for the life of the worker. With linear blending the surface is
tagged linear sRGB: Skia converts every colour it draws (paints, gradients, images, all sRGB)
into linear light, blends, filters and averages there, and converts back when the frame is
read. Without it the surface has no colour space, and Skia blends the sRGB values as the 8-bit
surface does, only finer.

The frame comes back as straight RGBA in float32, its colour sRGB-encoded as an 8-bit frame's
is (0..1 for 0..255), values above 1 kept (a float comp's highlights); the exporter turns it
into the output's bits (workers/exporter/deep_pixels.py). A colour-managed comp is drawn on a
surface tagged with the working space (always linear), read back in that space, and handed to
`display` (the item's display and view), which encodes it in place; without one it stays
scene-linear (what EXR holds).

16 bits are Skia's half floats: 11 significant bits, a step of 1/2048 at white and far finer
in the shadows, where 8 bits band (0.0002 in linear light against 8-bit sRGB's 0.0003 at its
first step). Never reads or writes a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import skia

from workers.compositor.motion_blur import motion_blur_settings, sample_times

DEPTHS = (8, 16, "float")


@dataclass(frozen=True)
class Depth:
    color_type: skia.ColorType
    dtype: type
    linear: bool
    # A colour-managed project's working space (Skia's colour spaces do not hash: `key` does).
    working: skia.ColorSpace | None = field(default=None, compare=False)

    def key(self) -> tuple:
        return (self.color_type, self.linear,
                None if self.working is None else self.working.hash())

    def color_space(self) -> skia.ColorSpace | None:
        if self.working is not None:
            return self.working
        return skia.ColorSpace.MakeSRGBLinear() if self.linear else None

    def read_space(self) -> skia.ColorSpace | None:
        """The space a frame is read back in: the working space itself (its values as they
        are), sRGB from linear sRGB, or none (the values as drawn)."""
        if self.working is not None:
            return self.working
        return skia.ColorSpace.MakeSRGB() if self.linear else None


def comp_depth(comp: dict, working: skia.ColorSpace | None = None) -> Depth | None:
    """How a comp is drawn: None for 8-bit sRGB blending (the default), else its Depth; in a
    colour-managed project (`working`, its working space) always in linear light. A comp
    blending in linear light at 8 bits is drawn in half floats: linear light in 8 bits would
    band in every shadow."""
    bits = comp.get("bitDepth", 8)
    linear = bool(comp.get("linearBlending", False)) or working is not None
    if bits == 8 and not linear:
        return None
    if bits == "float":
        return Depth(skia.kRGBA_F32_ColorType, np.float32, linear, working)
    return Depth(skia.kRGBA_F16_ColorType, np.float16, linear, working)


_surfaces: dict = {}


def _surface(width: int, height: int, depth: Depth) -> tuple[skia.Surface, np.ndarray]:
    """This process's surface for the size and depth, and the array it draws into (one kept:
    a worker renders one comp at a time)."""
    key = (width, height, depth.key())
    kept = _surfaces.get(key)
    if kept is None:
        _surfaces.clear()
        try:
            pixels = np.zeros((height, width, 4), depth.dtype)
        except MemoryError:
            raise MemoryError(f"no memory for a {width}x{height} drawing surface") from None
        surface = skia.Surface(pixels, depth.color_type, skia.kPremul_AlphaType,
                               depth.color_space())
        kept = _surfaces[key] = (surface, pixels)
    return kept


def _read(surface: skia.Surface, depth: Depth, out: np.ndarray, straight: bool) -> None:
    """The surface as float32 RGBA in its read space (Depth.read_space: sRGB-encoded, converted
    from linear light by Skia, unless colour-managed), straight or premultiplied."""
    height, width = out.shape[:2]
    alpha = skia.kUnpremul_AlphaType if straight else skia.kPremul_AlphaType
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_F32_ColorType, alpha,
                               depth.read_space())
    if not surface.readPixels(skia.Pixmap(info, out, width * 16)):
        raise RuntimeError(f"reading back a {width}x{height} frame failed")


def render_deep(draw, comp: dict, time: float, depth: Depth, size: tuple[int, int],
                scale: float, background: skia.Color4f,
                out: np.ndarray | None = None, display=None) -> tuple:
    """(the frame as float32 straight RGBA, missing footage), drawn by `draw` (a plan's draw,
    as frame.py calls it) on this process's deep surface; motion blur averages its samples in
    the surface's own light (linear with linear blending). `display(pixels)`, when given, turns
    a colour-managed frame into its display's encoding in place."""
    out, missing = _render_deep(draw, comp, time, depth, size, scale, background, out)
    if display is not None:
        display(out)
    return out, missing


def _render_deep(draw, comp: dict, time: float, depth: Depth, size: tuple[int, int],
                 scale: float, background: skia.Color4f, out: np.ndarray | None) -> tuple:
    width, height = size
    if out is None or out.shape != (height, width, 4) or out.dtype != np.float32:
        out = np.empty((height, width, 4), np.float32)
    surface, pixels = _surface(width, height, depth)
    blur = motion_blur_settings(comp)
    if blur is None:
        missing = draw(surface.getCanvas(), pixels, time, scale, background, True)
        _read(surface, depth, out, straight=True)
        return out, missing
    samples, angle = blur
    total = np.zeros(out.shape, np.float64)
    missing: list = []
    linear_copy = np.empty(out.shape, np.float32)
    for sample_time in sample_times(time, float(comp.get("frameRate", 30)), samples, angle):
        for path in draw(surface.getCanvas(), pixels, sample_time, scale, background, True):
            if path not in missing:
                missing.append(path)
        # Premultiplied, in the surface's own light: an average of light, not of codes.
        linear_copy[:] = pixels
        total += linear_copy
    mean = (total / samples).astype(np.float32)
    image = skia.Image.fromarray(np.ascontiguousarray(mean), colorType=skia.kRGBA_F32_ColorType,
                                 alphaType=skia.kPremul_AlphaType,
                                 colorSpace=depth.color_space())
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_F32_ColorType,
                               skia.kUnpremul_AlphaType, depth.read_space())
    if not image.readPixels(info, out, width * 16):
        raise RuntimeError(f"reading back a {width}x{height} frame failed")
    return out, missing
