"""Text layers: lines laid out glyph by glyph, with tracking, alignment and line height.

Layout (docs/document.md, "Layer coordinates"): (0, 0) is the alignment point, horizontally at
the left edge, center or right edge of every line per `align`, vertically at the middle of the
block of lines. Glyphs are placed by their advances, with no shaping (no kerning or ligatures):
that keeps layout a pure function of the font's metrics, identical on every node.

Laying out costs far more than drawing, so layouts are cached by everything they depend on;
only the paint changes from frame to frame for a text that does not change.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import skia

from protocol.keyframes import value_at
from workers.compositor.fonts import typeface
from workers.compositor.paints import fill_paint

DEFAULT_SIZE = 72.0
DEFAULT_LINE_HEIGHT = 1.2
# Layouts kept: an animated size or text makes one per frame, so this is bounded.
MAX_CACHED_LAYOUTS = 512


@dataclass(frozen=True)
class TextLayout:
    runs: tuple  # (TextBlob, x, baseline y) per non-empty line
    box: skia.Rect  # every glyph's ink and every line box, in layer coordinates


_layouts: OrderedDict = OrderedDict()


def text_layout(content: dict, time: float) -> TextLayout:
    key = (
        str(value_at(content.get("text", ""), time)),
        value_at(content.get("font"), time),
        bool(value_at(content.get("bold", False), time)),
        bool(value_at(content.get("italic", False), time)),
        float(value_at(content.get("size", DEFAULT_SIZE), time)),
        float(value_at(content.get("tracking", 0), time) or 0),
        value_at(content.get("align", "center"), time) or "center",
        float(value_at(content.get("lineHeight", DEFAULT_LINE_HEIGHT), time)),
    )
    layout = _layouts.get(key)
    if layout is None:
        layout = _lay_out(*key)
        _layouts[key] = layout
        if len(_layouts) > MAX_CACHED_LAYOUTS:
            _layouts.popitem(last=False)
    else:
        _layouts.move_to_end(key)
    return layout


def _lay_out(text: str, family, bold: bool, italic: bool, size: float, tracking: float,
             align: str, line_height: float) -> TextLayout:
    font = skia.Font(typeface(family, bold, italic), size)
    # Unhinted, subpixel-positioned glyphs: text that moves slowly must not jitter by a pixel.
    font.setHinting(skia.FontHinting.kNone)
    font.setSubpixel(True)
    font.setLinearMetrics(True)
    font.setEdging(skia.Font.Edging.kAntiAlias)
    metrics = font.getMetrics()
    ascent, descent = -metrics.fAscent, metrics.fDescent
    lines = text.split("\n")
    step = line_height * size
    top = -step * len(lines) / 2.0
    box = skia.Rect.MakeEmpty()
    runs = []
    for index, line in enumerate(lines):
        line_top = top + index * step
        # The glyphs' ascent-to-descent extent sits in the middle of its line box.
        baseline = line_top + (step - (ascent + descent)) / 2.0 + ascent
        advances = font.getWidths(font.textToGlyphs(line)) if line else []
        xs, x = [], 0.0
        for advance in advances:
            xs.append(x)
            x += advance + tracking
        width = x - tracking if advances else 0.0
        left = {"left": 0.0, "right": -width}.get(align, -width / 2.0)
        box.join(skia.Rect.MakeXYWH(left, line_top, width, step))
        if not line:
            continue
        blob = skia.TextBlob.MakeFromPosTextH(line, [left + x for x in xs], 0.0, font)
        if blob is None:
            continue
        runs.append((blob, 0.0, baseline))
        box.join(blob.bounds().makeOffset(0.0, baseline))
    return TextLayout(runs=tuple(runs), box=box)


def text_box(layer: dict, time: float) -> skia.Rect:
    return text_layout(layer.get("content", {}), time).box


def draw_text(canvas: skia.Canvas, comp: dict, layer: dict, time: float,
              paint_args: dict) -> None:
    content = layer.get("content", {})
    layout = text_layout(content, time)
    paint = fill_paint(value_at(content.get("fill", [1, 1, 1, 1]), time), paint_args["opacity"])
    paint.setBlendMode(paint_args["blend"])
    for blob, x, y in layout.runs:
        canvas.drawTextBlob(blob, x, y, paint)
