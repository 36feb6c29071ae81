"""Mask commands: add, set, remove, list.

What a mask holds is protocol/model/masks.py's tables; a rect or ellipse mask is stored as the bezier
path of its outline, so every mask's path animates and morphs the same way. mask.add and
mask.set share `_apply`, so a value one accepts the other accepts.
"""

from __future__ import annotations

import copy

from protocol.model.bezier import PATH_KEYS
from protocol.model.document import DocumentError, allocate_id, check_property, numbered_name
from protocol.model.keyframes import static_value
from protocol.model.layers import content_box
from protocol.model.masks import MASK_MODES, MASK_PROPERTIES, MASK_SHAPES, new_mask, shape_path
from protocol.model.property_paths import find_mask
from protocol.model.expressions import prune_expressions
from supervisor.engine.commands.lookup import find_comp, find_layer
from supervisor.engine.commands.registry import (COMP_REF, LAYER_REF, PATH_FORMAT, VEC2, command,
                                                 described)
from supervisor.errors import CommandError

MASK_REF = {"type": ["string", "integer"],
            "description": "a mask's id, name, or 1-based index on its layer"}
SHAPE_PARAMS = {
    "shape": {"type": "string", "enum": list(MASK_SHAPES),
              "description": "rect and ellipse are made from size and position; path from "
                             "points and tangents"},
    "size": described(VEC2, "rect, ellipse: [w, h] (default the layer's content box)"),
    "position": described(VEC2, "rect, ellipse: its center in the layer's coordinates "
                                "(default the content box's center)"),
    "points": {"type": "array", "description": "path: a list of [x, y] in the layer's "
               "coordinates (its content box, (0, 0) the top-left; the mask is always "
               "closed); to animate the outline, prop.addKey masks.ID.path with "
               f"{PATH_FORMAT}"},
    "inTangents": {"type": "array", "description": "path: one [dx, dy] per point, relative"},
    "outTangents": {"type": "array", "description": "path: one [dx, dy] per point, relative"},
}
SETTING_PARAMS = {
    "mode": {"type": "string", "enum": list(MASK_MODES),
             "description": "how it combines with the masks above it"},
    "feather": {"type": "number", "description": "width of the soft edge in px (0)"},
    "opacity": {"type": "number", "description": "percent (100)"},
    "expansion": {"type": "number", "description": "px to grow the outline by (negative: "
                  "shrink) (0)"},
    "inverted": {"type": "boolean", "description": "use the outside of the outline"},
    "name": {"type": "string"},
}


def _layer(engine, params) -> tuple[dict, dict]:
    comp = find_comp(engine.doc, params["comp"])
    return comp, find_layer(comp, params["layer"])


def _mask(layer: dict, ref) -> dict:
    try:
        return find_mask(layer, ref)
    except ValueError as error:
        raise CommandError(f"{error}.") from None


@command("mask.add", "Add a mask",
         "Add a mask to any layer: a rect or ellipse (size, position) or a path (points, "
         "inTangents, outTangents), in the layer's own coordinates, with a mode (add, subtract, "
         "intersect, difference, none), feather, opacity, expansion and inverted. Masks combine "
         "in order, top to bottom, before the layer's effects. Returns {mask} (its id).",
         {"comp": COMP_REF, "layer": LAYER_REF, **SHAPE_PARAMS, **SETTING_PARAMS},
         required=("comp", "layer", "shape", "mode"))
def mask_add(engine, params, ctx):
    doc = engine.doc
    comp, layer = _layer(engine, params)
    layer.setdefault("masks", [])
    name = params.get("name") or numbered_name("Mask", {m["name"] for m in layer["masks"]})
    mask = new_mask(allocate_id(doc, "mask"), name, "add",
                    _outline(doc, layer, params, current=None))
    layer["masks"].append(mask)
    _apply(mask, params)
    return {"mask": mask["id"], "name": mask["name"], "index": len(layer["masks"])}


@command("mask.set", "Change a mask",
         "Change a mask's outline (shape with size and position, or points and tangents), "
         "mode, feather, opacity, expansion, inverted or name. A property set here is static "
         "(an animated one loses its keys; animate with prop.addKey on masks.ID.feather ...).",
         {"comp": COMP_REF, "layer": LAYER_REF, "mask": MASK_REF, **SHAPE_PARAMS,
          **SETTING_PARAMS},
         required=("comp", "layer", "mask"))
def mask_set(engine, params, ctx):
    comp, layer = _layer(engine, params)
    mask = _mask(layer, params["mask"])
    if any(key in params for key in SHAPE_PARAMS):
        mask["path"] = _outline(engine.doc, layer, params, current=static_value(mask["path"]))
    _apply(mask, params)
    return copy.deepcopy(mask)


@command("mask.remove", "Remove a mask", "Remove a mask from its layer.",
         {"comp": COMP_REF, "layer": LAYER_REF, "mask": MASK_REF},
         required=("comp", "layer", "mask"))
def mask_remove(engine, params, ctx):
    comp, layer = _layer(engine, params)
    mask = _mask(layer, params["mask"])
    layer["masks"].remove(mask)
    prune_expressions(layer)  # an expression on one of its properties goes with it
    return {"removed": mask["id"], "name": mask["name"], "masks": len(layer["masks"])}


@command("mask.list", "List masks",
         "A layer's masks from the top (applied first) down, in their stored form: mode, "
         "inverted, and the path, feather, opacity and expansion properties (animated ones "
         "with their keys).",
         {"comp": COMP_REF, "layer": LAYER_REF}, required=("comp", "layer"), kind="read")
def mask_list(engine, params, ctx):
    comp, layer = _layer(engine, params)
    return {"layer": layer["id"], "masks": [{"index": index, **copy.deepcopy(mask)}
                                            for index, mask in enumerate(layer.get("masks", []),
                                                                         start=1)]}


def _outline(doc: dict, layer: dict, params: dict, current: dict | None) -> dict:
    """The mask's path from the shape params: a rect's or ellipse's outline, or the points and
    tangents given (over the current path's where left out)."""
    shape = params.get("shape", "path" if current is not None else None)
    path_keys = [key for key in ("points", "inTangents", "outTangents") if key in params]
    box_keys = [key for key in ("size", "position") if key in params]
    if shape == "path":
        if box_keys:
            raise CommandError(f"a path mask is made from points and tangents, not "
                               f"{' or '.join(box_keys)}; give shape rect or ellipse for those.")
        if "points" not in params and (current is None or "shape" in params):
            raise CommandError("a path mask needs 'points' (a list of [x, y] in the layer's "
                               "coordinates), and inTangents and outTangents for curves.")
        value = {key: params[key] for key in path_keys}
        if "points" not in params:
            value = {**{key: current[key] for key in PATH_KEYS if key != "closed"}, **value}
        return _checked("bezierPath", value, "path")
    if path_keys:
        raise CommandError(f"a {shape} mask is made from size and position, not "
                           f"{' or '.join(path_keys)}; give shape path for points.")
    size = _checked_vec2("size", params.get("size"))
    box = content_box(doc, layer)
    if size is None and (box[0] <= 0 or box[1] <= 0):
        raise CommandError(f"layer {layer['name']!r} has no content box to fit a mask to; give "
                           "the mask a size [w, h].")
    return shape_path(shape, box, size, _checked_vec2("position", params.get("position")))


def _checked_vec2(name: str, value):
    return None if value is None else _checked("size" if name == "size" else "vec2", value, name)


def _checked(kind: str, value, name: str):
    try:
        return check_property(kind, value, name, animatable=False)
    except DocumentError as error:
        raise CommandError(f"{error}.") from None


def _apply(mask: dict, params: dict) -> None:
    """The mode, inverted, name and property params, each checked as a load checks them."""
    for key in ("mode", "inverted", "name"):
        if key in params:
            mask[key] = params[key]
    if mask["name"] == "":
        raise CommandError("a mask's name cannot be empty.")
    for key, (kind, _) in MASK_PROPERTIES.items():
        if key in params and key != "path":
            mask[key] = _checked(kind, params[key], key)
