"""The compositor as it drew before render plans: walking the document's layers for every frame,
from the bottom (the last) to the top (the first), each through its matrix, effects, opacity,
blend mode and track matte, every value looked up and every drawing made at that time.

Kept as the reference a render plan is held to (tests/compositor/test_render_plan.py): a plan
computes less, and must draw the very same bytes.
"""

from __future__ import annotations

import skia

from protocol.model.transforms import is_visible, layer_matrix, layer_opacity
from workers.compositor.blending import NORMAL, blend_mode, draw_matted
from workers.compositor.context import RenderContext
from workers.compositor.effects import layer_effects
from workers.compositor.footage import FootageCache
from workers.compositor.frame import RenderedFrame, render_drawn
from workers.compositor.layer_kinds import KINDS
from workers.compositor.isolated_layers import draw_isolated
from workers.compositor.masks import active_masks


def walked_frame(document: dict, comp_id: str, time: float, *,
                 footage: FootageCache | None = None, scale: float = 1.0,
                 transparent: bool = False) -> RenderedFrame:
    """render_frame's frame, drawn by walking the document."""
    ctx = RenderContext.for_document(document, footage or FootageCache(), draw_layers)
    comp = ctx.find_comp(comp_id)

    def draw(canvas, pixels, at: float, scale: float, background: skia.Color4f,
             kept: bool) -> list:
        canvas.resetMatrix()
        canvas.clear(background)
        canvas.save()
        if scale != 1.0:
            canvas.scale(scale, scale)
        draw_layers(canvas, ctx, comp, at)
        canvas.restore()
        return ctx.missing

    return render_drawn(draw, comp, time, scale=scale, transparent=transparent)


def matte_is_visible(layer: dict, time: float) -> bool:
    return is_visible({**layer, "enabled": True}, time)


def draw_layers(canvas: skia.Canvas, ctx: RenderContext, comp: dict, time: float) -> None:
    layers = comp.get("layers", [])
    matte_sources = {index - 1 for index, layer in enumerate(layers)
                     if index > 0 and layer.get("trackMatte")}
    for index in range(len(layers) - 1, -1, -1):
        if index in matte_sources:
            continue  # a matte is not drawn itself
        layer = layers[index]
        if not is_visible(layer, time):
            continue
        matte = layer.get("trackMatte")
        if matte and index > 0:
            matte_layer = layers[index - 1]
            draw_matted(
                canvas, matte, blend_mode(layer.get("blendMode")),
                lambda: draw_layer(canvas, ctx, comp, layer, time, blend=NORMAL),
                lambda: matte_is_visible(matte_layer, time) and
                draw_layer(canvas, ctx, comp, matte_layer, time, blend=NORMAL))
        else:
            draw_layer(canvas, ctx, comp, layer, time)


def draw_layer(canvas: skia.Canvas, ctx: RenderContext, comp: dict, layer: dict, time: float,
               *, blend: skia.BlendMode | None = None) -> None:
    kind = KINDS.get(layer.get("type"))
    if kind is None:
        return  # a null, or a type this renderer does not know: nothing to draw
    opacity = layer_opacity(layer, time)
    if opacity <= 0.0:
        return
    if blend is None:
        blend = blend_mode(layer.get("blendMode"))
    effects = layer_effects(layer, time)
    masks = active_masks(layer)
    row0, row1, row2 = layer_matrix(comp, layer, time)
    drawing = kind.drawing(ctx, comp, layer, time)
    canvas.save()
    canvas.concat(skia.Matrix.MakeAll(*row0, *row1, *row2))
    if effects is None and not masks and (
            (opacity == 1.0 and blend == NORMAL) or drawing.single_paint):
        drawing.draw(canvas, {"opacity": opacity, "blend": blend})
    else:
        draw_isolated(canvas, drawing, effects, masks, opacity, blend, time)
    canvas.restore()
