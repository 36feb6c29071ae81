"""Text layers: lines laid out glyph by glyph, with tracking, alignment and line height.

Layout (docs/document.md, "Layer coordinates"): (0, 0) is the alignment point, horizontally at
the left edge, center or right edge of every line per `align`, vertically at the middle of the
block of lines. Glyphs are placed by their advances, with no shaping (no kerning or ligatures):
that keeps layout a pure function of the font's metrics, identical on every node. Characters the
family lacks come from a fallback face (fonts.py), in runs of their own.

Laying out costs far more than drawing, so layouts are cached by everything they depend on;
only the paint changes from frame to frame for a text that does not change.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import skia

from protocol.model.keyframes import value_at
from workers.compositor.fonts import fallback_typeface, typeface
from workers.compositor.paints import fill_paint

DEFAULT_SIZE = 72.0
DEFAULT_LINE_HEIGHT = 1.2
# Layouts kept: an animated size or text makes one per frame, so this is bounded.
MAX_CACHED_LAYOUTS = 512


@dataclass(frozen=True)
class TextLayout:
    runs: tuple  # (TextBlob, x, baseline y) per run of one face on one line
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


def _font(face: skia.Typeface, size: float) -> skia.Font:
    font = skia.Font(face, size)
    # Unhinted, subpixel-positioned glyphs: text that moves slowly must not jitter by a pixel.
    font.setHinting(skia.FontHinting.kNone)
    font.setSubpixel(True)
    font.setLinearMetrics(True)
    font.setEdging(skia.Font.Edging.kAntiAlias)
    return font


def _face_runs(line: str, primary: skia.Typeface, bold: bool, italic: bool) -> list:
    """The line cut into (face, text) runs: the primary face wherever it has the glyph, a
    fallback face for the characters it lacks (spaces and controls stay with the primary)."""
    runs: list = []
    for character in line:
        face = primary
        if not primary.unicharToGlyph(ord(character)) and character.isprintable() \
                and not character.isspace():
            face = fallback_typeface(character, bold, italic) or primary
        if runs and runs[-1][0] is face:
            runs[-1][1] += character
        else:
            runs.append([face, character])
    return runs


def _lay_out(text: str, family, bold: bool, italic: bool, size: float, tracking: float,
             align: str, line_height: float) -> TextLayout:
    primary = typeface(family, bold, italic)
    fonts = {}  # one Font per face used
    metrics = _font(primary, size).getMetrics()
    ascent, descent = -metrics.fAscent, metrics.fDescent
    lines = text.split("\n")
    step = line_height * size
    top = -step * len(lines) / 2.0
    box = skia.Rect.MakeEmpty()
    runs = []
    for index, line in enumerate(lines):
        line_top = top + index * step
        # The primary face's ascent-to-descent extent sits in the middle of its line box.
        baseline = line_top + (step - (ascent + descent)) / 2.0 + ascent
        placed, x = [], 0.0  # (font, text, x of each character)
        for face, piece in _face_runs(line, primary, bold, italic):
            font = fonts.get(id(face)) or fonts.setdefault(id(face), _font(face, size))
            xs = []
            for advance in font.getWidths(font.textToGlyphs(piece)):
                xs.append(x)
                x += advance + tracking
            placed.append((font, piece, xs))
        width = x - tracking if line else 0.0
        left = {"left": 0.0, "right": -width}.get(align, -width / 2.0)
        box.join(skia.Rect.MakeXYWH(left, line_top, width, step))
        for font, piece, xs in placed:
            blob = skia.TextBlob.MakeFromPosTextH(piece, [left + x for x in xs], 0.0, font)
            if blob is not None:
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
