"""SVG footage (kind "vector"), drawn by Skia's SVG renderer through the canvas's own matrix:
the outlines are rasterised at the scale the layer is shown, so a logo enlarged 300% keeps edges
one pixel soft, never a resampled bitmap's blur.

The SVG is parsed from its bytes with no resource provider and no font manager, so it reads no
other file (an `<image href>` outside it draws nothing) and its `<text>` draws nothing; the
import warns of the latter. Parsed documents are kept per worker, by path and modification
stamp, like decoded stills.
"""

from __future__ import annotations

import os
from collections import OrderedDict

import skia

from protocol.model.limits import MAX_VECTOR_FOOTAGE_BYTES
from workers.compositor.blending import NORMAL, layer_paint
from workers.compositor.context import RenderContext

# Parsed SVG documents kept per worker: a frame that shows a logo reuses its parse; a handful
# covers every SVG a comp shows.
MAX_KEPT_SVGS = 32
_kept: OrderedDict = OrderedDict()  # path -> (stamp, skia.SVGDOM)


def draw_svg(canvas: skia.Canvas, ctx: RenderContext, item: dict, paint_args: dict) -> None:
    """The SVG of footage `item` in its box [0, 0, width, height]."""
    dom = _document(item.get("path", ""))
    if dom is None:
        ctx.report_missing(item.get("path", ""))
        return
    width, height = float(item["width"]), float(item["height"])
    dom.setContainerSize(skia.Size(width, height))
    box = skia.Rect.MakeWH(width, height)
    if paint_args["opacity"] < 1.0 or paint_args["blend"] != NORMAL:
        # An SVG draws with many paints; faded or blended, it goes as one picture.
        canvas.saveLayer(box, layer_paint(paint_args["opacity"], paint_args["blend"]))
        dom.render(canvas)
        canvas.restore()
        return
    canvas.save()
    canvas.clipRect(box, skia.ClipOp.kIntersect, True)
    dom.render(canvas)
    canvas.restore()


def _document(path: str) -> skia.SVGDOM | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    stamp = (info.st_mtime_ns, info.st_size)
    kept = _kept.get(path)
    if kept is not None and kept[0] == stamp:
        _kept.move_to_end(path)
        return kept[1]
    dom = _parse(path)
    if dom is None:
        return None
    _kept[path] = (stamp, dom)
    while len(_kept) > MAX_KEPT_SVGS:
        _kept.popitem(last=False)
    return dom


def _parse(path: str) -> skia.SVGDOM | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_VECTOR_FOOTAGE_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_VECTOR_FOOTAGE_BYTES:
        return None
    return skia.SVGDOM.MakeFromStream(skia.MemoryStream(data))
