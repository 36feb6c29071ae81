"""Laying out a text layer: paragraphs shaped (text_shaping.py), broken into lines at a
paragraph box's width, aligned, justified, shrunk to fit, and placed in layer coordinates.

Coordinates (docs/document.md, "Text"): without a box, (0, 0) is the alignment point:
horizontally the left edge, center or right edge of every line per `align`, vertically the
top, middle or bottom of the block of lines per `verticalAlign`. With a box [w, h], the box
spans (0, 0) to (w, h) and lines wrap at w. Each line's box is `lineHeight` x size tall, with
the primary face's ascent-to-descent extent centered in it, so fallback glyphs never move
lines apart.

A layout is a pure function of the request (every value it depends on, at one time) and the
font files, and is cached by the request: laying out costs far more than drawing, so a text
that does not change is laid out once per worker.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import skia

from protocol.model.keyframes import value_at
from workers.compositor.fonts import closest, instance_weight, primary_faces, typeface_of
from workers.compositor.text_shaping import (FontUse, grapheme_of, line_break_points,
                                             shape_paragraph)

DEFAULT_SIZE = 72.0
DEFAULT_LINE_HEIGHT = 1.2
# Layouts kept: an animated size or text makes one per frame, so this is bounded.
MAX_CACHED_LAYOUTS = 512
# fit: shrink halves the gap between a size that fits and one that does not this many times:
# within size / 4096 of the largest that fits, and never more than 12 layouts per request.
FIT_STEPS = 12
MIN_FIT_SIZE = 1.0


@dataclass(frozen=True)
class Request:
    text: str
    family: str | None
    font_file: str | None
    weight: float
    italic: bool
    size: float
    tracking: float
    line_height: float
    align: str
    direction: str
    box: tuple | None
    vertical_align: str
    fit: str


@dataclass(frozen=True)
class Glyph:
    font: int  # index into TextLayout.fonts
    gid: int
    x: float  # origin, layer coordinates
    y: float  # baseline
    advance: float
    grapheme: int  # in reading order over the whole text, newlines not counted
    word: int  # -1 for white space
    line: int
    space: bool


@dataclass(frozen=True)
class Line:
    x: float  # left edge
    baseline: float
    top: float
    width: float
    glyphs: tuple  # (first, end) indices into TextLayout.glyphs
    # How much of a change of the line's width moves its left edge back: 0 for a line aligned
    # left, 0.5 centered, 1 right (animated tracking keeps the line aligned).
    anchor: float


@dataclass(frozen=True)
class TextLayout:
    fonts: tuple  # FontUse per font index
    skia_fonts: tuple  # skia.Font per font index, at the laid-out size
    glyphs: tuple
    lines: tuple
    size: float  # after fit
    graphemes: int
    words: int
    bounds: skia.Rect  # every glyph's ink and every line box, layer coordinates
    blob: skia.TextBlob | None  # every glyph at rest, one run per font
    missing: tuple  # graphemes no bundled face has


_layouts: OrderedDict = OrderedDict()


def request_at(content: dict, time: float) -> Request:
    def at(key, default):
        value = value_at(content.get(key, default), time)
        return default if value is None else value
    box = value_at(content.get("box"), time)
    weight = float(at("weight", 400))
    if at("bold", False):
        weight = max(weight, 700.0)
    return Request(
        text=str(at("text", "")), family=content.get("font"), font_file=content.get("fontFile"),
        weight=weight, italic=bool(at("italic", False)), size=float(at("size", DEFAULT_SIZE)),
        tracking=float(at("tracking", 0)), line_height=float(at("lineHeight",
                                                                DEFAULT_LINE_HEIGHT)),
        align=at("align", "center"), direction=at("direction", "auto"),
        box=tuple(float(v) for v in box) if box else None,
        vertical_align=at("verticalAlign", "middle"), fit=at("fit", "none"))


def lay_out(content: dict, time: float = 0.0) -> TextLayout:
    return layout_for(request_at(content, time))


def layout_for(request: Request) -> TextLayout:
    layout = _layouts.get(request)
    if layout is None:
        layout = _lay_out(request)
        _layouts[request] = layout
        if len(_layouts) > MAX_CACHED_LAYOUTS:
            _layouts.popitem(last=False)
    else:
        _layouts.move_to_end(request)
    return layout


def _skia_font(use: FontUse, size: float) -> skia.Font:
    font = skia.Font(typeface_of(use.face, use.weight), size)
    # Unhinted, subpixel-positioned glyphs: text that moves slowly must not jitter by a pixel.
    font.setHinting(skia.FontHinting.kNone)
    font.setSubpixel(True)
    font.setLinearMetrics(True)
    font.setEdging(skia.Font.Edging.kAntiAlias)
    return font


def shaped_paragraphs(request: Request) -> list:
    faces = primary_faces(request.family, request.font_file)
    return [shape_paragraph(text, faces, request.weight, request.italic, request.direction)
            for text in request.text.split("\n")]


def _lay_out(request: Request) -> TextLayout:
    paragraphs = shaped_paragraphs(request)
    size = request.size
    if request.fit == "shrink" and request.box is not None and \
            not _fits(paragraphs, request, size):
        low, high = MIN_FIT_SIZE, size
        for _ in range(FIT_STEPS):
            middle = (low + high) / 2.0
            if _fits(paragraphs, request, middle):
                low = middle
            else:
                high = middle
        size = low
    return _place(paragraphs, request, size)


# -- line breaking -----------------------------------------------------------------------------


@dataclass
class _Measure:
    """One paragraph's graphemes at a size: widths with tracking after each, as prefix sums."""
    prefix: list  # prefix[g] = width of graphemes before g, each plus tracking
    spaces: tuple
    tracking: float

    def visible(self, start: int, end: int) -> float:
        """The width of graphemes [start, end) less trailing white space."""
        while end > start and self.spaces[end - 1]:
            end -= 1
        return self.prefix[end] - self.prefix[start] - self.tracking if end > start else 0.0


def _measure(paragraph, size: float, tracking: float) -> _Measure:
    count = len(paragraph.graphemes) - 1
    advances = [0.0] * count
    for run in paragraph.runs:
        for glyph in run.glyphs:
            advances[grapheme_of(paragraph, glyph.cluster)] += glyph.advance * size
    prefix = [0.0]
    for advance in advances:
        prefix.append(prefix[-1] + advance + tracking)
    return _Measure(prefix, paragraph.spaces, tracking)


def _break(paragraph, measure: _Measure, width: float | None) -> tuple[list, bool]:
    """Grapheme ranges of the paragraph's lines, and whether a word had to be split because it
    alone is wider than `width`."""
    count = len(paragraph.graphemes) - 1
    if width is None or count == 0:
        return [(0, count)], False
    by_point = {point: g for g, point in enumerate(paragraph.graphemes)}
    breaks = sorted({by_point[p] for p in line_break_points(paragraph.text) if p in by_point}
                    | {count})
    lines, split = [], False
    start = end = 0
    for point in breaks:
        if end > start and measure.visible(start, point) > width:
            lines.append((start, end))
            start = end
        while measure.visible(start, point) > width and point - start > 1:
            cut = start + 1  # at least one grapheme per line, however narrow the box
            while cut + 1 < point and measure.visible(start, cut + 1) <= width:
                cut += 1
            lines.append((start, cut))
            start = cut
            split = True
        end = point
    lines.append((start, end))
    return lines, split


def _fits(paragraphs: list, request: Request, size: float) -> bool:
    width, height = request.box
    lines = 0
    for paragraph in paragraphs:
        measure = _measure(paragraph, size, request.tracking)
        ranges, split = _break(paragraph, measure, width)
        if split or any(measure.visible(a, b) > width for a, b in ranges):
            return False
        lines += len(ranges)
    return lines * request.line_height * size <= height


def box_overflow(content: dict, time: float = 0.0) -> str | None:
    """How a text runs out of its paragraph box at `time`, as a clause for a sentence, or None
    when it fits (or has no box). A `fit: shrink` text overflows only once shrinking to
    MIN_FIT_SIZE is not enough."""
    request = request_at(content, time)
    if request.box is None:
        return None
    width, height = request.box
    size = layout_for(request).size
    lines = 0
    for paragraph in shaped_paragraphs(request):
        measure = _measure(paragraph, size, request.tracking)
        ranges, split = _break(paragraph, measure, width)
        if split:
            return (f"a word is wider than its box ({width:g} px), so it is broken in the "
                    "middle")
        lines += len(ranges)
    needed = lines * request.line_height * size
    if needed > height + 0.5:
        return (f"its {lines} lines need {needed:.0f} px but its box is {height:g} px tall, so "
                "the text runs out of it")
    return None


# -- placing -----------------------------------------------------------------------------------


def _visual_pieces(paragraph, start_point: int, end_point: int) -> list:
    """The runs' glyphs within [start_point, end_point), in visual order (UAX #9, L2)."""
    pieces = []
    for run in paragraph.runs:
        if run.end <= start_point or run.start >= end_point:
            continue
        glyphs = [g for g in run.glyphs if start_point <= g.cluster < end_point]
        if glyphs:
            pieces.append((run.level, glyphs))
    if not pieces:
        return []
    highest = max(level for level, _ in pieces)
    lowest_odd = min((level for level, _ in pieces if level % 2), default=highest + 1)
    for level in range(highest, lowest_odd - 1, -1):
        index = 0
        while index < len(pieces):
            if pieces[index][0] >= level:
                end = index
                while end < len(pieces) and pieces[end][0] >= level:
                    end += 1
                pieces[index:end] = pieces[index:end][::-1]
                index = end
            else:
                index += 1
    return [glyph for _, glyphs in pieces for glyph in glyphs]


def _place(paragraphs: list, request: Request, size: float) -> TextLayout:
    fonts: dict = {}
    placed_lines = []  # (glyph records, width, last line of its paragraph, paragraph level)
    grapheme_base = 0
    word = -1
    missing = []
    for paragraph in paragraphs:
        missing.extend(paragraph.missing)
        measure = _measure(paragraph, size, request.tracking)
        width = request.box[0] if request.box else None
        ranges, _ = _break(paragraph, measure, width)
        words = []  # word index of each grapheme
        previous_space = True
        for space in paragraph.spaces:
            if not space and previous_space:
                word += 1
            words.append(-1 if space else word)
            previous_space = space
        for number, (start, end) in enumerate(ranges):
            while end > start and paragraph.spaces[end - 1]:
                end -= 1
            glyphs = _visual_pieces(paragraph, paragraph.graphemes[start],
                                    paragraph.graphemes[end])
            records = []
            for glyph in glyphs:
                g = grapheme_of(paragraph, glyph.cluster)
                font = fonts.setdefault(glyph.font, len(fonts))
                records.append([font, glyph, grapheme_base + g, words[g], paragraph.spaces[g]])
            placed_lines.append((records, number == len(ranges) - 1, paragraph.base_level))
        grapheme_base += len(paragraph.graphemes) - 1
    font_uses = tuple(sorted(fonts, key=fonts.get))
    skia_fonts = tuple(_skia_font(use, size) for use in font_uses)
    return _position(request, size, font_uses, skia_fonts, placed_lines, grapheme_base,
                     word + 1, tuple(missing))


def _line_x(records: list, size: float, tracking: float, extra_space: float,
            extra_gap: float) -> tuple[list, float]:
    """x of each glyph from the line's left edge, and the line's width."""
    xs, x = [], 0.0
    for index, (font, glyph, g, word, space) in enumerate(records):
        xs.append(x + glyph.dx * size)
        x += glyph.advance * size
        following = records[index + 1] if index + 1 < len(records) else None
        if following is not None and following[2] != g:
            x += tracking + extra_gap + (extra_space if space else 0.0)
    return xs, x


def _position(request: Request, size: float, font_uses: tuple, skia_fonts: tuple,
              placed_lines: list, graphemes: int, words: int, missing: tuple) -> TextLayout:
    primary = closest(primary_faces(request.family, request.font_file), request.weight,
                      request.italic)
    metrics = _skia_font(FontUse(primary, instance_weight(primary, request.weight)),
                         size).getMetrics()
    ascent, descent = -metrics.fAscent, metrics.fDescent
    step = request.line_height * size
    block = step * len(placed_lines)
    box_w, box_h = request.box if request.box else (None, None)
    if box_h is not None:
        top = {"top": 0.0, "bottom": box_h - block}.get(request.vertical_align,
                                                          (box_h - block) / 2.0)
    else:
        top = {"top": 0.0, "bottom": -block}.get(request.vertical_align, -block / 2.0)
    natural = [_line_x(records, size, request.tracking, 0.0, 0.0)[1]
               for records, _, _ in placed_lines]
    justify_width = box_w if box_w is not None else max(natural, default=0.0)
    glyphs, lines = [], []
    bounds = skia.Rect.MakeEmpty()
    for number, (records, last, level) in enumerate(placed_lines):
        width = natural[number]
        extra_space = extra_gap = 0.0
        align = request.align
        if align == "justify":
            align = "right" if level % 2 else "left"
            if not last and width < justify_width and records:
                spaces = sum(1 for i, r in enumerate(records[:-1])
                             if r[4] and records[i + 1][2] != r[2])
                gaps = sum(1 for i in range(len(records) - 1)
                           if records[i + 1][2] != records[i][2])
                if spaces:
                    extra_space = (justify_width - width) / spaces
                elif gaps:
                    extra_gap = (justify_width - width) / gaps
        xs, width = _line_x(records, size, request.tracking, extra_space, extra_gap)
        if box_w is not None:
            left = {"left": 0.0, "right": box_w - width}.get(align, (box_w - width) / 2.0)
        elif request.align == "justify":
            left = {"left": -justify_width / 2.0,
                    "right": justify_width / 2.0 - width}[align]
        else:
            left = {"left": 0.0, "right": -width}.get(align, -width / 2.0)
        line_top = top + number * step
        baseline = line_top + (step - (ascent + descent)) / 2.0 + ascent
        first = len(glyphs)
        for (font, glyph, g, word, space), x in zip(records, xs):
            glyphs.append(Glyph(font, glyph.gid, left + x, baseline - glyph.dy * size,
                                glyph.advance * size, g, word, number, space))
        anchor = {"left": 0.0, "right": 1.0}.get(align, 0.5) if request.box is not None or \
            request.align != "justify" else 0.5
        lines.append(Line(left, baseline, line_top, width, (first, len(glyphs)), anchor))
        bounds.join(skia.Rect.MakeXYWH(left, line_top, width, step))
    blob = glyph_blob(skia_fonts, glyphs)
    if blob is not None:
        bounds.join(blob.bounds())
    if request.box is not None:
        bounds.join(skia.Rect.MakeWH(*request.box))
    return TextLayout(font_uses, skia_fonts, tuple(glyphs), tuple(lines), size, graphemes,
                      words, bounds, blob, missing)


def glyph_blob(skia_fonts: tuple, glyphs) -> skia.TextBlob | None:
    """One blob for the glyphs, a run per stretch of one font."""
    builder = skia.TextBlobBuilder()
    run: list = []
    for glyph in glyphs:
        if run and run[0].font != glyph.font:
            _add_run(builder, skia_fonts, run)
            run = []
        run.append(glyph)
    if run:
        _add_run(builder, skia_fonts, run)
    return builder.make()


def _add_run(builder: skia.TextBlobBuilder, skia_fonts: tuple, run: list) -> None:
    builder.allocRunPos(skia_fonts[run[0].font], [g.gid for g in run],
                        [skia.Point(g.x, g.y) for g in run])
