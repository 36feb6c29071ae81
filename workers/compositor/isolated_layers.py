"""A layer that cannot go straight onto the canvas (it has effects or masks, or an opacity or
blend mode its drawing cannot carry in one paint) is drawn isolated: its content and masks
alone, then onto the canvas through its effects, opacity and blend mode.

Skia does that with a saveLayer whose paint holds the effect chain; a chain that blurs wide is
drawn in float instead (float_effects.py), so its ramps can be dithered.
"""

from __future__ import annotations

import skia

from workers.compositor.blending import NORMAL, layer_paint
from workers.compositor.effects import LayerEffects
from workers.compositor.float_effects import draw_in_float, draws_in_float
from workers.compositor.masks import apply_masks


def draw_isolated(canvas: skia.Canvas, drawing, effects: LayerEffects | None, masks: list,
                  opacity: float, blend: skia.BlendMode, time: float) -> None:
    bounds = drawing.bounds()

    def draw_content(target: skia.Canvas) -> None:
        drawing.draw(target, {"opacity": 1.0, "blend": NORMAL})
        if masks:  # before the effects, which apply to the masked content
            apply_masks(target, bounds, masks, time)

    if effects is not None and draws_in_float(effects, canvas.getTotalMatrix()):
        draw_in_float(canvas, effects, bounds, opacity, blend, draw_content)
        return
    canvas.saveLayer(bounds, layer_paint(opacity, blend,
                                         None if effects is None else effects.image_filter))
    draw_content(canvas)
    canvas.restore()
