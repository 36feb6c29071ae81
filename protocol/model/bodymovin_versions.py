"""Lottie files written by old Bodymovin versions, brought up to the format ThorVG reads, the way
lottie-web (the reference player) reads them.

Bodymovin changed its format several times; lottie-web still plays the old files by upgrading
them as it loads them, and so must rendervisor, or an old file is drawn wrong without a word
(colours of 0..255 read as 0..1 saturate to white). By the version the file states (`v`):

- before 4.1.9, fill and stroke colours were 0..255: divided by 255;
- before 4.4.14, a text layer's document was one value, not keyframes: wrapped in one key;
- before 4.4.18, whether a path is closed was said by the shape (`closed`) or the mask (`cl`),
  not by the path: copied into each path value;
- before 5.7.15, a text path's first margin, last margin and reverse (`a`, `p`, `r`) were
  plain numbers: made static properties;
- in every version, keyframes of the old style (each key with its end value `e`, the last key
  only a time) get the start value `s` of the next key from the key before, as newer files
  write them; ThorVG reads only the new style.

Pure: the animation (a dict, as json.loads gave it) in, an upgraded copy out; no I/O.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Callable

from protocol.model.lottie_trees import dicts, layers, nodes, shapes


def version(animation: dict) -> tuple[int, int, int] | None:
    """The Bodymovin version the file states, as three numbers; None if it states none."""
    text = animation.get("v")
    if not isinstance(text, str):
        return None
    parts = []
    for piece in text.split(".")[:3]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts + [0] * (3 - len(parts)))  # type: ignore[return-value]


def upgraded(animation: dict) -> dict:
    """A copy of `animation` in the format of the current Bodymovin."""
    animation = json.loads(json.dumps(animation))
    stated = version(animation)
    for floor, upgrade in _UPGRADES:
        if stated is not None and stated < floor:
            for layer in layers(animation):
                upgrade(layer)
    for node in nodes(animation):
        _new_style_keys(node)
    return animation


def _colours_to_unit(layer: dict) -> None:
    if layer.get("ty") != 4:
        return
    for shape in shapes(layer.get("shapes")):
        if shape.get("ty") not in ("fl", "st") or not isinstance(shape.get("c"), dict):
            continue
        value = shape["c"].get("k")
        if _keyframed(value):
            for key in dicts(value):
                for end in ("s", "e"):
                    if isinstance(key.get(end), list):
                        key[end] = _over_255(key[end])
        elif isinstance(value, list):
            shape["c"]["k"] = _over_255(value)


def _text_document_keyframed(layer: dict) -> None:
    text = layer.get("t")
    if layer.get("ty") == 5 and isinstance(text, dict) and "d" in text:
        text["d"] = {"k": [{"s": text["d"], "t": 0}]}


def _closed_in_paths(layer: dict) -> None:
    for mask in dicts(layer.get("masksProperties")):
        if isinstance(mask.get("pt"), dict):
            _set_closed(mask["pt"].get("k"), mask.get("cl"))
    if layer.get("ty") == 4:
        for shape in shapes(layer.get("shapes")):
            if shape.get("ty") == "sh" and isinstance(shape.get("ks"), dict):
                _set_closed(shape["ks"].get("k"), shape.get("closed"))


def _text_path_properties(layer: dict) -> None:
    text = layer.get("t")
    path = text.get("p") if layer.get("ty") == 5 and isinstance(text, dict) else None
    if isinstance(path, dict):
        for name in ("a", "p", "r"):
            if isinstance(path.get(name), (int, float)):
                path[name] = {"a": 0, "k": path[name]}


# (the first version that no longer needs it, the upgrade of one layer), in lottie-web's order.
_UPGRADES: tuple[tuple[tuple[int, int, int], Callable[[dict], None]], ...] = (
    ((4, 1, 9), _colours_to_unit),
    ((4, 4, 14), _text_document_keyframed),
    ((5, 7, 15), _text_path_properties),
    ((4, 4, 18), _closed_in_paths),
)


def _new_style_keys(node: Any) -> None:
    """Old-style keyframes (`s` and `e` on each key) given each key's start value: a key with
    no `s` starts where the key before it ended."""
    if not isinstance(node, dict) or not _keyframed(node.get("k")):
        return
    keys = node["k"]
    for before, key in zip(keys, keys[1:]):
        if isinstance(before, dict) and isinstance(key, dict) and "s" not in key \
                and "e" in before:
            key["s"] = copy.deepcopy(before["e"])


def _set_closed(value: Any, closed: Any) -> None:
    if closed is None:
        return
    if isinstance(value, dict):
        value["c"] = bool(closed)
    elif _keyframed(value):
        for key in dicts(value):
            for end in ("s", "e"):
                if isinstance(key.get(end), list) and key[end] and isinstance(key[end][0], dict):
                    key[end][0]["c"] = bool(closed)


def _over_255(channels: list) -> list:
    return [v / 255 if isinstance(v, (int, float)) and i < 4 else v
            for i, v in enumerate(channels)]


def _keyframed(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and isinstance(value[0], dict) \
        and "t" in value[0]
