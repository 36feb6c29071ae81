"""Text animators at one time: each glyph of a layout moved, scaled, turned, faded, recolored,
spaced and blurred by the amounts its unit gets from every animator's range selector
(protocol/model/text_animators.py), then grouped into one blob per paint.

Animators apply in order. Offsets add (position, rotation, tracking, blur); opacity and scale
multiply, each reaching the animator's value at full amount (0 % opacity: gone); fill mixes
toward the animator's color. A glyph scales and turns about the middle of its advance, at
0.35 em above the baseline (about the middle of a lowercase letter). Tracking moves every
later glyph of the line and keeps the line on its alignment point.

What one frame draws depends only on the layout and the animators' values at that time, and
is cached by them: an animator whose values do not change costs nothing after its first frame.
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict

import skia

from protocol.model.keyframes import value_at
from protocol.model.text_animators import RANGE_DEFAULTS, amounts

# Frames' groupings kept: one per distinct set of animator values, so an animated selector
# makes one per frame; bounded like the layouts.
MAX_CACHED_DRAWS = 256
PIVOT_HEIGHT = 0.35  # em above the baseline
# Alphas closer than this share a paint (and a draw call); below what 8 bits can show.
ALPHA_STEP = 1.0 / 1024

_draws: OrderedDict = OrderedDict()


def animated_draws(layout, animators: list, color: list, time: float,
                   with_fill: bool = True) -> list:
    """[(blob, color, blur)] for the glyphs of `layout` under `animators` at `time`; `color` is
    the pass's own (fill or stroke); `with_fill` applies fill animators (not to strokes)."""
    values = [_values_at(animator, time) for animator in animators]
    key = (id(layout), json.dumps([values, color, with_fill]))
    cached = _draws.get(key)
    if cached is not None and cached[0] is layout:
        _draws.move_to_end(key)
        return cached[1]
    draws = _group(layout, values, color, with_fill)
    _draws[key] = (layout, draws)  # the layout is kept so that its id is not reused
    if len(_draws) > MAX_CACHED_DRAWS:
        _draws.popitem(last=False)
    return draws


def _values_at(animator: dict, time: float) -> dict:
    selector = {**RANGE_DEFAULTS, **animator.get("range", {})}
    return {"unit": animator.get("unit", "character"),
            "properties": {k: value_at(v, time) for k, v in animator.get("properties",
                                                                         {}).items()},
            "range": {k: value_at(v, time) for k, v in selector.items()
                      if k not in ("shape", "ease")},
            "shape": selector["shape"], "ease": selector["ease"]}


def _unit_of(glyph, unit: str) -> int:
    return {"character": glyph.grapheme, "word": glyph.word, "line": glyph.line}[unit]


def _group(layout, values: list, color: list, with_fill: bool) -> list:
    count = len(layout.glyphs)
    opacity = [1.0] * count
    dx = [0.0] * count
    dy = [0.0] * count
    scale = [1.0] * count
    rotation = [0.0] * count
    colors = [list(color)] * count
    blur = [0.0] * count
    tracking: dict[int, float] = {}  # grapheme -> extra px after it
    counts = {"character": layout.graphemes, "word": layout.words, "line": len(layout.lines)}
    for animator in values:
        unit = animator["unit"]
        selector = animator["range"]
        per_unit = amounts(counts[unit], selector["start"], selector["end"],
                           selector["offset"], animator["shape"], selector["smoothness"],
                           animator["ease"])
        properties = animator["properties"]
        tracked: set = set()  # graphemes this animator has spaced (once, whatever their glyphs)
        for index, glyph in enumerate(layout.glyphs):
            number = _unit_of(glyph, unit)
            amount = per_unit[number] if 0 <= number < len(per_unit) else 0.0
            if amount == 0.0:
                continue
            if "opacity" in properties:
                opacity[index] *= min(max((100 + (properties["opacity"] - 100) * amount)
                                          / 100.0, 0.0), 1.0)
            if "position" in properties:
                dx[index] += properties["position"][0] * amount
                dy[index] += properties["position"][1] * amount
            if "scale" in properties:
                scale[index] *= (100 + (properties["scale"] - 100) * amount) / 100.0
            if "rotation" in properties:
                rotation[index] += properties["rotation"] * amount
            if "fill" in properties and with_fill:
                mix = min(max(amount, 0.0), 1.0)
                colors[index] = [a + (b - a) * mix for a, b in zip(colors[index],
                                                                   properties["fill"])]
            if "blur" in properties:
                blur[index] += properties["blur"] * amount
            if "tracking" in properties and glyph.grapheme not in tracked:
                tracked.add(glyph.grapheme)
                tracking[glyph.grapheme] = tracking.get(glyph.grapheme, 0.0) + \
                    properties["tracking"] * amount
    shifts = _tracking_shifts(layout, tracking) if tracking else [0.0] * count
    groups: dict = {}
    for index, glyph in enumerate(layout.glyphs):
        alpha = colors[index][3] * opacity[index]
        if alpha <= 0.0 or scale[index] == 0.0 or glyph.space:
            continue
        paint_color = (*[round(c, 4) for c in colors[index][:3]],
                       round(alpha / ALPHA_STEP) * ALPHA_STEP)
        groups.setdefault((paint_color, round(max(blur[index], 0.0), 2)), []).append(
            (index, _xform(layout, glyph, dx[index] + shifts[index], dy[index], scale[index],
                           rotation[index])))
    return [(_blob(layout, members), list(paint_color), blur_px)
            for (paint_color, blur_px), members in groups.items()]


def _tracking_shifts(layout, tracking: dict) -> list:
    """Each glyph's move to the right from the animated tracking of the graphemes before it on
    its line, less the line's own realignment."""
    shifts = [0.0] * len(layout.glyphs)
    for line in layout.lines:
        first, end = line.glyphs
        shift, previous = 0.0, None
        for index in range(first, end):
            grapheme = layout.glyphs[index].grapheme
            if previous is not None and grapheme != previous:
                shift += tracking.get(previous, 0.0)
            shifts[index] = shift
            previous = grapheme
        back = shift * line.anchor
        for index in range(first, end):
            shifts[index] -= back
    return shifts


def _xform(layout, glyph, dx: float, dy: float, scale: float,
           rotation: float) -> skia.RSXform:
    pivot_x, pivot_y = glyph.advance / 2.0, -PIVOT_HEIGHT * layout.size
    radians = math.radians(rotation)
    scos, ssin = scale * math.cos(radians), scale * math.sin(radians)
    return skia.RSXform(scos, ssin,
                        glyph.x + dx + pivot_x - (scos * pivot_x - ssin * pivot_y),
                        glyph.y + dy + pivot_y - (ssin * pivot_x + scos * pivot_y))


def _blob(layout, members: list) -> skia.TextBlob:
    builder = skia.TextBlobBuilder()
    run: list = []
    for member in members:
        if run and layout.glyphs[run[0][0]].font != layout.glyphs[member[0]].font:
            _add_run(builder, layout, run)
            run = []
        run.append(member)
    _add_run(builder, layout, run)
    return builder.make()


def _add_run(builder: skia.TextBlobBuilder, layout, run: list) -> None:
    builder.allocRunRSXform(layout.skia_fonts[layout.glyphs[run[0][0]].font],
                            [layout.glyphs[index].gid for index, _ in run],
                            [xform for _, xform in run])
