"""What each layer type knows how to do: make its drawing for a time, the content in its content
box ready to draw with any opacity and blend mode. A drawing has

    draw(canvas, paint_args)   paint_args {"opacity", "blend"}
    bounds()                   how far the content reaches, a skia.Rect in layer coordinates
                               (for the bounds of an offscreen layer), or None for "unknown"
    single_paint               whether it draws with a single paint, so opacity and blend mode
                               can ride on that paint instead of an offscreen layer

One table, so adding a layer type is one entry and the compositing never branches on types.
`reusable` says whether a drawing made once serves every frame while nothing of the layer's
content is animated (solids, shapes, text: their geometry, layout and paints are built once
per render plan); footage, precomps and Lottie read their source as they draw, so a file
replaced on disk shows in the next frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import skia

from workers.compositor import footage_layers, lottie_layers, precomp, shapes, text
from workers.compositor.context import RenderContext


@dataclass(frozen=True)
class LayerKind:
    # drawing(ctx, comp, layer, time) -> the layer's drawing at `time`
    drawing: Callable
    reusable: bool


@dataclass
class SourceDrawing:
    """A layer that reads its source (footage, a comp, an animation) when drawn."""
    draw_with: Callable  # (canvas, paint_args)
    bounds_of: Callable  # () -> skia.Rect | None
    single_paint: bool

    def draw(self, canvas: skia.Canvas, paint_args: dict) -> None:
        self.draw_with(canvas, paint_args)

    def bounds(self) -> skia.Rect | None:
        return self.bounds_of()


def _footage(ctx: RenderContext, comp: dict, layer: dict, time: float) -> SourceDrawing:
    return SourceDrawing(
        lambda canvas, args: footage_layers.draw_footage(canvas, ctx, layer, time, args),
        lambda: footage_layers.footage_box(ctx, layer, time), single_paint=True)


def _precomp(ctx: RenderContext, comp: dict, layer: dict, time: float) -> SourceDrawing:
    return SourceDrawing(
        lambda canvas, args: precomp.draw_precomp(canvas, ctx, layer, time, args),
        lambda: precomp.precomp_box(ctx, layer), single_paint=False)


def _lottie(ctx: RenderContext, comp: dict, layer: dict, time: float) -> SourceDrawing:
    return SourceDrawing(
        lambda canvas, args: lottie_layers.draw_lottie(canvas, ctx, layer, time, args),
        lambda: lottie_layers.lottie_box(ctx, layer),
        single_paint=True)  # one image per frame


KINDS: dict[str, LayerKind] = {
    "solid": LayerKind(
        drawing=lambda ctx, comp, layer, time: shapes.SolidDrawing(comp, layer, time),
        reusable=True),
    "shape": LayerKind(
        drawing=lambda ctx, comp, layer, time: shapes.ShapeDrawing(layer, time),
        reusable=True),
    # Lines of text never overlap at the usual line heights, so one paint per glyph run is
    # as good as one for the whole layer.
    "text": LayerKind(
        drawing=lambda ctx, comp, layer, time: text.TextDrawing(layer, time),
        reusable=True),
    "image": LayerKind(drawing=_footage, reusable=False),
    "precomp": LayerKind(drawing=_precomp, reusable=False),
    "lottie": LayerKind(drawing=_lottie, reusable=False),
}
KINDS["video"] = KINDS["image"]  # what is drawn depends on the footage's kind
