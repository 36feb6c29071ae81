"""A layer's masks, combined in order as After Effects combines them, applied to the layer's
own pixels before its effects (docs/document.md, "Masks").

Inside the layer's offscreen layer, after its content is drawn:

    saveLayer(blend = DstIn)                    <- the combined coverage keeps the content
        [opaque, if the first mask subtracts or intersects: it takes from a whole layer]
        for each mask, top to bottom:
            saveLayer(blend = the mode's)       <- add: SrcOver (a + c - ac), subtract:
                the mask's coverage c              DstOut (a(1 - c)), intersect: DstIn (ac),
            restore                                difference: Xor (a + c - 2ac)
    restore

Each mask is drawn in a layer of its own so its blend mode applies over the whole layer's
bounds: drawn directly, a DstIn fill would leave the pixels outside its path untouched instead
of clearing them. A mask's coverage is its closed path grown or shrunk by `expansion`, blurred
by `feather` and scaled by `opacity`; inverted, it is the opacity less the path.
"""

from __future__ import annotations

import skia

from protocol.model.keyframes import value_at
from workers.compositor.bezier_paths import skia_path

_MODE_BLENDS = {
    "add": skia.BlendMode.kSrcOver,
    "subtract": skia.BlendMode.kDstOut,
    "intersect": skia.BlendMode.kDstIn,
    "difference": skia.BlendMode.kXor,
}
# A feather of F px blurs the edge with a Gaussian of sigma F / 4, so the ramp from 2.3% to
# 97.7% coverage (two sigmas either side of the edge) is F px wide, centered on the outline.
FEATHER_SIGMAS = 4.0


def feather_sigmas(masks: list[dict], time: float) -> list[float]:
    """Each mask's feather at `time` as the sigma it blurs its edge by, in the layer's pixels."""
    return [max(0.0, float(value_at(mask.get("feather", 0), time))) / FEATHER_SIGMAS
            for mask in masks]


def active_masks(layer: dict) -> list[dict]:
    """The masks that take part (mode other than none), top to bottom."""
    return [mask for mask in layer.get("masks") or () if mask.get("mode") in _MODE_BLENDS]


def apply_masks(canvas: skia.Canvas, bounds: skia.Rect | None, masks: list[dict],
                time: float) -> None:
    """Cut the content drawn so far in the current layer down to the masks' coverage."""
    canvas.saveLayer(bounds, _blend_paint(skia.BlendMode.kDstIn))
    draw_coverage(canvas, bounds, masks, time)
    canvas.restore()


def draw_coverage(canvas: skia.Canvas, bounds: skia.Rect | None, masks: list[dict],
                  time: float) -> None:
    """The masks' combined coverage, as alpha, on a clear layer."""
    if masks[0]["mode"] in ("subtract", "intersect"):
        canvas.drawPaint(skia.Paint(Color=skia.ColorBLACK))
    for mask in masks:
        canvas.saveLayer(bounds, _blend_paint(_MODE_BLENDS[mask["mode"]]))
        _draw_coverage(canvas, mask, time)
        canvas.restore()


def _blend_paint(mode: skia.BlendMode) -> skia.Paint:
    paint = skia.Paint()
    paint.setBlendMode(mode)
    return paint


def _draw_coverage(canvas: skia.Canvas, mask: dict, time: float) -> None:
    opacity = min(1.0, max(0.0, float(value_at(mask.get("opacity", 100), time)) / 100.0))
    path = _expanded(mask_outline(mask, time), float(value_at(mask.get("expansion", 0), time)))
    paint = skia.Paint(AntiAlias=True, Color=skia.ColorBLACK)
    feather = float(value_at(mask.get("feather", 0), time))
    if feather > 0:
        paint.setMaskFilter(skia.MaskFilter.MakeBlur(skia.kNormal_BlurStyle,
                                                     feather / FEATHER_SIGMAS))
    if mask.get("inverted"):
        canvas.drawPaint(skia.Paint(Color=skia.Color4f(0, 0, 0, opacity)))
        paint.setBlendMode(skia.BlendMode.kDstOut)
    else:
        paint.setAlphaf(opacity)
    canvas.drawPath(path, paint)


def mask_outline(mask: dict, time: float) -> skia.Path:
    """The mask's path at `time`, always closed: a mask is a region."""
    path = value_at(mask.get("path"), time)
    if isinstance(path, dict):
        path = {**path, "closed": True}
    return skia_path(path)


def _expanded(path: skia.Path, expansion: float) -> skia.Path:
    """`path` grown outward by `expansion` px (or shrunk, below 0), with round corners."""
    if expansion == 0 or path.isEmpty():
        return path
    band = skia.Path()
    stroke = skia.Paint(Style=skia.Paint.kStroke_Style, StrokeWidth=2 * abs(expansion),
                        StrokeJoin=skia.Paint.kRound_Join)
    stroke.getFillPath(path, band)
    operation = skia.PathOp.kUnion_PathOp if expansion > 0 else skia.PathOp.kDifference_PathOp
    result = skia.Op(path, band, operation)
    return path if result is None else result
