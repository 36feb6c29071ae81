"""A shape's stroke trim and dashes as one Skia path effect (docs/document.md, "Strokes").

Trim keeps the part of the outline from `trimStart` to `trimEnd` percent of its length (either
way round), turned along the outline by `trimOffset` degrees (360 = once around, wrapping past
the end as After Effects' Trim Paths does). Dashes then run along what the trim kept, from its
start, shifted by `dashOffset` px. Both act on the stroke only; the fill keeps the whole shape.
"""

from __future__ import annotations

import skia

from protocol.model.keyframes import value_at
from protocol.model.limits import MAX_DASHES


def is_plain(content: dict, time: float) -> bool:
    """Whether the stroke is neither trimmed nor dashed (the usual case, drawn with Skia's own
    primitives, no outline to measure)."""
    start, end = _trim_range(content, time)
    return end - start >= 1.0 and not _pattern(content, time)


def stroke_effect(content: dict, time: float,
                  outline: skia.Path) -> tuple[skia.PathEffect | None, float]:
    """The trim and dash effect of the shape's stroke along `outline` at `time`, and the alpha
    to draw it with: 1, or, for dashes finer than MAX_DASHES along what the trim keeps, the
    pattern's share of "on" with no dashing (what such dashes look like, at a fraction of the
    cost)."""
    trim = _trim(content, time)
    pattern = _pattern(content, time)
    dashes, alpha = None, 1.0
    if pattern:
        start, end = _trim_range(content, time)
        period = sum(pattern)
        if _length(outline) * (end - start) / period > MAX_DASHES:
            alpha = sum(pattern[0::2]) / period
        else:
            phase = float(value_at(content.get("dashOffset", 0), time) or 0)
            dashes = skia.DashPathEffect.Make(pattern, phase % period)
    if trim is None or dashes is None:
        return trim or dashes, alpha
    return skia.PathEffect.MakeCompose(dashes, trim), alpha  # the trim first, then dashes


def draws_nothing(content: dict, time: float) -> bool:
    """Whether the trim leaves nothing of the stroke (start and end at the same place)."""
    start, end = _trim_range(content, time)
    return end - start <= 0.0


def _trim_range(content: dict, time: float) -> tuple[float, float]:
    start = _fraction(value_at(content.get("trimStart", 0), time))
    end = _fraction(value_at(content.get("trimEnd", 100), time))
    return min(start, end), max(start, end)


def _fraction(percent) -> float:
    return min(1.0, max(0.0, float(percent or 0) / 100.0))


def _trim(content: dict, time: float) -> skia.PathEffect | None:
    start, end = _trim_range(content, time)
    if end - start >= 1.0:
        return None  # the whole outline, wherever the offset turns it
    turn = float(value_at(content.get("trimOffset", 0), time) or 0) / 360.0
    length = end - start
    start = (start + turn) % 1.0
    end = start + length
    if end <= 1.0:
        return skia.TrimPathEffect.Make(start, end)
    # Past the outline's end it wraps to its beginning: keep [0, end - 1] and [start, 1].
    return skia.TrimPathEffect.Make(end - 1.0, start, skia.TrimPathEffect.Mode.kInverted)


def _pattern(content: dict, time: float) -> list[float]:
    pattern = [float(v) for v in value_at(content.get("dashes") or [], time) or []]
    if not pattern or sum(pattern) <= 0:
        return []
    return pattern * 2 if len(pattern) % 2 else pattern  # as SVG: an odd list repeats


def _length(outline: skia.Path) -> float:
    measure, length = skia.PathMeasure(outline, False), 0.0
    while True:
        length += measure.getLength()
        if not measure.nextContour():
            return length
