"""Effect chains with a wide blur, and wide mask feathers, drawn in float so their ramps can be
dithered (docs/document.md, "Effects").

Skia's CPU blur rounds to 8 bits on any surface, F16 and F32 alike, so a wide blur of a dark
edge comes out in flat steps of one level, many pixels wide, which H.264 and GIF make worse. A
chain with a blur of FLOAT_BLUR_FROM device pixels or more is drawn here instead:

1. The layer's content (and its masks) is drawn as its saveLayer would hold it, in the layer's
   filter space: its own pixels scaled as the canvas scales them (device pixels themselves when
   the layer is not rotated or skewed), over the box the chain can reach and the canvas shows.
2. Each effect runs in order on those pixels, in float: blurs in numpy at a coarse step
   (float_blur.py), shadows and glows composited by Skia on float surfaces, color effects through
   the same color matrices as Skia's chain (effects.py).
3. The result is drawn onto the canvas through the layer's opacity and blend mode with Skia's
   dither, scaled back up with linear filtering, so a ramp finer than 8 bits is dithered where it
   lands, as a gradient is.

A layer with no such chain whose masks are feathered as wide is multiplied by its masks'
coverage in float (draw_cut_in_float), where the saveLayer would round the product to 8 bits,
so a wide feather on a dark layer (a vignette) is dithered too.

Narrower blurs stay Skia's: their ramps are under about 25 px, where an 8-bit step is a pixel
or two wide, and Skia is quicker there.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
import skia

from workers.compositor.blending import layer_paint
from workers.compositor.effects import (COLOR_FILTERS, LayerEffects, blur_sigma,
                                        glow_matrices, shadow_color, shadow_offset)
from workers.compositor.float_blur import blur_step, gaussian_blur, reduce, residual_sigma
from workers.compositor.kept_chains import KEPT_CHAINS, KeptChains

# The device sigma from which a chain (or a mask's feather) is drawn here (see above).
FLOAT_BLUR_FROM = 4.0
# The pixels a chain may work on before it is left to Skia: four times what the canvas shows,
# or this many if more, and never more than MAX_WORK_PIXELS. A blur's margin is three sigmas
# all round, drawn at full size (a shadow's and a glow's source stay sharp), so a blur of
# thousands of pixels would take gigabytes here where Skia's takes a fraction of one.
WORK_PIXELS = 4_000_000
MAX_WORK_PIXELS = 24_000_000
_LINEAR = skia.SamplingOptions(skia.FilterMode.kLinear)
_NEAREST = skia.SamplingOptions()


def draw_in_float(canvas: skia.Canvas, effects: LayerEffects, bounds: skia.Rect | None,
                  opacity: float, blend: skia.BlendMode,
                  draw_content: Callable[[skia.Canvas], None], kept_as: tuple | None = None,
                  kept: KeptChains = KEPT_CHAINS) -> bool:
    """Draw what `draw_content` draws (in the layer's coordinates, within `bounds`: its content
    and masks) through `effects`, then onto `canvas` at `opacity` with `blend`, as the layer's
    saveLayer would. False, having drawn nothing, when the pixels the chain needs around what
    the canvas shows would pass WORK_PIXELS: the caller leaves such a blur to Skia.

    `kept_as`, (an owner from kept_chains.new_owner, what else the pixels depend on), says
    `draw_content` draws the same at every call with that owner: the chain's result is then
    kept in `kept` and reused while the rest it is made from is the same."""
    space = FilterSpace(canvas.getTotalMatrix())
    if not space.scales:
        return True  # scaled to nothing: nothing shows
    steps = [space.step(blur_sigma(name, params)) for name, params in effects.chain]
    clip = canvas.getDeviceClipBounds()
    if clip.isEmpty():
        return True
    box = space.work_box(bounds, effects, clip, max(steps))
    if box is None:
        return True
    if box[2] * box[3] > max(WORK_PIXELS, 4 * clip.width() * clip.height()) \
            or box[2] * box[3] > MAX_WORK_PIXELS:
        return False
    owner, inputs = None, None
    if kept_as is not None:
        owner, inputs = kept_as[0], (kept_as[1:], tuple(canvas.getTotalMatrix().get9()),
                                     tuple(clip), box, None if bounds is None else tuple(bounds),
                                     repr(effects.chain))
    result = None if owner is None else kept.get(owner, inputs)
    if result is None:
        result = _chain(space, box, bounds, effects, draw_content)
        if owner is not None:
            kept.put(owner, inputs, result)
    pixels, step = result

    canvas.save()
    if bounds is not None:
        # No pixel beyond the device box of what Skia's chain would reach, which is what the
        # layer reports it can have changed (render_plan.py's damage). A box, not the reach
        # itself: clipped there, a turned layer's anti-aliased edge would be cut.
        device = canvas.getTotalMatrix().mapRect(effects.reach(bounds)).roundOut()
        canvas.resetMatrix()
        canvas.clipRect(skia.Rect.Make(device))
    canvas.setMatrix(skia.Matrix.Concat(space.filter_to_device,
                                        skia.Matrix.Concat(skia.Matrix.Translate(box[0], box[1]),
                                                           skia.Matrix.Scale(step, step))))
    paint = layer_paint(opacity, blend)
    paint.setDither(True)
    exact = step == 1 and space.filter_to_device.isIdentity()
    canvas.drawImage(_image(pixels, borrow=True), 0, 0, _NEAREST if exact else _LINEAR, paint)
    canvas.restore()
    return True


def _chain(space: "FilterSpace", box: tuple, bounds: skia.Rect | None, effects: LayerEffects,
           draw_content: Callable[[skia.Canvas], None]) -> tuple:
    """The chain's pixels over `box` and the step they are at: the content drawn, then each
    effect in order."""
    pixels, step = _content(space.layer_to_filter, box, bounds, draw_content), 1
    for name, params in effects.chain:
        pixels, step = _STAGES[name](pixels, step, params, space)
    return pixels, step


def axis_scale(matrix: skia.Matrix) -> float:
    """How much `matrix` stretches the layer's shorter-stretched axis: the shorter of its
    columns. A sigma in the layer's pixels times this is the narrowest it lands."""
    sx, sy = _stretch(matrix)
    return min(abs(sx), abs(sy))


def _stretch(matrix: skia.Matrix) -> tuple[float, float]:
    """How much the matrix stretches each layer axis: the lengths of its columns, signed when
    it only scales (a flip turns a shadow's offset with the layer)."""
    if matrix.isScaleTranslate():
        return matrix.getScaleX(), matrix.getScaleY()
    return (math.hypot(matrix.getScaleX(), matrix.getSkewY()),
            math.hypot(matrix.getSkewX(), matrix.getScaleY()))


def draw_cut_in_float(canvas: skia.Canvas, bounds: skia.Rect | None, opacity: float,
                      blend: skia.BlendMode, draw_content: Callable[[skia.Canvas], None],
                      draw_coverage: Callable[[skia.Canvas], None]) -> None:
    """Draw a layer's content (`draw_content`) cut by its masks (the alpha `draw_coverage`
    draws) onto `canvas` with the dither. The saveLayer would round content times coverage to
    8 bits, which is what bands a wide feather on a dark layer (a vignette); here both are drawn
    as the saveLayer would draw them and their product is taken in float."""
    matrix = canvas.getTotalMatrix()
    box = canvas.getDeviceClipBounds()
    if bounds is not None and not box.intersect(matrix.mapRect(bounds).roundOut()):
        return
    if box.isEmpty():
        return
    origin = skia.Matrix.Concat(skia.Matrix.Translate(-box.left(), -box.top()), matrix)
    area = (0, 0, box.width(), box.height())
    content = _content(origin, area, bounds, draw_content)
    coverage = _content(origin, area, bounds, draw_coverage)[..., 3:4]
    cut = content * (coverage * np.float32(1 / (255 * 255)))
    paint = layer_paint(opacity, blend)
    paint.setDither(True)
    canvas.save()
    canvas.resetMatrix()
    canvas.drawImage(_image(cut, borrow=True), box.left(), box.top(), _NEAREST, paint)
    canvas.restore()


class FilterSpace:
    """The space a layer's effects are computed in: its own coordinates scaled by the canvas's
    scale, so a blur's sigma is in pixels that land one to one on the canvas. The rest of the
    canvas's matrix (a rotation, a skew) is applied when the result is drawn. Under a matrix
    that only scales and moves, it is the canvas's pixels themselves."""

    def __init__(self, matrix: skia.Matrix) -> None:
        self.sx, self.sy = _stretch(matrix)
        if matrix.isScaleTranslate():
            self.layer_to_filter = matrix  # getTotalMatrix gave us our own copy
            self.filter_to_device = skia.Matrix()
        else:
            self.layer_to_filter = skia.Matrix.Scale(self.sx, self.sy)
            self.filter_to_device = skia.Matrix.Concat(
                matrix, skia.Matrix.Scale(1.0 / self.sx, 1.0 / self.sy)) if self.scales else None
        self.scale = min(abs(self.sx), abs(self.sy))

    @property
    def scales(self) -> bool:
        return abs(self.sx) > 0 and abs(self.sy) > 0

    def step(self, sigma: float) -> int:
        """The coarse step a blur of `sigma` layer pixels runs at here."""
        return blur_step(sigma * self.scale)

    def work_box(self, bounds: skia.Rect | None, effects: LayerEffects, clip: skia.IRect,
                 multiple: int) -> tuple | None:
        """(left, top, width, height) in filter pixels, width and height multiples of
        `multiple`: where the chain can draw, cut to what the clip shows and what reaches it."""
        spread = effects.spread()
        margin_x, margin_y = spread * abs(self.sx), spread * abs(self.sy)
        inverse = skia.Matrix()
        if not self.filter_to_device.invert(inverse):
            return None
        area = _outset(inverse.mapRect(skia.Rect.Make(clip)), margin_x, margin_y)
        if bounds is not None:
            # Past where the chain draws by how far it moves things, so what a shadow moves
            # into view (its blurred tail) was computed, not cut at the box's edge; and a
            # pixel of clear all round, so the image's own edge (not anti-aliased when drawn
            # turned) lies outside the content's.
            shift = effects.shift()
            reach = _outset(self.layer_to_filter.mapRect(effects.reach(bounds)),
                            shift * abs(self.sx) + 1.0, shift * abs(self.sy) + 1.0)
            if not area.intersect(reach):
                return None
        box = area.roundOut()
        if box.isEmpty():
            return None
        width = -(-box.width() // multiple) * multiple
        height = -(-box.height() // multiple) * multiple
        return box.left(), box.top(), width, height


def _outset(rect: skia.Rect, dx: float, dy: float) -> skia.Rect:
    return skia.Rect.MakeLTRB(rect.left() - dx, rect.top() - dy, rect.right() + dx,
                              rect.bottom() + dy)


# -- pixels between stages, premultiplied: the layer's content as drawn, (height, width, 4)
# uint8; a blur's result, float32; what a float surface drew, a skia.Image of it (no copy until
# a stage wants numpy) ----------------------------------------------------------------------

def _surface(width: int, height: int) -> skia.Surface:
    # F32, not F16: half floats move an exact 8-bit level by up to 0.03, enough for the dither
    # to speckle a flat area that Skia's chain leaves flat.
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_F32_ColorType, skia.kPremul_AlphaType)
    surface = skia.Surface.MakeRaster(info)
    if surface is None:
        raise MemoryError(f"a {width}x{height} float surface could not be made")
    return surface


def _snapshot(surface: skia.Surface) -> skia.Image:
    """What a float surface holds, as an image (no copy: the surface is not drawn to again).
    Stages pass it on as it is; the next one that needs numpy reads it (`_array`)."""
    return surface.makeImageSnapshot()


def _array(pixels) -> np.ndarray:
    """Pixels as numpy: a float surface's snapshot read back, 8-bit or float arrays as they
    are."""
    if isinstance(pixels, skia.Image):
        return pixels.toarray(colorType=skia.kRGBA_F32_ColorType,
                              alphaType=skia.kPremul_AlphaType)
    return pixels


def _size(pixels) -> tuple[int, int]:
    """(height, width) of pixels, an array or an image."""
    if isinstance(pixels, skia.Image):
        return pixels.height(), pixels.width()
    return pixels.shape[:2]


def _image(pixels, borrow: bool = False) -> skia.Image:
    """An image of pixels (8-bit, float, or a surface's snapshot, which is one already); with
    `borrow`, of their very memory (no copy), for a caller that holds `pixels` until the image
    is drawn. 8-bit pixels stay 8-bit: Skia reads a byte as float exactly as as_float does."""
    if isinstance(pixels, skia.Image):
        return pixels
    if pixels.dtype == np.uint8:
        return skia.Image.fromarray(pixels, colorType=skia.kRGBA_8888_ColorType,
                                    alphaType=skia.kPremul_AlphaType, copy=not borrow)
    held = np.ascontiguousarray(pixels)
    # Only memory the caller holds may be borrowed, not a converted copy made here.
    return skia.Image.fromarray(held, colorType=skia.kRGBA_F32_ColorType,
                                alphaType=skia.kPremul_AlphaType,
                                copy=not (borrow and held is pixels))


def _content(matrix: skia.Matrix, box: tuple, bounds: skia.Rect | None,
             draw_content) -> np.ndarray:
    """What `draw_content` draws under `matrix` (the layer's coordinates to the pixels of
    `box`, which starts at (left, top) of them) over `box`: the very pixels the layer's
    saveLayer would hold, 8-bit as the canvas is (so a gradient in it is dithered as it would
    be there). Always at full size, and averaged down by a blur (float_blur.reduce): drawn
    straight at a coarse step, a mask's feather (a Skia mask filter) came out tens of levels
    wrong."""
    left, top, width, height = box
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
    surface = skia.Surface.MakeRaster(info)
    if surface is None:
        raise MemoryError(f"a {width}x{height} layer could not be made")
    canvas = surface.getCanvas()
    canvas.translate(-left, -top)
    canvas.concat(matrix)
    canvas.saveLayer(bounds, None)  # clipped to the content box, as the layer's saveLayer is
    draw_content(canvas)
    canvas.restore()
    pixels = np.empty((height, width, 4), np.uint8)
    if not surface.readPixels(skia.Pixmap(info, pixels, width * 4)):
        raise RuntimeError(f"reading back a {width}x{height} layer failed")
    return pixels


def _blurred(pixels, step: int, sigma: float, space: FilterSpace) -> tuple:
    """`pixels` (at `step`) blurred by `sigma` layer pixels, and the step the result is at."""
    sigma_x, sigma_y = sigma * abs(space.sx), sigma * abs(space.sy)
    coarse = max(step, space.step(sigma))
    pixels = reduce(_array(pixels), coarse // step)
    return gaussian_blur(pixels, residual_sigma(sigma_x, coarse, step),
                         residual_sigma(sigma_y, coarse, step)), coarse


def _over(below: np.ndarray, below_step: int, above, above_step: int,
          offset=(0.0, 0.0), blend=skia.BlendMode.kSrcOver,
          below_matrix: list | None = None) -> skia.Image:
    """`above` (at `above_step`) drawn with `blend` over `below` (at the coarser `below_step`,
    moved by `offset` filter pixels, through `below_matrix` once scaled up), at `above_step`."""
    height, width = _size(above)
    surface = _surface(width, height)
    canvas = surface.getCanvas()
    canvas.save()
    canvas.translate(offset[0] / above_step, offset[1] / above_step)
    canvas.scale(below_step / above_step, below_step / above_step)
    scaled_up = skia.Paint()
    if below_matrix is not None:
        scaled_up.setColorFilter(skia.ColorFilters.Matrix(below_matrix))
    canvas.drawImage(_image(below, borrow=True), 0, 0, _LINEAR, scaled_up)
    canvas.restore()
    paint = skia.Paint()
    paint.setBlendMode(blend)
    canvas.drawImage(_image(above, borrow=True), 0, 0, _NEAREST, paint)
    return _snapshot(surface)


def _color_matrix(pixels, matrix: list):
    """A 4x5 color matrix applied by Skia's own color filter, as in its chain."""
    return _color_filtered(pixels, skia.ColorFilters.Matrix(matrix))


def _color_filtered(pixels, color_filter: skia.ColorFilter):
    """A colour filter of the chain applied by Skia: 8-bit pixels (a layer's content) on an
    8-bit surface, as Skia's chain would, float ones on a float one."""
    height, width = _size(pixels)
    paint = skia.Paint()
    paint.setColorFilter(color_filter)
    if isinstance(pixels, np.ndarray) and pixels.dtype == np.uint8:
        out = np.zeros_like(pixels)
        image = skia.Image.fromarray(pixels, colorType=skia.kRGBA_8888_ColorType,
                                     alphaType=skia.kPremul_AlphaType)
        surface = skia.Surface(out, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
        surface.getCanvas().drawImage(image, 0, 0, _NEAREST, paint)
        del surface  # before `out` is handed on: the surface draws into its memory
        return out
    surface = _surface(width, height)
    surface.getCanvas().drawImage(_image(pixels, borrow=True), 0, 0, _NEAREST, paint)
    return _snapshot(surface)


def _gaussian_blur(pixels, step, params, space):
    return _blurred(pixels, step, blur_sigma("gaussianBlur", params), space)


def _drop_shadow(pixels, step, params, space):
    # The shadow is the layer's alpha, blurred, in the shadow's color, behind the layer.
    alpha, at = _blurred(_array(pixels)[..., 3:4], step, blur_sigma("dropShadow", params), space)
    color = shadow_color(params)
    premultiplied = np.array([color.fR * color.fA, color.fG * color.fA, color.fB * color.fA,
                              color.fA], dtype=np.float32)
    dx, dy = shadow_offset(params)
    return _over(alpha * premultiplied, at, pixels, step, (dx * space.sx, dy * space.sy)), step


def _glow(pixels, step, params, space):
    bright, strength = glow_matrices(params)
    glow, at = _blurred(_color_matrix(pixels, bright), step, blur_sigma("glow", params), space)
    # The glow adds light to the untouched layer. Its strength clamps (intensity over 1
    # saturates), so it applies once scaled back up: clamped at the coarse step, the clamp's
    # corner would be filtered round.
    return _over(glow, at, pixels, step, blend=skia.BlendMode.kPlus,
                 below_matrix=strength), step


def _color_stage(name: str):
    """A colour effect's stage: its filter (effects.COLOR_FILTERS) on the pixels. These pixels
    are sRGB-encoded (the layer's content is drawn on an 8-bit surface), whatever the comp's
    light."""
    def stage(pixels, step, params, space):
        color_filter = COLOR_FILTERS[name](params, False)
        return (pixels if color_filter is None else _color_filtered(pixels, color_filter)), step
    return stage


_STAGES = {
    "gaussianBlur": _gaussian_blur,
    "dropShadow": _drop_shadow,
    "glow": _glow,
    **{name: _color_stage(name) for name in COLOR_FILTERS},
}
