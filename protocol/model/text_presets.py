"""Text animation presets: a text animator (protocol/model/text_animators.py) and the keys that play
it, from a table, so adding a preset is one entry.

Two ways to play one:
- `reveal`: the range's start sweeps from 0 to 100 % with all-or-nothing edges, so each unit
  switches on in reading order (a right-to-left text from its right), one every `stagger`;
- `sweep`: a ramp `window` units wide slides across the text by its offset, so each unit
  eases from the animator's values to its own over the window's passing, the next starting
  `stagger` later.

Sizes in a preset (slideUp's distance, blurIn's blur) are in em and scaled by the text's size.
Pure: what to store and which keys, given the text's unit count and size.
"""

from __future__ import annotations

from dataclasses import dataclass

# An ease for `sweep` is the curve a unit follows backwards in time (its amount falls from 1
# to 0 as the window passes), so easeIn here reads as easing out on screen. Overshoot for pop:
# the mirror of cubic-bezier(0.34, 1.56, 0.64, 1), which passes 100 % before settling.
_POP_EASE = {"bezier": [0.36, -0.56, 0.66, 0.0]}


@dataclass(frozen=True)
class Preset:
    description: str
    unit: str
    properties: dict  # animator values; numbers given as ("em", x) are x times the size
    play: str  # reveal or sweep
    ease: object = "linear"
    stagger: float = 0.05  # default seconds between one unit's start and the next


PRESETS: dict[str, Preset] = {
    "typewriter": Preset("characters appear one by one in reading order", "character",
                         {"opacity": 0}, "reveal", stagger=0.05),
    "wordByWord": Preset("words appear one by one in reading order", "word", {"opacity": 0},
                         "reveal", stagger=0.25),
    "fadeIn": Preset("characters fade in one after another", "character", {"opacity": 0},
                     "sweep", ease="easyEase", stagger=0.03),
    "slideUp": Preset("words rise into place as they fade in", "word",
                      {"opacity": 0, "position": [0, ("em", 0.6)]}, "sweep", ease="easeIn",
                      stagger=0.08),
    "pop": Preset("characters grow from nothing past full size and settle", "character",
                  {"scale": 0, "opacity": 0}, "sweep", ease=_POP_EASE, stagger=0.04),
    "blurIn": Preset("characters come into focus as they fade in", "character",
                     {"blur": ("em", 0.3), "opacity": 0}, "sweep", ease="easeIn",
                     stagger=0.03),
}


def preset_properties(preset: Preset, size: float) -> dict:
    def resolved(value):
        if isinstance(value, tuple) and value[0] == "em":
            return value[1] * size
        if isinstance(value, list):
            return [resolved(v) for v in value]
        return value
    return {name: resolved(value) for name, value in preset.properties.items()}


def preset_plan(preset: Preset, units: int, start: float, duration: float | None,
                stagger: float | None) -> dict:
    """{range, keys: {range property: [(time, value, interpolation)]}, end} for `units` units
    played from `start`: over `duration` seconds if given (stagger then derived), else one
    unit every `stagger` (or the preset's)."""
    units = max(units, 1)
    if preset.play == "reveal":
        if duration is None:
            duration = units * (preset.stagger if stagger is None else stagger)
        return {"range": {"start": 0, "end": 100, "offset": 0, "shape": "square",
                          "smoothness": 0},
                "keys": {"start": [(start, 0, "linear"), (start + duration, 100, "linear")]},
                "end": start + duration}
    gap = preset.stagger if stagger is None else stagger
    paced = duration is None or stagger is not None  # else the duration alone sets the pace
    if duration is None:
        duration = max(gap * units * 2.0, gap * (units - 1) + 0.5)
    # Units are 100/units % apart and start `gap` apart, so the window travels at
    # 100/(units*gap) % a second; it must cross 100 % plus its own width in `duration`.
    if paced and gap > 0 and duration > gap * units:
        speed = 100.0 / (units * gap)
        window = speed * duration - 100.0
    else:  # a duration alone, all at once (gap 0), or too short for the gaps: each unit
        # takes half the duration, their starts spread over the other half
        window = 100.0
        speed = 200.0 / duration if duration > 0 else 200.0
    end = start + (100.0 + window) / speed
    return {"range": {"start": 0, "end": window, "offset": -window, "shape": "rampUp",
                      "ease": preset.ease},
            "keys": {"offset": [(start, -window, "linear"), (end, 100, "linear")]},
            "end": end}
