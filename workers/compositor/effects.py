"""Layer effects as one Skia image filter chain (docs/document.md, "Effects").

Effects apply in order to the layer's own pixels, before its opacity and blending: the chain
goes on the paint of the layer's saveLayer, drawn while the canvas holds the layer's matrix, so
a blur radius is in the layer's own pixels and scales with the layer, as in After Effects.
Color effects are 4x5 color matrices (on unpremultiplied colors; the fifth column is 0..1).
"""

from __future__ import annotations

import math

import skia

from protocol.model.colors import normalize_color
from protocol.model.effects import EFFECTS
from protocol.model.keyframes import value_at
from workers.compositor.paints import color4f

# Rec. 709 luma, the weights After Effects uses for luma mattes and tint.
LUMA = (0.2126, 0.7152, 0.0722)


def effect_params(effect: dict, time: float) -> dict:
    """Every param at `time`, the table's default where the effect leaves one out."""
    params = effect.get("params", {})
    return {name: value_at(params[name], time) if name in params else default
            for name, (_, default) in EFFECTS.get(effect.get("effect"), {}).items()}


def layer_filter(layer: dict, time: float) -> skia.ImageFilter | None:
    """The layer's enabled effects chained in order, or None when it has none."""
    chain = None
    for effect in layer.get("effects") or ():
        if not effect.get("enabled", True):
            continue
        build = _BUILDERS.get(effect.get("effect"))
        if build is not None:
            chain = build(effect_params(effect, time), chain)
    return chain


def _gaussian_blur(params: dict, source):
    sigma = max(0.0, float(params["radius"])) / 2.0
    if sigma <= 0:
        return source
    return skia.ImageFilters.Blur(sigma, sigma, skia.TileMode.kDecal, source)


def _drop_shadow(params: dict, source):
    # direction: 0 = up, clockwise; y points down.
    angle = math.radians(float(params["direction"]))
    distance = float(params["distance"])
    sigma = max(0.0, float(params["softness"])) / 2.0
    color = color4f(params["color"], float(params["opacity"]) / 100.0).toColor()
    return skia.ImageFilters.DropShadow(distance * math.sin(angle), -distance * math.cos(angle),
                                        sigma, sigma, color, source)


def _fill(params: dict, source):
    amount = _fraction(params["opacity"])
    r, g, b, _ = normalize_color(params["color"])
    keep = 1.0 - amount
    matrix = [keep, 0, 0, 0, amount * r,
              0, keep, 0, 0, amount * g,
              0, 0, keep, 0, amount * b,
              0, 0, 0, 1, 0]
    return skia.ImageFilters.ColorFilter(skia.ColorFilters.Matrix(matrix), source)


def _tint(params: dict, source):
    amount = _fraction(params["amount"])
    black = normalize_color(params["black"])
    white = normalize_color(params["white"])
    matrix = []
    for channel in range(3):
        span = white[channel] - black[channel]
        row = [amount * span * weight for weight in LUMA]
        row[channel] += 1.0 - amount
        matrix += row + [0, amount * black[channel]]
    matrix += [0, 0, 0, 1, 0]
    return skia.ImageFilters.ColorFilter(skia.ColorFilters.Matrix(matrix), source)


def _glow(params: dict, source):
    threshold = _fraction(params["threshold"])
    # Keep only what is brighter than the threshold: alpha ramps from 0 at the threshold to 1
    # at full white (and transparent pixels stay out, through the "+ a - 1" term).
    ramp = max(1.0 - threshold, 0.01)
    bright = skia.ColorFilters.Matrix([1, 0, 0, 0, 0,
                                       0, 1, 0, 0, 0,
                                       0, 0, 1, 0, 0,
                                       LUMA[0] / ramp, LUMA[1] / ramp, LUMA[2] / ramp,
                                       1 / ramp, (-threshold - 1) / ramp])
    intensity = max(0.0, float(params["intensity"]))
    strength = skia.ColorFilters.Matrix([1, 0, 0, 0, 0,
                                         0, 1, 0, 0, 0,
                                         0, 0, 1, 0, 0,
                                         0, 0, 0, intensity, 0])
    sigma = max(0.0, float(params["radius"])) / 2.0
    glow = skia.ImageFilters.ColorFilter(bright, source)
    if sigma > 0:
        glow = skia.ImageFilters.Blur(sigma, sigma, skia.TileMode.kDecal, glow)
    glow = skia.ImageFilters.ColorFilter(strength, glow)
    # The glow adds light on top of the untouched layer.
    return skia.ImageFilters.Xfermode(skia.BlendMode.kPlus, source, glow)


def _fraction(percent) -> float:
    return min(1.0, max(0.0, float(percent) / 100.0))


_BUILDERS = {
    "gaussianBlur": _gaussian_blur,
    "dropShadow": _drop_shadow,
    "fill": _fill,
    "tint": _tint,
    "glow": _glow,
}
