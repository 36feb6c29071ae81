"""What each layer type knows how to do: draw its content in its content box, say how far
that content reaches (for the bounds of an offscreen layer), and whether it draws with a single
paint (so opacity and blend mode can ride on that paint instead of an offscreen layer).

One table, so adding a layer type is one entry and the compositing in comp.py never branches on
types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import skia

from workers.compositor import footage_layers, lottie_layers, precomp, shapes, text
from workers.compositor.context import RenderContext


@dataclass(frozen=True)
class LayerKind:
    # draw(canvas, ctx, comp, layer, time, paint_args) with paint_args {"opacity", "blend"}
    draw: Callable
    # bounds(ctx, comp, layer, time) -> skia.Rect in layer coordinates, or None for "unknown"
    bounds: Callable
    # single_paint(layer, time) -> bool
    single_paint: Callable


def _solid_bounds(ctx: RenderContext, comp: dict, layer: dict, time: float) -> skia.Rect:
    return skia.Rect.MakeWH(*shapes.solid_size(comp, layer, time))


def _shape_bounds(ctx: RenderContext, comp: dict, layer: dict, time: float) -> skia.Rect:
    outset = shapes.shape_outset(layer, time)
    return skia.Rect.MakeWH(*shapes.shape_size(layer, time)).makeOutset(outset, outset)


def _text_bounds(ctx: RenderContext, comp: dict, layer: dict, time: float) -> skia.Rect | None:
    box = text.text_box(layer, time)
    # Anti-aliasing reaches a pixel past the glyphs' outlines.
    return None if box is None else box.makeOutset(2, 2)


def _text_single_paint(layer: dict, time: float) -> bool:
    # A stroke under or over the fill overlaps it: faded, the two need one offscreen layer.
    return not text.has_stroke(layer, time)


def _always(layer: dict, time: float) -> bool:
    return True


def _never(layer: dict, time: float) -> bool:
    return False


KINDS: dict[str, LayerKind] = {
    "solid": LayerKind(
        draw=lambda canvas, ctx, comp, layer, time, args:
            shapes.draw_solid(canvas, comp, layer, time, args),
        bounds=_solid_bounds, single_paint=_always),
    "shape": LayerKind(
        draw=lambda canvas, ctx, comp, layer, time, args:
            shapes.draw_shape(canvas, comp, layer, time, args),
        bounds=_shape_bounds, single_paint=shapes.shape_single_paint),
    # Lines of text never overlap at the usual line heights, so one paint per glyph run is
    # as good as one for the whole layer.
    "text": LayerKind(
        draw=lambda canvas, ctx, comp, layer, time, args:
            text.draw_text(canvas, comp, layer, time, args),
        bounds=_text_bounds, single_paint=_text_single_paint),
    "image": LayerKind(
        draw=lambda canvas, ctx, comp, layer, time, args:
            footage_layers.draw_footage(canvas, ctx, layer, time, args),
        bounds=lambda ctx, comp, layer, time: footage_layers.footage_box(ctx, layer, time),
        single_paint=_always),
    "precomp": LayerKind(
        draw=lambda canvas, ctx, comp, layer, time, args:
            precomp.draw_precomp(canvas, ctx, layer, time, args),
        bounds=lambda ctx, comp, layer, time: precomp.precomp_box(ctx, layer),
        single_paint=_never),
}
KINDS["video"] = KINDS["image"]  # what is drawn depends on the footage's kind
KINDS["lottie"] = LayerKind(
    draw=lambda canvas, ctx, comp, layer, time, args:
        lottie_layers.draw_lottie(canvas, ctx, layer, time, args),
    bounds=lambda ctx, comp, layer, time: lottie_layers.lottie_box(ctx, layer),
    single_paint=_always)  # one image per frame
