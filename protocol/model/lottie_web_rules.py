"""Where ThorVG (which plays Lottie here) and lottie-web (the reference player, the one the
files' authors check their exports in) read the same Lottie JSON differently, the JSON
rewritten so that ThorVG draws what lottie-web draws.

Each rule is what lottie-web's SVG renderer does, found by comparing frames of real files
(scripts/conformance.py, docs/conformance.md):

- masks of mode lighten (`l`), darken (`d`) and difference (`f`) are painted as lottie-web
  paints them: like add (`a`), each over the masks before it; lottie-web has no other
  meaning for them;
- a layer's transform that has the 3D rotations (`rx`, `ry`, `rz`, written for 2D layers too
  by some exporters) turns by `rz`, as lottie-web reads it; ThorVG reads only `r`;
- an unrounded rectangle (`rc`) that does not move is made a path of its four corners:
  ThorVG draws a rectangle (not a path) it finds axis-aligned by whole pixels,
  without anti-aliasing, so one at a fractional position came out a pixel off and
  hard-edged; lottie-web (and ThorVG given a path) blends its edges;
- a star or polygon (`sr`) has as many points as the whole part of its count `pt`, as
  lottie-web draws it; ThorVG draws a fractional count as After Effects does, the last point
  part-grown, so a star whose count is keyed turned and changed shape between whole counts.
  A keyed count becomes a hold key at every whole frame of its keys (its value there rounded
  down); between whole frames it holds the count of the frame before;
- a repeater (`rp`) makes as many copies as its count `c` rounded up, as lottie-web does
  (ThorVG drew the whole part only), held at whole frames likewise;
- a star's roundness (`os`, `is`) makes tangents as long as lottie-web makes them, 2 pi r
  over four times the point count: ThorVG makes them After Effects' 0.47829 / 0.28 r over the
  point count, so its rounded stars bulged; the roundness ThorVG is given is scaled by the
  ratio of the two;
- a Zig Zag modifier's shapes are given as the paths it makes (protocol/model/lottie_zig_zag.py):
  ThorVG 1.0 does not draw the modifier;
- a plain Fill effect paints the layer's colours (protocol/model/lottie_fill_effect.py);
- a property given by a slot (`sid`, naming one of the animation's `slots`) takes the slot's
  value over its own, as lottie-web fills it in, and the copy has no slots left: ThorVG
  crashed (SIGSEGV) on a path given by a slot.

Pure: the animation (a dict, a copy the caller owns) in, changed in place; no I/O.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from protocol.model.lottie_fill_effect import paint_fill_effects
from protocol.model.lottie_trees import dicts, layers, nodes, shapes
from protocol.model.lottie_values import still_value, value_at
from protocol.model.lottie_zig_zag import zig_zags_as_paths

# A keyed star count is held at whole frames only over at most this many frames (a file may
# key it at any time); beyond, it is left to ThorVG.
_MAX_HELD_FRAMES = 10_000

# lottie-web's tangent length for a star's roundness over ThorVG's (see the docstring).
_STAR_ROUNDNESS_SCALE = (math.pi / 2) / (0.47829 / 0.28)

# lottie-web paints every mask white over the ones before it, but subtract (black) and
# intersect (the ones before masked by it); `n` (none) is not painted.
_PAINTED_AS_ADD = {"l", "d", "f"}


def as_lottie_web_plays(animation: dict) -> None:
    """Rewrite `animation` in place so that ThorVG draws what lottie-web draws."""
    for layer in layers(animation):
        for mask in dicts(layer.get("masksProperties")):
            if isinstance(mask.get("mode"), str) and mask["mode"] in _PAINTED_AS_ADD:
                mask["mode"] = "a"
        transform = layer.get("ks")
        if isinstance(transform, dict) and "rx" in transform and "rz" in transform:
            transform["r"] = transform["rz"]
        for shape in shapes(layer.get("shapes")):
            if shape.get("ty") == "rc":
                _rect_as_path(shape)
            if shape.get("ty") == "sr":
                _whole(shape.get("pt"), math.floor)
                if shape.get("sy") == 1:
                    _star_roundness_as_lottie_web(shape)
            if shape.get("ty") == "rp":
                _whole(shape.get("c"), math.ceil)
    zig_zags_as_paths(animation)
    paint_fill_effects(animation)
    _fill_in_slots(animation)


def _fill_in_slots(animation: dict) -> None:
    """Every property given by a slot made the slot's value (merged over its own, as
    lottie-web's slot manager does), and the slots dropped."""
    slots = animation.pop("slots", None)
    if not isinstance(slots, dict):
        return
    for node in list(nodes(animation)):
        if not isinstance(node, dict) or not isinstance(node.get("sid"), str):
            continue
        slot = slots.get(node["sid"])
        if isinstance(slot, dict) and isinstance(slot.get("p"), dict):
            del node["sid"]
            node.update(copy.deepcopy(slot["p"]))


def _star_roundness_as_lottie_web(star: dict) -> None:
    """The star's roundness scaled so that ThorVG's tangents are lottie-web's, key by key."""
    for key in ("os", "is"):
        roundness = star.get(key)
        if not isinstance(roundness, dict) or "x" in roundness:
            continue
        if still_value(roundness) is not None:
            roundness["k"] = _scaled(roundness["k"])
            continue
        for frame in dicts(roundness.get("k")):
            for end in ("s", "e"):
                if end in frame:
                    frame[end] = _scaled(frame[end])


def _scaled(value: Any) -> Any:
    """A roundness (a number or [number]) times _STAR_ROUNDNESS_SCALE; anything else as it is."""
    if isinstance(value, list):
        return [_scaled(v) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value * _STAR_ROUNDNESS_SCALE
    return value


def _whole(count: Any, rounding) -> None:
    """A count (a star's points, a repeater's copies) made whole by `rounding` (math.floor or
    math.ceil, as lottie-web rounds it), key by key: a keyed count becomes a hold key at every
    whole frame of its keys."""
    if not isinstance(count, dict) or "x" in count:
        return
    still = still_value(count)
    if still is not None:
        number = still[0] if isinstance(still, list) and still else still
        if isinstance(number, (int, float)) and not isinstance(number, bool):
            count["k"] = rounding(number)
        return
    keys = count.get("k")
    if not (isinstance(keys, list) and dicts(keys) == keys and
            all(isinstance(key.get("t"), (int, float)) for key in keys)):
        return
    first, last = math.floor(keys[0]["t"]), math.ceil(keys[-1]["t"])
    if last - first > _MAX_HELD_FRAMES:
        return
    held = []
    for frame in range(first, last + 1):
        try:
            value = value_at(count, frame)
        except (TypeError, ValueError, AttributeError, KeyError, ZeroDivisionError):
            return  # keys not as Bodymovin writes them: left to ThorVG's reading
        number = value[0] if isinstance(value, list) and value else value
        if not isinstance(number, (int, float)) or isinstance(number, bool):
            return
        # The nudge keeps a whole value computed a hair off (2.9999999) whole.
        nudged = number + 1e-9 if rounding is math.floor else number - 1e-9
        held.append({"t": frame, "s": [rounding(nudged)], "h": 1})
    count["k"] = held


def _rect_as_path(rect: dict) -> None:
    """A still, unrounded rect made a closed path, traced as lottie-web traces it (from the
    top-right corner, clockwise unless its direction `d` is 3)."""
    size, center, roundness = (still_value(rect.get(key)) for key in ("s", "p", "r"))
    if not (_numbers(size, 2) and _numbers(center, 2)) or roundness not in (0, [0], None):
        return
    (width, height), (x, y) = size[:2], center[:2]
    left, right, top, bottom = x - width / 2, x + width / 2, y - height / 2, y + height / 2
    if rect.get("d") == 3:
        corners = [[right, top], [left, top], [left, bottom], [right, bottom]]
    else:
        corners = [[right, top], [right, bottom], [left, bottom], [left, top]]
    for key in ("s", "p", "r"):
        rect.pop(key, None)
    rect["ty"] = "sh"
    rect["ks"] = {"a": 0, "k": _straight_path(corners)}


def _straight_path(corners: list) -> dict:
    return {"c": True, "v": corners, "i": [[0, 0] for _ in corners],
            "o": [[0, 0] for _ in corners]}


def _numbers(value: Any, count: int) -> bool:
    return isinstance(value, list) and len(value) >= count and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value[:count])
