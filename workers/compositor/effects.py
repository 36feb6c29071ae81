"""Layer effects as one Skia image filter chain (docs/document.md, "Effects").

Effects apply in order to the layer's own pixels, before its opacity and blending: the chain
goes on the paint of the layer's saveLayer, drawn while the canvas holds the layer's matrix, so
a blur radius is in the layer's own pixels and scales with the layer, as in After Effects.
Color effects are colour filters (on unpremultiplied colors): fill and tint 4x5 color matrices
(the fifth column is 0..1), lut and grade SkSL filters (color_grading.py).

A chain with a wide blur is drawn in float instead (float_effects.py), from the same params and
the same color matrices, because Skia's blur rounds to 8 bits.
"""

from __future__ import annotations

import math

import skia

from protocol.model.colors import normalize_color
from protocol.model.effects import EFFECTS
from protocol.model.keyframes import value_at
from workers.compositor.color_grading import grade_filter, lut_filter
from workers.compositor.cube_files import read_cube
from workers.compositor.paints import color4f

# Rec. 709 luma, the weights After Effects uses for luma mattes and tint.
LUMA = (0.2126, 0.7152, 0.0722)


def effect_params(effect: dict, time: float) -> dict:
    """Every param at `time`, the table's default where the effect leaves one out."""
    params = effect.get("params", {})
    return {name: value_at(params[name], time) if name in params else default
            for name, (_, default) in EFFECTS.get(effect.get("effect"), {}).items()}


class LayerEffects:
    """A layer's enabled effects at one time: `chain`, their names and params in order, and
    `image_filter`, the Skia filter that draws them all; `color_filter`, the same chain as one
    colour filter when every effect in it is one (fill, tint, lut, grade)."""

    def __init__(self, chain: list, image_filter: skia.ImageFilter,
                 color_filter: skia.ColorFilter | None = None) -> None:
        self.chain = chain
        self.image_filter = image_filter
        self.color_filter = color_filter

    def apply_to(self, paint: skia.Paint) -> None:
        """Put the chain on the paint of the layer's saveLayer. A chain of colour filters goes
        on as the paint's colour filter, which Skia applies in float as it composites the
        layer; its image filters work in 8 bits on any surface, which a 16-bit or float comp
        would see as bands in its shadows (in linear light, steps of 1/255 of light)."""
        if self.color_filter is not None:
            paint.setColorFilter(self.color_filter)
        else:
            paint.setImageFilter(self.image_filter)

    def widest_blur(self) -> float:
        """The largest blur sigma of the chain, in the layer's pixels (0 when it blurs nothing)."""
        return max((blur_sigma(name, params) for name, params in self.chain), default=0.0)

    def reach(self, bounds: skia.Rect) -> skia.Rect:
        """Where the chain can draw, for content within `bounds` (both in the layer's pixels)."""
        return self.image_filter.computeFastBounds(bounds)

    def shift(self) -> float:
        """How far the chain moves what it draws, in the layer's pixels: its shadows'
        distances, added up."""
        return sum(abs(float(params["distance"])) for name, params in self.chain
                   if name == "dropShadow")

    def spread(self) -> float:
        """How far past its content the chain can reach, in the layer's pixels: each blur's
        three sigmas and each shadow's distance, added up."""
        return 3.0 * sum(blur_sigma(name, params) for name, params in self.chain) + self.shift()


def layer_effects(layer: dict, time: float, linear_light: bool = False) -> LayerEffects | None:
    """The layer's enabled effects at `time`, or None when none of them draws anything;
    `linear_light`: the comp is drawn in linear light (a LUT then looks up sRGB-encoded
    values). LutError when a LUT's file cannot be read."""
    chain, image_filter, colors, only_colors = [], None, None, True
    for effect in layer.get("effects") or ():
        if not effect.get("enabled", True):
            continue
        name = effect.get("effect")
        params = effect_params(effect, time)
        if name in _BUILDERS:
            chain.append((name, params))
            image_filter = _BUILDERS[name](params, image_filter)
            only_colors = False
        elif name in COLOR_FILTERS:
            color_filter = COLOR_FILTERS[name](params, linear_light)
            if color_filter is not None:
                chain.append((name, params))
                image_filter = skia.ImageFilters.ColorFilter(color_filter, image_filter)
                colors = color_filter if colors is None else \
                    skia.ColorFilters.Compose(color_filter, colors)
    if image_filter is None:
        return None
    return LayerEffects(chain, image_filter, colors if only_colors else None)


def blur_sigma(name: str, params: dict) -> float:
    """The Gaussian sigma an effect blurs with, in the layer's pixels: half its radius (or a
    shadow's softness), as Skia's blur takes it; 0 for an effect that does not blur."""
    amount = params.get(_BLUR_PARAMS[name]) if name in _BLUR_PARAMS else 0.0
    return max(0.0, float(amount)) / 2.0


def shadow_offset(params: dict) -> tuple[float, float]:
    """A drop shadow's (dx, dy) in the layer's pixels. direction: 0 = up, clockwise; y points
    down."""
    angle = math.radians(float(params["direction"]))
    distance = float(params["distance"])
    return distance * math.sin(angle), -distance * math.cos(angle)


def shadow_color(params: dict) -> skia.Color4f:
    """The shadow's color, its alpha times `opacity`, which counts up to 100 (a key that
    overshoots gives no denser a shadow)."""
    return color4f(params["color"], _fraction(params["opacity"]))


def fill_matrix(params: dict) -> list:
    amount = _fraction(params["opacity"])
    r, g, b, _ = normalize_color(params["color"])
    keep = 1.0 - amount
    return [keep, 0, 0, 0, amount * r,
            0, keep, 0, 0, amount * g,
            0, 0, keep, 0, amount * b,
            0, 0, 0, 1, 0]


def tint_matrix(params: dict) -> list:
    amount = _fraction(params["amount"])
    black = normalize_color(params["black"])
    white = normalize_color(params["white"])
    matrix = []
    for channel in range(3):
        span = white[channel] - black[channel]
        row = [amount * span * weight for weight in LUMA]
        row[channel] += 1.0 - amount
        matrix += row + [0, amount * black[channel]]
    return matrix + [0, 0, 0, 1, 0]


def glow_matrices(params: dict) -> tuple[list, list]:
    """The glow's two color matrices: `bright`, which keeps only what is brighter than the
    threshold (alpha ramps from 0 there to 1 at full white, and transparent pixels stay out
    through the "+ a - 1" term), and `strength`, which scales the blurred glow's alpha."""
    threshold = _fraction(params["threshold"])
    ramp = max(1.0 - threshold, 0.01)
    bright = [1, 0, 0, 0, 0,
              0, 1, 0, 0, 0,
              0, 0, 1, 0, 0,
              LUMA[0] / ramp, LUMA[1] / ramp, LUMA[2] / ramp, 1 / ramp, (-threshold - 1) / ramp]
    intensity = max(0.0, float(params["intensity"]))
    strength = [1, 0, 0, 0, 0,
                0, 1, 0, 0, 0,
                0, 0, 1, 0, 0,
                0, 0, 0, intensity, 0]
    return bright, strength


def _gaussian_blur(params: dict, source):
    sigma = blur_sigma("gaussianBlur", params)
    if sigma <= 0:
        return source
    return skia.ImageFilters.Blur(sigma, sigma, skia.TileMode.kDecal, source)


def _drop_shadow(params: dict, source):
    dx, dy = shadow_offset(params)
    sigma = blur_sigma("dropShadow", params)
    return skia.ImageFilters.DropShadow(dx, dy, sigma, sigma, shadow_color(params).toColor(),
                                        source)


def _color_matrix(matrix: list, source):
    return skia.ImageFilters.ColorFilter(skia.ColorFilters.Matrix(matrix), source)


def _glow(params: dict, source):
    bright, strength = glow_matrices(params)
    sigma = blur_sigma("glow", params)
    glow = _color_matrix(bright, source)
    if sigma > 0:
        glow = skia.ImageFilters.Blur(sigma, sigma, skia.TileMode.kDecal, glow)
    glow = _color_matrix(strength, glow)
    # The glow adds light on top of the untouched layer.
    return skia.ImageFilters.Xfermode(skia.BlendMode.kPlus, source, glow)


def _fraction(percent) -> float:
    return min(1.0, max(0.0, float(percent) / 100.0))


def _lut(params: dict, linear_light: bool) -> skia.ColorFilter | None:
    amount = _fraction(params["amount"])
    if params["path"] is None or amount <= 0.0:
        return None
    return lut_filter(read_cube(params["path"]), amount, linear_light)


# The effects that are one colour filter each: name -> (params, linear_light) -> the filter, or
# None when it changes nothing. The float path (float_effects.py) applies the same filters.
COLOR_FILTERS = {
    "fill": lambda params, linear_light: skia.ColorFilters.Matrix(fill_matrix(params)),
    "tint": lambda params, linear_light: skia.ColorFilters.Matrix(tint_matrix(params)),
    "lut": _lut,
    "grade": lambda params, linear_light: grade_filter(params),
}
_BUILDERS = {
    "gaussianBlur": _gaussian_blur,
    "dropShadow": _drop_shadow,
    "glow": _glow,
}
# The param each blurring effect's sigma comes from.
_BLUR_PARAMS = {"gaussianBlur": "radius", "dropShadow": "softness", "glow": "radius"}
