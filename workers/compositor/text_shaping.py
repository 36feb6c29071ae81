"""Shaping one paragraph: bidi levels (ICU), a face for every grapheme (fonts.py's fallback),
runs of one level, face and script, each shaped by HarfBuzz with its default features (kerning,
ligatures, contextual forms, mark positioning, Indic reordering).

The result is in em units (font units over units per em), so one shaping serves every size:
`fit: shrink` tries sizes without shaping again. Glyph clusters are code point indices into
the paragraph, merged to whole graphemes (HarfBuzz's default cluster level), so a ligature or
a conjunct belongs to the grapheme it starts.

Pure in what it returns: the same text, faces and options give the same glyphs on every
machine (ICU's data and HarfBuzz come with their wheels; the language is set, not guessed
from the locale).
"""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass

import icu
import uharfbuzz as hb

from workers.compositor.fonts import (Face, closest, coverage, emoji_face, fallback_faces,
                                      hb_face, hb_font, instance_weight)

# Characters that select or join rather than draw: a face need not map them to be chosen.
_IGNORABLE = frozenset([0x200C, 0x200D, 0x2060, 0xFEFF, *range(0xFE00, 0xFE10),
                        *range(0xE0100, 0xE01F0)])
_VS_TEXT, _VS_EMOJI, _ZWJ = 0xFE0E, 0xFE0F, 0x200D
_BASE_LEVEL = {"ltr": 0, "rtl": 1, "auto": icu.Bidi.DEFAULT_LTR}
# HarfBuzz's default language comes from the process locale; shaping must not.
LANGUAGE = "und"


@dataclass(frozen=True)
class FontUse:
    """A face drawn at a weight (a variable face's axis position, or None)."""
    face: Face
    weight: float | None

    @property
    def path(self) -> str:
        return self.face.path


@dataclass(frozen=True)
class ShapedGlyph:
    font: FontUse
    gid: int
    cluster: int  # code point index into the paragraph
    advance: float  # em
    dx: float  # em, right
    dy: float  # em, up


@dataclass(frozen=True)
class ShapedRun:
    start: int  # code point range in the paragraph, logical order
    end: int
    level: int  # bidi embedding level: odd is right to left
    glyphs: tuple  # ShapedGlyph, in visual order (left to right)


@dataclass(frozen=True)
class ShapedParagraph:
    text: str
    base_level: int
    graphemes: tuple  # code point index where each grapheme starts, then len(text)
    spaces: tuple  # per grapheme: whether it is white space
    runs: tuple  # ShapedRun, logical order
    missing: tuple  # graphemes no face has


@functools.lru_cache(maxsize=1)
def _iterators() -> tuple:
    root = icu.Locale.getRoot()
    return (icu.BreakIterator.createCharacterInstance(root),
            icu.BreakIterator.createLineInstance(root))


def utf16_starts(text: str) -> list[int]:
    """The UTF-16 offset of each code point, then the length: ICU counts in UTF-16 units."""
    starts, offset = [], 0
    for character in text:
        starts.append(offset)
        offset += 2 if ord(character) > 0xFFFF else 1
    starts.append(offset)
    return starts


def _boundaries(iterator, text: str, starts: list[int]) -> list[int]:
    """Code point indices of the iterator's boundaries in `text` (0 excluded)."""
    iterator.setText(text)
    index = {unit: point for point, unit in enumerate(starts)}
    return [index[unit] for unit in iterator if unit in index]


def grapheme_starts(text: str) -> list[int]:
    starts = utf16_starts(text)
    return [0] + _boundaries(_iterators()[0], text, starts) if text else [0]


def line_break_points(text: str) -> list[int]:
    """Where a line may end (code point indices, ascending, the last is len(text)): UAX #14
    with ICU's dictionaries, so Thai, Lao, Khmer and Burmese break between words."""
    return _boundaries(_iterators()[1], text, utf16_starts(text)) if text else []


def _levels(text: str, direction: str) -> tuple[int, list[int]]:
    """(paragraph level, the bidi level of each code point)."""
    bidi = icu.Bidi()
    bidi.setPara(icu.UnicodeString(text), _BASE_LEVEL.get(direction, icu.Bidi.DEFAULT_LTR))
    units = bidi.getLevels()
    starts = utf16_starts(text)
    return bidi.getParaLevel(), [units[starts[i]] for i in range(len(text))]


def _is_emoji(points: list[int]) -> bool:
    """Whether a grapheme asks for emoji presentation (UTS #51)."""
    if _VS_TEXT in points:
        return False
    if _VS_EMOJI in points or any(icu.Char.hasBinaryProperty(p, icu.UProperty.EMOJI_MODIFIER)
                                  for p in points):
        return True
    if _ZWJ in points and icu.Char.hasBinaryProperty(points[0],
                                                     icu.UProperty.EXTENDED_PICTOGRAPHIC):
        return True
    return icu.Char.hasBinaryProperty(points[0], icu.UProperty.EMOJI_PRESENTATION)


def _has(use: FontUse, points: list[int]) -> bool:
    mapped = coverage(use.face)
    return all(p in mapped for p in points)


def _choose(points: list[int], primary: FontUse, fallbacks: tuple) -> FontUse | None:
    """The face a grapheme is drawn from: the primary if it has every character, else the
    first fallback that does, else the first that has its base character; None if none."""
    needed = [p for p in points if p not in _IGNORABLE] or points[:1]
    candidates = (primary, *fallbacks)
    if _is_emoji(points):
        candidates = (FontUse(emoji_face(), None), *candidates)
    for use in candidates:
        if _has(use, needed):
            return use
    for use in candidates:
        if _has(use, needed[:1]):
            return use
    return None


def _script(point: int) -> str:
    return icu.Script.getScript(point).getShortName()


def _scripts(points: list[int]) -> list[str | None]:
    """Each code point's script, with Common and Inherited ones taking their neighbour's."""
    scripts = [_script(p) for p in points]
    resolved: list[str | None] = []
    current = next((s for s in scripts if s not in ("Zyyy", "Zinh", "Zzzz")), None)
    for script in scripts:
        if script not in ("Zyyy", "Zinh", "Zzzz"):
            current = script
        resolved.append(current)
    return resolved


@functools.lru_cache(maxsize=512)
def shape_paragraph(text: str, primary_faces: tuple, weight: float, italic: bool,
                    direction: str) -> ShapedParagraph:
    """`text` (one paragraph, no newline) shaped with the faces asked for and the fallback."""
    points = [ord(c) for c in text]
    starts = grapheme_starts(text)
    bounds = starts + ([len(text)] if starts[-1] != len(text) else [])
    if not text:
        level = 1 if direction == "rtl" else 0
        return ShapedParagraph(text, level, (0,), (), (), ())
    base_level, levels = _levels(text, direction)
    primary_face = closest(primary_faces, weight, italic)
    primary = FontUse(primary_face, instance_weight(primary_face, weight))
    fallbacks = tuple(FontUse(face, instance_weight(face, weight))
                      for face in fallback_faces(weight, italic))
    scripts = _scripts(points)
    spaces, uses, missing = [], [], []
    for g in range(len(bounds) - 1):
        cluster = points[bounds[g]:bounds[g + 1]]
        spaces.append(bool(icu.Char.isUWhiteSpace(cluster[0])) or cluster[0] == 9)
        use = None
        if spaces[-1]:
            # As CSS does: the primary face's space wherever it has one, so word spacing
            # does not depend on the script (or the emoji) before it.
            previous = uses[-1] if uses else primary
            use = primary if _has(primary, cluster[:1]) or not _has(previous, cluster[:1]) \
                else previous
        else:
            use = _choose(cluster, primary, fallbacks)
            if use is None:
                missing.append(text[bounds[g]:bounds[g + 1]])
                use = primary
        uses.append(use)
    runs = []
    g = 0
    while g < len(uses):
        start_g = g
        key = (levels[bounds[g]], uses[g], scripts[bounds[g]])
        while g + 1 < len(uses) and (levels[bounds[g + 1]], uses[g + 1],
                                     scripts[bounds[g + 1]]) == key:
            g += 1
        g += 1
        runs.append(_shape_run(points, bounds[start_g], bounds[g], key[0], key[1], key[2]))
    return ShapedParagraph(text, base_level, tuple(bounds), tuple(spaces), tuple(runs),
                           tuple(missing))


def _shape_run(points: list[int], start: int, end: int, level: int, use: FontUse,
               script: str | None) -> ShapedRun:
    buffer = hb.Buffer()
    # The whole paragraph goes in as context, so joining and marks see across run edges.
    buffer.add_codepoints(points, start, end - start)
    buffer.direction = "rtl" if level % 2 else "ltr"
    if script is not None:
        buffer.script = script
    buffer.language = LANGUAGE
    hb.shape(hb_font(use.face, use.weight), buffer, {})
    upem = float(hb_face(use.face).upem)
    glyphs = tuple(ShapedGlyph(use, info.codepoint, info.cluster, pos.x_advance / upem,
                               pos.x_offset / upem, pos.y_offset / upem)
                   for info, pos in zip(buffer.glyph_infos, buffer.glyph_positions))
    return ShapedRun(start, end, level, glyphs)


def grapheme_of(paragraph: ShapedParagraph, cluster: int) -> int:
    return bisect.bisect_right(paragraph.graphemes, cluster) - 1
