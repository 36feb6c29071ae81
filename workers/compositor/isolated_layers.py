"""A layer that cannot go straight onto the canvas (it has effects or masks, or an opacity or
blend mode its drawing cannot carry in one paint) is drawn isolated: its content and masks
alone, then onto the canvas through its effects, opacity and blend mode.

Skia does that with a saveLayer whose paint holds the effect chain; a layer whose chain blurs
wide, or that has no effects and masks feathered wide, is drawn in float instead
(float_effects.py), so the ramps can be dithered. (A feathered mask under an effect chain is
left to the chain: a wide blur after it averages its rounding away, a narrow one leaves the
feather's ramp as Skia draws it.)
"""

from __future__ import annotations

import skia

from workers.compositor import float_effects
from workers.compositor.blending import NORMAL, layer_paint
from workers.compositor.effects import LayerEffects
from workers.compositor.masks import apply_masks, draw_coverage, feather_sigmas


def draw_isolated(canvas: skia.Canvas, drawing, effects: LayerEffects | None, masks: list,
                  opacity: float, blend: skia.BlendMode, time: float,
                  kept_as: tuple | None = None) -> None:
    """`kept_as`: (the layer's token, what else its pixels depend on) when its drawing and masks
    are the same at every time, so a float chain's result can be kept across frames
    (kept_chains.py)."""
    bounds = drawing.bounds()

    def draw_unmasked(target: skia.Canvas) -> None:
        drawing.draw(target, {"opacity": 1.0, "blend": NORMAL})

    def draw_content(target: skia.Canvas) -> None:
        draw_unmasked(target)
        if masks:  # before the effects, which apply to the masked content
            apply_masks(target, bounds, masks, time)

    # The widest blur the layer's pixels go through: its chain's, or with no chain its masks'
    # feathers. Only a blur is measured against the canvas's scale, once per frame.
    if effects is not None:
        widest = effects.widest_blur()
    else:
        widest = max(feather_sigmas(masks, time), default=0.0)
    if widest > 0 and widest * float_effects.axis_scale(canvas.getTotalMatrix()) \
            >= float_effects.FLOAT_BLUR_FROM:
        if effects is None:
            float_effects.draw_cut_in_float(
                canvas, bounds, opacity, blend, draw_unmasked,
                lambda target: draw_coverage(target, bounds, masks, time))
            return
        if float_effects.draw_in_float(canvas, effects, bounds, opacity, blend, draw_content,
                                       kept_as):
            return
    paint = layer_paint(opacity, blend)
    if effects is not None:
        effects.apply_to(paint)
    canvas.saveLayer(bounds, paint)
    draw_content(canvas)
    canvas.restore()
