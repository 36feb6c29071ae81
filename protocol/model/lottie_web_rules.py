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
  hard-edged; lottie-web (and ThorVG given a path) blends its edges.

Pure: the animation (a dict, a copy the caller owns) in, changed in place; no I/O.
"""

from __future__ import annotations

from typing import Any

from protocol.model.lottie_trees import dicts, layers, shapes

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


def _rect_as_path(rect: dict) -> None:
    """A still, unrounded rect made a closed path, traced as lottie-web traces it (from the
    top-right corner, clockwise unless its direction `d` is 3)."""
    size, center, roundness = (_still(rect.get(key)) for key in ("s", "p", "r"))
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


def _still(prop: Any) -> Any:
    """The value of a property that does not move (not keyframed); None otherwise."""
    if not isinstance(prop, dict) or prop.get("a") == 1 or "x" in prop:
        return None
    value = prop.get("k")
    if isinstance(value, list) and value and isinstance(value[0], dict) and "t" in value[0]:
        return None
    return value


def _numbers(value: Any, count: int) -> bool:
    return isinstance(value, list) and len(value) >= count and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value[:count])
