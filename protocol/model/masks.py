"""Masks: what a layer's `masks` hold, and how a new mask's outline is made from a rect, an
ellipse or points (docs/document.md, "Masks").

A mask is a closed bezier path in the layer's own coordinates, with a mode saying how it
combines with the masks above it in the list, After Effects' way. Its path, feather, opacity
and expansion are properties (`masks.ID.feather`), animatable like any other. Pure: no I/O.
"""

from __future__ import annotations

import copy

from protocol.model.bezier import ellipse_path, rect_path

MASK_MODES = ("add", "subtract", "intersect", "difference", "none")
MASK_SHAPES = ("rect", "ellipse", "path")

# The mask's properties: name -> (value kind, default); all animatable.
MASK_PROPERTIES: dict[str, tuple[str, object]] = {
    "path": ("bezierPath", None),
    "feather": ("nonNegative", 0),
    "opacity": ("number", 100),
    "expansion": ("number", 0),
}
# Its attributes: name -> value kind; not animatable (as in After Effects).
MASK_ATTRIBUTES: dict[str, object] = {
    "name": "string",
    "mode": MASK_MODES,
    "inverted": "bool",
}


def shape_path(shape: str, box: tuple[float, float], size=None, position=None) -> dict:
    """The outline of a rect or ellipse mask: `size` (default the layer's content box) centered
    on `position` (default the box's center), in layer coordinates."""
    width, height = size if size is not None else box
    cx, cy = position if position is not None else (box[0] / 2, box[1] / 2)
    return (ellipse_path if shape == "ellipse" else rect_path)(cx, cy, width, height)


def new_mask(mask_id: str, name: str, mode: str, path: dict) -> dict:
    mask = {"id": mask_id, "name": name, "mode": mode, "inverted": False}
    mask.update({key: copy.deepcopy(default) for key, (_, default) in MASK_PROPERTIES.items()})
    mask["path"] = path
    return mask
