"""Walking a Lottie animation's JSON: its layers (the main ones and those of precomp assets),
the items of a shape list, and every node, each without recursion, so a file nested deeply on
purpose cannot overflow the stack of the process that reads it.

Pure: dicts and lists in, their parts out.
"""

from __future__ import annotations

from typing import Any, Iterator


def layers(animation: dict) -> Iterator[dict]:
    """The animation's layers, then those of each precomp asset."""
    for layer in dicts(animation.get("layers")):
        yield layer
    for asset in dicts(animation.get("assets")):
        yield from dicts(asset.get("layers"))


def dicts(value: Any) -> list[dict]:
    """The objects in `value` when it is a list (a file may hold anything where one belongs)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def shapes(items: Any) -> Iterator[dict]:
    """Every shape item in a shape list, the items of its groups (`gr`) included."""
    stack = [items]
    while stack:
        group = stack.pop()
        for shape in group if isinstance(group, list) else []:
            if isinstance(shape, dict):
                yield shape
                if shape.get("ty") == "gr":
                    stack.append(shape.get("it"))


def nodes(value: Any) -> Iterator[Any]:
    """Every dict and list in `value`, `value` first."""
    stack = [value]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, dict):
            stack.extend(child for child in node.values() if isinstance(child, (dict, list)))
        elif isinstance(node, list):
            stack.extend(child for child in node if isinstance(child, (dict, list)))
