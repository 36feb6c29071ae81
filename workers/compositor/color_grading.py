"""The `lut` and `grade` effects as Skia colour filters written in SkSL (docs/document.md, "LUTs
and grading").

    lut_filter(lut, amount, linear_light) -> skia.ColorFilter
    grade_filter(params) -> skia.ColorFilter | None      # None: the grade changes nothing

A colour filter sees each pixel unpremultiplied, in the space the layer is drawn in: sRGB-encoded
values in an 8-bit sRGB comp, linear light in a comp that blends in linear light (or in a
colour-managed working space). So:

- `grade` works on the values as the comp holds them, in linear light when the comp blends
  there (exposure is then a true change of light); its saturation is taken around Rec. 709 luma
  in linear sRGB (Skia's `toLinearSrgb`, which leaves an sRGB comp's values as they are).
- `lut` expects what a .cube LUT is made for, sRGB-encoded values: in a linear-light comp it
  encodes them with the sRGB curve before the lookup and decodes after (`linear_light`).

The lookup is tetrahedral, as Resolve and OpenColorIO interpolate: the cube cell around a value
is cut into six tetrahedra along its diagonal and the value weighs the four corners of its own.
Values outside the LUT's domain are clamped to it.

The table reaches the filter as an image. Skia's CPU pipeline samples an image shader at 8 bits
whatever its colour type, so each entry is stored as 16 bits of the table's range split into a
high and a low byte, in two halves of one 8-bit image, and put back together in the filter:
entries keep 1/65535 of the table's range (finer than half floats near white).
"""

from __future__ import annotations

import math

import numpy as np
import skia

from workers.compositor.cube_files import CubeLut

_SRGB_CURVES = """
float3 srgb_encode(float3 x) {
    float3 a = abs(x);
    return sign(x) * mix(12.92 * a, 1.055 * pow(a, float3(1 / 2.4)) - 0.055,
                         step(0.0031308, a));
}
float3 srgb_decode(float3 x) {
    float3 a = abs(x);
    return sign(x) * mix(a / 12.92, pow((a + 0.055) / 1.055, float3(2.4)), step(0.04045, a));
}
"""

_LUT = _SRGB_CURVES + """
uniform shader table;
uniform float n;
uniform float3 domainMin;
uniform float3 domainScale;
uniform float2 range;
uniform float linearLight;
uniform float amount;

float3 entry(float3 i) {
    float2 at = float2(i.r + n * i.b + 0.5, i.g + 0.5);
    float3 high = table.eval(at).rgb;
    float3 low = table.eval(at + float2(0, n)).rgb;
    float3 q = floor(high * 255 + 0.5) * 256 + floor(low * 255 + 0.5);
    return range.x + range.y * q / 65535;
}

half4 main(half4 color) {
    float3 c = color.rgb;
    float3 x = linearLight > 0.5 ? srgb_encode(toLinearSrgb(c)) : c;
    float3 p = clamp((x - domainMin) * domainScale, 0, 1) * (n - 1);
    float3 b = min(floor(p), float3(n - 2));
    float3 f = p - b;
    float3 first = entry(b);
    float3 last = entry(b + 1);
    float3 y;
    if (f.r > f.g) {
        if (f.g > f.b) {
            y = (1 - f.r) * first + (f.r - f.g) * entry(b + float3(1, 0, 0))
                + (f.g - f.b) * entry(b + float3(1, 1, 0)) + f.b * last;
        } else if (f.r > f.b) {
            y = (1 - f.r) * first + (f.r - f.b) * entry(b + float3(1, 0, 0))
                + (f.b - f.g) * entry(b + float3(1, 0, 1)) + f.g * last;
        } else {
            y = (1 - f.b) * first + (f.b - f.r) * entry(b + float3(0, 0, 1))
                + (f.r - f.g) * entry(b + float3(1, 0, 1)) + f.g * last;
        }
    } else {
        if (f.b > f.g) {
            y = (1 - f.b) * first + (f.b - f.g) * entry(b + float3(0, 0, 1))
                + (f.g - f.r) * entry(b + float3(0, 1, 1)) + f.r * last;
        } else if (f.b > f.r) {
            y = (1 - f.g) * first + (f.g - f.b) * entry(b + float3(0, 1, 0))
                + (f.b - f.r) * entry(b + float3(0, 1, 1)) + f.r * last;
        } else {
            y = (1 - f.g) * first + (f.g - f.r) * entry(b + float3(0, 1, 0))
                + (f.r - f.b) * entry(b + float3(1, 1, 0)) + f.b * last;
        }
    }
    if (linearLight > 0.5) {
        y = fromLinearSrgb(srgb_decode(y));
    }
    return half4(mix(c, y, amount), color.a);
}
"""

_GRADE = """
uniform float exposure;
uniform float3 lift;
uniform float3 gain;
uniform float3 gammaInverse;
uniform float saturation;

half4 main(half4 color) {
    float3 c = lift + (gain - lift) * (color.rgb * exposure);
    c = mix(c, pow(max(c, 0), gammaInverse), step(0, c));
    float3 light = toLinearSrgb(c);
    float luma = dot(light, float3(0.2126, 0.7152, 0.0722));
    return half4(fromLinearSrgb(luma + saturation * (light - luma)), color.a);
}
"""

# The smallest gamma a grade takes: a gamma of 0 or below has no inverse.
MIN_GAMMA = 0.01
# Exposure is taken within this many stops either way: 2^64 is past any light, and a larger
# power overflows a float.
MAX_STOPS = 64.0

_effects: dict = {}
_tables: dict = {}  # id(lut) -> (lut, its image): the lut held so its id is never reused
_TABLES_KEPT = 8


def _effect(source: str) -> skia.RuntimeEffect:
    effect = _effects.get(source)
    if effect is None:
        effect = _effects[source] = skia.RuntimeEffect.MakeForColorFilter(source)
    return effect


def _uniforms(*values) -> skia.Data:
    flat = np.concatenate([np.atleast_1d(np.asarray(value, np.float32)) for value in values])
    return skia.Data.MakeWithCopy(flat.tobytes())


def lut_filter(lut: CubeLut, amount: float, linear_light: bool) -> skia.ColorFilter:
    """A colour filter looking every pixel up in `lut`, mixed with the pixel at `amount`
    (0..1); with `linear_light`, the lookup is on the sRGB encoding of the pixel's light."""
    image, low, span = _table_image(lut)
    size = lut.size
    domain_min = np.array(lut.domain_min, np.float32)
    scale = 1.0 / (np.array(lut.domain_max, np.float32) - domain_min)
    uniforms = _uniforms(size, domain_min, scale, (low, span), float(linear_light), amount)
    children = skia.VectorRuntimeEffectChildPtr([skia.RuntimeEffectChildPtr(
        image.makeRawShader(skia.TileMode.kClamp, skia.TileMode.kClamp,
                            skia.SamplingOptions()))])
    # The span only points at `children`, which must outlive this call.
    return _effect(_LUT).makeColorFilter(uniforms, skia.SpanRuntimeEffectChildPtr(children))


def _table_image(lut: CubeLut) -> tuple[skia.Image, float, float]:
    """(the table as an 8-bit image, its lowest value, its range): entry (r, g, b) at pixel
    (r + n*b, g) holds the high byte of its 16 bits, at (r + n*b, g + n) the low byte."""
    kept = _tables.get(id(lut))
    if kept is not None and kept[0] is lut:
        return kept[1]
    n = lut.size
    low, high = float(lut.table.min()), float(lut.table.max())
    span = max(high - low, 1e-6)
    codes = np.rint((lut.table - low) / span * 65535.0).astype(np.uint32)
    # [blue][green][red] -> rows of green, columns of red + n * blue
    codes = codes.transpose(1, 0, 2, 3).reshape(n, n * n, 3)
    pixels = np.full((2 * n, n * n, 4), 255, np.uint8)
    pixels[:n, :, :3] = codes >> 8
    pixels[n:, :, :3] = codes & 255
    image = skia.Image.fromarray(pixels, colorType=skia.kRGBA_8888_ColorType,
                                 alphaType=skia.kOpaque_AlphaType, copy=True)
    if len(_tables) >= _TABLES_KEPT:
        _tables.pop(next(iter(_tables)))
    _tables[id(lut)] = (lut, (image, low, span))
    return image, low, span


def grade_filter(params: dict) -> skia.ColorFilter | None:
    """The grade of `params` (exposure in stops, lift, gamma and gain per channel, saturation
    in percent) as a colour filter; None when it leaves every value as it is."""
    exposure = min(MAX_STOPS, max(-MAX_STOPS, float(params["exposure"])))
    lift = [float(v) for v in params["lift"]]
    gamma = [max(MIN_GAMMA, float(v)) for v in params["gamma"]]
    gain = [float(v) for v in params["gain"]]
    saturation = float(params["saturation"]) / 100.0
    if exposure == 0 and lift == [0.0] * 3 and gamma == [1.0] * 3 and gain == [1.0] * 3 \
            and saturation == 1.0:
        return None
    uniforms = _uniforms(math.pow(2.0, exposure), lift, gain, [1.0 / g for g in gamma],
                         saturation)
    return _effect(_GRADE).makeColorFilter(uniforms)
