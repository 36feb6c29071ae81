"""Text animators, After Effects' model: an animator offsets some properties of every unit of a
text (character, word or line) by an amount from 0 to 1 that its range selector gives that unit.

An animator as stored in a text layer's `animators` list (docs/document.md, "Text animators"):

    {"id": "anim7", "unit": "character",
     "properties": {"opacity": 0, "position": [0, 40]},
     "range": {"start": 0, "end": 100, "offset": 0, "shape": "square", "smoothness": 100,
               "ease": "linear"}}

Every property and every number of the range is a property that animates (keys as anywhere
else); `unit`, `shape` and `ease` are structure. Pure: the tables, and the amount each unit gets.
"""

from __future__ import annotations

import math
from typing import Any

from protocol.model.keyframes import eased
from protocol.model.numbers import written_index

UNITS = ("character", "word", "line")
SHAPES = ("square", "rampUp", "rampDown", "triangle", "round", "smooth")
# What an animator may change: name -> value kind. At full amount a unit gets the value as
# given (opacity and scale in percent; position, tracking and blur in px; rotation in degrees).
PROPERTIES: dict[str, str] = {
    "opacity": "number",
    "position": "vec2",
    "scale": "number",
    "rotation": "number",
    "fill": "color",
    "tracking": "number",
    "blur": "nonNegative",
}
# The range selector's numbers, in percent of the units, and their defaults.
RANGE_NUMBERS: dict[str, str] = {"start": "number", "end": "number", "offset": "number",
                                 "smoothness": "nonNegative"}
RANGE_DEFAULTS: dict[str, Any] = {"start": 0, "end": 100, "offset": 0, "shape": "square",
                                  "smoothness": 100, "ease": "linear"}


def new_animator(animator_id: str, unit: str, properties: dict, range_: dict) -> dict:
    return {"id": animator_id, "unit": unit, "properties": dict(properties),
            "range": {**RANGE_DEFAULTS, **range_}}


def find_animator(animators: list, ref: str) -> dict | None:
    """An animator by id, or by 1-based index."""
    for animator in animators:
        if animator["id"] == ref:
            return animator
    index = written_index(ref)
    if index is not None and 1 <= index <= len(animators):
        return animators[index - 1]
    return None


def property_of(animator: dict, parts: list[str]) -> tuple[dict, str, str] | None:
    """(container, key, value kind) for `range.NAME` or `properties.NAME` (or plain NAME) of
    an animator, or None."""
    if len(parts) == 2 and parts[0] == "range" and parts[1] in RANGE_NUMBERS:
        return animator["range"], parts[1], RANGE_NUMBERS[parts[1]]
    name = parts[1] if len(parts) == 2 and parts[0] == "properties" else \
        (parts[0] if len(parts) == 1 else None)
    if name in animator["properties"]:
        return animator["properties"], name, PROPERTIES[name]
    return None


def paths_of(animator: dict) -> list[str]:
    base = f"animators.{animator['id']}"
    return ([f"{base}.range.{key}" for key in RANGE_NUMBERS]
            + [f"{base}.properties.{key}" for key in animator["properties"]])


def amounts(count: int, start: float, end: float, offset: float, shape: str,
            smoothness: float, ease: Any) -> list[float]:
    """The amount (0..1, or past it where an ease overshoots) each of `count` units gets.

    Unit i spans [i/count, (i+1)/count] of the text; the range is [start, end] + offset, in
    percent. `square` gives a unit the share of its span inside the range, with edges as soft
    as `smoothness` (100: the share itself; 0: all or nothing by the unit's middle). The other
    shapes are evaluated at a unit's middle: `rampUp` rises from 0 at the start to 1 at the end
    (1 past it), `rampDown` the reverse, `triangle`, `round` and `smooth` rise and fall inside
    the range (0 outside), all through `ease`."""
    if count <= 0:
        return []
    low, high = sorted(((start + offset) / 100.0, (end + offset) / 100.0))
    result = []
    for index in range(count):
        middle = (index + 0.5) / count
        if shape == "square":
            width = min(max(smoothness, 0.0), 100.0) / 100.0 / count
            if width <= 0:
                result.append(1.0 if low <= middle < high else 0.0)
            else:
                inside = min(high, middle + width / 2) - max(low, middle - width / 2)
                result.append(min(max(inside / width, 0.0), 1.0))
            continue
        span = high - low
        if shape in ("rampUp", "rampDown"):
            if span <= 0:
                t = 1.0 if middle >= high else 0.0
            else:
                t = min(max((middle - low) / span, 0.0), 1.0)
            result.append(_ease(ease, t if shape == "rampUp" else 1.0 - t))
            continue
        if span <= 0 or not low <= middle <= high:
            result.append(0.0)
            continue
        t = (middle - low) / span
        if shape == "triangle":
            value = 1.0 - abs(2.0 * t - 1.0)
        elif shape == "round":
            value = math.sqrt(max(0.0, 1.0 - (2.0 * t - 1.0) ** 2))
        else:  # smooth
            value = (1.0 - math.cos(2.0 * math.pi * t)) / 2.0
        result.append(_ease(ease, value))
    return result


def _ease(ease: Any, value: float) -> float:
    fraction = eased(ease, value)
    return value if fraction is None else fraction
