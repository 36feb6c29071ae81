"""SVG footage (kind "vector"), drawn by resvg (through the `resvg-py` binding): the file is
rasterised at the size the layer is shown (raster_size.py), so a logo enlarged 300% keeps
edges one pixel soft, never a resampled bitmap's blur, and drawn again whenever it is shown at
another size.

Why resvg: it draws SVG as browsers do (text, filters, markers, patterns through href, masks,
embedded images, CSS; docs/conformance.md has the figures against Skia's SVG module and
cairosvg), and it is one self-contained wheel.

resvg is only ever given the file made self-contained (protocol/model/svg_files.py): every
reference to another file removed, so it reads nothing but the bytes handed to it, whatever
the SVG names. Its font database is the bundled fonts (workers/compositor/fonts.py), never the
system's, so an SVG's text is set the same on every node.

Kept per worker: each file's self-contained copy, by path and modification stamp, and the
rasters last drawn, by file and size, within RASTER_BUDGET_BYTES (a logo shown at one size
costs one rasterisation for a whole render).
"""

from __future__ import annotations

import functools
import math
from collections import OrderedDict

import resvg_py
import skia

from protocol.model.limits import MAX_VECTOR_FOOTAGE_BYTES
from protocol.model.svg_files import SvgError, read_svg, self_contained
from workers.compositor.blending import NORMAL
from workers.compositor.context import RenderContext
from workers.compositor.fonts import bundled_index
from workers.compositor.footage import file_stamp
from workers.compositor.placeholders import draw_placeholder
from workers.compositor.raster_size import draw_raster, shown_size

# Self-contained documents kept per worker: a handful covers every SVG a comp shows.
MAX_KEPT_SVGS = 32
# Rasters kept per worker, in bytes of pixels: a few full-frame logos at a few sizes. The newest
# is kept even past it, since the next frame draws it again.
RASTER_BUDGET_BYTES = 256 * 1024 * 1024
# The families SVG's generic names stand for, all bundled. Noto Sans has the widest coverage of
# the bundled faces; there is no bundled monospace, cursive or fantasy face.
GENERIC_FAMILIES = {"font_family": "Noto Sans", "sans_serif_family": "Noto Sans",
                    "serif_family": "Gentium Book Plus", "monospace_family": "Noto Sans",
                    "cursive_family": "Noto Sans", "fantasy_family": "Noto Sans"}
# What a browser assumes where the SVG says nothing: 96 px to the inch (so 1mm is 3.78 px), a
# 16 px font, and English for `systemLanguage` in a <switch>.
BROWSER_DEFAULTS = {"dpi": 96.0, "font_size": 16.0, "languages": ["en"]}

_documents: OrderedDict = OrderedDict()  # path -> (stamp, self-contained SVG text)
_rasters: OrderedDict = OrderedDict()  # (path, stamp, columns, rows) -> skia.Image
_raster_bytes = [0]


def draw_svg(canvas: skia.Canvas, ctx: RenderContext, item: dict, paint_args: dict) -> None:
    """The SVG of footage `item` in its box [0, 0, width, height]."""
    path = item.get("path", "")
    width, height = float(item["width"]), float(item["height"])
    size = shown_size(canvas, width, height)
    if size is None:
        return  # shown at no size
    image = svg_raster(path, width, size)
    if image is None:
        ctx.report_missing(path)
        if ctx.placeholders:
            draw_placeholder(canvas, width, height, paint_args)
        return
    paint = skia.Paint(AntiAlias=True)
    paint.setAlphaf(paint_args["opacity"])
    if paint_args["blend"] != NORMAL:
        paint.setBlendMode(paint_args["blend"])
    canvas.save()
    canvas.clipRect(skia.Rect.MakeWH(width, height), skia.ClipOp.kIntersect, True)
    # resvg fills whole pixels: the raster holds the SVG's size rounded up, scaled.
    draw_raster(canvas, image, math.ceil(width), math.ceil(height), paint)
    canvas.restore()


def svg_raster(path: str, width: float, size: tuple[int, int]) -> skia.Image | None:
    """The SVG at `path` (`width` wide in its own units) drawn `size[0]` pixels wide; None when
    it cannot be read or drawn."""
    stamp = file_stamp(path)
    if stamp is None:
        return None
    key = (path, stamp, size)
    image = _rasters.get(key)
    if image is not None:
        _rasters.move_to_end(key)
        return image
    text = _document(path, stamp)
    if text is None:
        return None
    image = rasterise(text, size[0] / math.ceil(width))
    if image is None:
        return None
    _rasters[key] = image
    _raster_bytes[0] += image.width() * image.height() * 4
    while _raster_bytes[0] > RASTER_BUDGET_BYTES and len(_rasters) > 1:
        _, old = _rasters.popitem(last=False)
        _raster_bytes[0] -= old.width() * old.height() * 4
    return image


def rasterise(text: str, zoom: float) -> skia.Image | None:
    """A self-contained SVG drawn by resvg at `zoom` times its own size, with the bundled
    fonts; None when resvg refuses it."""
    try:
        png = resvg_py.svg_to_bytes(svg_string=text, zoom=zoom, skip_system_fonts=True,
                                    font_files=bundled_font_files(), **GENERIC_FAMILIES,
                                    **BROWSER_DEFAULTS)
    except (ValueError, OSError):
        return None
    image = skia.Image.MakeFromEncoded(png)
    return image.makeRasterImage() if image is not None else None


@functools.lru_cache(maxsize=None)
def bundled_font_files() -> list[str]:
    """Every bundled font file, for resvg's font database (it reads them only for an SVG that
    has text)."""
    return sorted({face.path for faces in bundled_index().values() for face in faces})


def _document(path: str, stamp) -> str | None:
    kept = _documents.get(path)
    if kept is not None and kept[0] == stamp:
        _documents.move_to_end(path)
        return kept[1]
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_VECTOR_FOOTAGE_BYTES + 1)
        if len(data) > MAX_VECTOR_FOOTAGE_BYTES:
            return None
        text = self_contained(read_svg(data))[0].decode("utf-8")
    except (OSError, SvgError):
        return None
    _documents[path] = (stamp, text)
    while len(_documents) > MAX_KEPT_SVGS:
        _documents.popitem(last=False)
    return text
