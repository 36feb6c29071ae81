"""A shape's stroke trim and dashes as one Skia path effect (docs/document.md, "Strokes").

Trim keeps the part of the outline from `trimStart` to `trimEnd` percent of its length (either
way round), turned along the outline by `trimOffset` degrees (360 = once around, wrapping past
the end as After Effects' Trim Paths does). Dashes then run along what the trim kept, from its
start, shifted by `dashOffset` px. Both act on the stroke only; the fill keeps the whole shape.
"""

from __future__ import annotations

import math

import skia

from protocol.keyframes import value_at


def stroke_effect(content: dict, time: float) -> skia.PathEffect | None:
    """The trim and dash effect of the shape's stroke at `time`, or None for a plain stroke
    (the usual case, drawn with Skia's own primitives)."""
    trim = _trim(content, time)
    dashes = _dashes(content, time)
    if trim is None or dashes is None:
        return trim or dashes
    return skia.PathEffect.MakeCompose(dashes, trim)  # the trim first, then the dashes


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


def _dashes(content: dict, time: float) -> skia.PathEffect | None:
    pattern = [float(v) for v in value_at(content.get("dashes") or [], time) or []]
    if not pattern or sum(pattern) <= 0:
        return None
    if len(pattern) % 2:
        pattern = pattern * 2  # as SVG: an odd list is repeated to make on/off pairs
    phase = float(value_at(content.get("dashOffset", 0), time) or 0)
    return skia.DashPathEffect.Make(pattern, phase % sum(pattern))
