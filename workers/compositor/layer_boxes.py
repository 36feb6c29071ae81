"""Where a layer's content sits at rest, in its own coordinates: what presets measure a slide or
a wipe by, and what layout checks hold against the comp's edges and safe areas.

Text is measured by the ink of its glyphs where its layout puts them (text animators, which
move glyphs for a while, are left aside) and its lines' background boxes, with half its stroke
around them; a solid or shape by
its content box with half its stroke; footage, precomps and nulls by their content box
(protocol/model/layers.py). The supervisor and the workers both call this, so a preset's slide
and a layout check agree on where a layer ends; the supervisor passes text's ink as a probe
worker measured it (its font file may be a user's, never read in the supervisor).
"""

from __future__ import annotations

from typing import Callable

import skia

from protocol.model.keyframes import value_at
from protocol.model.layers import content_box
from workers.compositor.shapes import solid_size
from workers.compositor.text import background_rects
from workers.compositor.text_layout import lay_out

Rect = tuple[float, float, float, float]  # left, top, right, bottom


def content_rect(document: dict, comp: dict, layer: dict, time: float,
                 text_ink: Callable[[dict, float], Rect] | None = None) -> Rect:
    """The layer's content at comp time `time` as (left, top, right, bottom) in its own
    coordinates; an empty text is the point (0, 0). A text's ink is `text_ink(content, time)`
    where given (the supervisor measures text on a probe worker), else laid out here."""
    kind = layer.get("type")
    content = layer.get("content", {})
    if kind == "text":
        left, top, right, bottom = (text_ink or text_rect)(content, time)
        if right <= left and bottom <= top:
            return 0.0, 0.0, 0.0, 0.0  # nothing drawn (a caption between cues): no stroke
    elif kind == "solid":
        left, top, (right, bottom) = 0.0, 0.0, solid_size(comp, layer, time)
    else:
        left, top, (right, bottom) = 0.0, 0.0, content_box(document, layer)
    reach = half_stroke(content, time) if kind in ("text", "shape") else 0.0
    return left - reach, top - reach, right + reach, bottom + reach


def text_rect(content: dict, time: float) -> Rect:
    """What a text draws: its ink and its lines' background boxes; the point (0, 0) when it
    draws nothing."""
    left, top, right, bottom = ink_rect(content, time)
    if right <= left and bottom <= top:
        return 0.0, 0.0, 0.0, 0.0
    for rect in background_rects(content, lay_out(content, time), time):
        left, top = min(left, rect.left()), min(top, rect.top())
        right, bottom = max(right, rect.right()), max(bottom, rect.bottom())
    return left, top, right, bottom


def ink_rect(content: dict, time: float) -> Rect:
    """The union of the glyphs' outlines as laid out (not their line boxes, which reach far
    above and below most letters)."""
    layout = lay_out(content, time)
    union = _glyph_union(layout, layout.glyphs)
    if union.isEmpty():
        return 0.0, 0.0, 0.0, 0.0
    return union.left(), union.top(), union.right(), union.bottom()


def line_ink_rects(content: dict, time: float) -> list[Rect]:
    """Each line's ink (its glyphs' outlines, with half the stroke around them), in layer
    coordinates; lines without ink are left out."""
    layout = lay_out(content, time)
    reach = half_stroke(content, time)
    rects = []
    for line in layout.lines:
        union = _glyph_union(layout, layout.glyphs[line.glyphs[0]:line.glyphs[1]])
        if not union.isEmpty():
            rects.append((union.left() - reach, union.top() - reach, union.right() + reach,
                          union.bottom() + reach))
    return rects


def _glyph_union(layout, glyphs) -> skia.Rect:
    union = skia.Rect.MakeEmpty()
    by_font: dict[int, list] = {}
    for glyph in glyphs:
        by_font.setdefault(glyph.font, []).append(glyph)
    for font, group in by_font.items():
        outlines = layout.skia_fonts[font].getBounds([glyph.gid for glyph in group])
        for glyph, outline in zip(group, outlines):
            if not outline.isEmpty():
                union.join(outline.makeOffset(glyph.x, glyph.y))
    return union


def half_stroke(content: dict, time: float) -> float:
    if value_at(content.get("stroke"), time) is None:
        return 0.0
    return float(value_at(content.get("strokeWidth", 0), time) or 0) / 2.0
