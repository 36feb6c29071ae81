"""Precomp layers: another comp of the document drawn inside this one, at the layer's source
time (its own time `t - startTime` at its speed, or its timeRemap, looped if it loops;
protocol/model/time_remap.py), clipped to that comp's frame. A nested comp's background is not
drawn (it is transparent, as in After Effects); only the comp being rendered fills its
background.
"""

from __future__ import annotations

import skia

from protocol.model.time_remap import source_time
from workers.compositor.context import MAX_PRECOMP_DEPTH, RenderContext


def source_comp(ctx: RenderContext, layer: dict) -> dict | None:
    return ctx.comps.get(layer.get("content", {}).get("source"))


def precomp_box(ctx: RenderContext, layer: dict) -> skia.Rect | None:
    source = source_comp(ctx, layer)
    if source is None:
        return None
    return skia.Rect.MakeWH(float(source.get("width", 1920)), float(source.get("height", 1080)))


def draw_precomp(canvas: skia.Canvas, ctx: RenderContext, layer: dict, time: float,
                 paint_args: dict) -> None:
    source = source_comp(ctx, layer)
    if source is None or ctx.depth >= MAX_PRECOMP_DEPTH:
        return
    canvas.save()
    canvas.clipRect(precomp_box(ctx, layer), skia.ClipOp.kIntersect, True)
    ctx.depth += 1
    try:
        ctx.draw_comp(canvas, ctx, source,
                      source_time(layer, time, float(source.get("duration", 0))))
    finally:
        ctx.depth -= 1
        canvas.restore()
