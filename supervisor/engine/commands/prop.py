"""Property commands: set, addKey, removeKey, get.

Paths are protocol/model/property_paths.py's; values are checked with protocol/model/values.py's
kinds; evaluation is protocol/model/keyframes.py's, the same function the renderers use, so
prop.get returns exactly what a render shows at that time.
"""

from __future__ import annotations

import copy

from protocol.model.document import DocumentError, check_property
from protocol.model.expressions import expression_path
from protocol.model.keyframes import check_interpolation, is_animated, value_at
from protocol.model.limits import MAX_KEYS
from protocol.model.markers import resolve_time
from protocol.model.numbers import is_number
from protocol.model.property_paths import PropertyRef, resolve
from protocol.model.values import check_value, describe
from supervisor.engine.commands.lookup import find_comp, find_layer
from supervisor.engine.commands.registry import (COLOR_FORMAT, COMP_REF, EASING, GRADIENT_FORMAT,
                                                 LAYER_REF, PATH_FORMAT, VEC2, command,
                                                 described)
from supervisor.errors import CommandError

PATH = {"type": "string", "description": "transform.anchor|position|scale|rotation|opacity, a "
        "content property by name (color, size, text, ...), or effects.FX.PARAM (FX: the "
        "effect's id, name or 1-based index)"}
TIME = {"type": ["number", "string"], "description": "comp time in seconds, or \"marker:NAME\" "
        "for the time of the layer's (else the comp's) marker of that name"}
VALUE = {"description": "the value as the property takes it: a number, [x, y], "
         f"a color ({COLOR_FORMAT}), a fill (a color or a gradient: {GRADIENT_FORMAT}), a mask "
         f"or shape path ({PATH_FORMAT}), or text"}
INTERPOLATION = EASING
SPATIAL_PARAMS = {
    "spatialIn": described(VEC2, "transform.position or anchor: the motion path's handle "
                                 "arriving at this key, [dx, dy] relative to its value"),
    "spatialOut": described(VEC2, "transform.position or anchor: the handle leaving this key "
                                  "toward the next"),
}
# Two key times closer than this are the same key: float seconds from frame arithmetic
# (n / frameRate) must land on an existing key, not beside it.
SAME_TIME = 1e-9


def _property(engine, params) -> tuple[dict, PropertyRef, float | None]:
    """The layer and property the params name, and their time in seconds (a `"marker:NAME"`
    resolved to that marker's), None when they give none."""
    comp = find_comp(engine.doc, params["comp"])
    layer = find_layer(comp, params["layer"])
    try:
        time = resolve_time(comp, layer, params["time"]) if "time" in params else None
        if time is not None and not is_number(time):
            raise ValueError(f"time must be seconds or \"marker:NAME\", got {time!r}")
        return layer, resolve(layer, params["path"]), time
    except ValueError as error:
        raise CommandError(f"{error}.") from None


def _checked(prop: PropertyRef, path: str, value):
    return _checked_as(prop.kind, path, value)


def _checked_as(kind, name: str, value):
    try:
        return check_value(kind, value)
    except ValueError as error:
        raise CommandError(f"{name}: {error}.") from None


@command("prop.set", "Set a property",
         "Set a property to a static value (an animated property loses its keys), or to a whole "
         'animation {"keys": [{time, value, interpolation?}, ...]}.',
         {"comp": COMP_REF, "layer": LAYER_REF, "path": PATH, "value": VALUE},
         required=("comp", "layer", "path", "value"))
def prop_set(engine, params, work):
    layer, prop, _ = _property(engine, params)
    try:
        prop.container[prop.key] = check_property(prop.kind, params["value"], params["path"],
                                                  prop.animatable, spatial=prop.spatial)
    except DocumentError as error:
        raise CommandError(f"{error}.") from None
    return {"path": params["path"], "value": copy.deepcopy(prop.value),
            "animated": is_animated(prop.value)}


@command("prop.addKey", "Add a keyframe",
         "Add a key (or replace the one at that time) to a property, animating it if it was "
         "static. Key times are comp times in seconds. On transform.position and anchor, "
         "spatialIn and spatialOut bend the motion path into a curve through the key.",
         {"comp": COMP_REF, "layer": LAYER_REF, "path": PATH, "time": TIME, "value": VALUE,
          "interpolation": INTERPOLATION, **SPATIAL_PARAMS},
         required=("comp", "layer", "path", "time", "value"))
def prop_add_key(engine, params, work):
    layer, prop, time = _property(engine, params)
    path = params["path"]
    if not prop.animatable:
        raise CommandError(f"{path} cannot be animated ({describe(prop.kind)}); set it with "
                           "prop.set.")
    value = _checked(prop, path, params["value"])
    try:
        interpolation = check_interpolation(params.get("interpolation", "linear"))
    except ValueError as error:
        raise CommandError(f"interpolation: {error}.") from None
    key = {"time": time, "value": value, "interpolation": interpolation}
    for name in SPATIAL_PARAMS:
        if name in params:
            if not prop.spatial:
                raise CommandError(f"{name} bends a motion path, so it is for "
                                   f"transform.position and transform.anchor, not {path}.")
            key[name] = _checked_as("vec2", name, params[name])
    keys = prop.value["keys"] if is_animated(prop.value) else []
    same = [i for i, k in enumerate(keys) if abs(k["time"] - key["time"]) <= SAME_TIME]
    if same:
        if "interpolation" not in params:
            key["interpolation"] = keys[same[0]].get("interpolation", "linear")
        for name in SPATIAL_PARAMS:
            if name not in params and name in keys[same[0]]:
                key[name] = keys[same[0]][name]
        key["time"] = keys[same[0]]["time"]
        keys[same[0]] = key
    elif len(keys) >= MAX_KEYS:
        raise CommandError(f"{path} already has {len(keys):,} keys, the limit of {MAX_KEYS:,} "
                           "for one property; remove some with prop.removeKey, or replace one "
                           "by adding a key at its time.")
    else:
        keys.append(key)
        keys.sort(key=lambda k: k["time"])
    prop.container[prop.key] = {"keys": keys}
    return {"path": path, "index": keys.index(key) + 1, "keys": len(keys),
            "replaced": bool(same)}


def replace_keys(prop: PropertyRef, path: str, keys: list[tuple]) -> list[dict]:
    """Put `keys` ((time, value, interpolation), in time order) on the property in place of any
    it had from the first's time to the last's (within SAME_TIME), keeping those outside: how a
    preset lays its keys over an animation. Values and interpolations are checked as
    prop.addKey checks them; the stored keys are returned."""
    if not prop.animatable:
        raise CommandError(f"{path} cannot be animated ({describe(prop.kind)}).")
    first, last = keys[0][0] - SAME_TIME, keys[-1][0] + SAME_TIME
    kept = [key for key in (prop.value["keys"] if is_animated(prop.value) else [])
            if not first <= key["time"] <= last]
    added = []
    for time, value, interpolation in keys:
        try:
            interpolation = check_interpolation(interpolation)
        except ValueError as error:
            raise CommandError(f"interpolation: {error}.") from None
        added.append({"time": time, "value": _checked(prop, path, value),
                      "interpolation": interpolation})
    if len(kept) + len(added) > MAX_KEYS:
        raise CommandError(f"{path} would have {len(kept) + len(added):,} keys, over the limit "
                           f"of {MAX_KEYS:,} for one property; remove some with "
                           "prop.removeKey first.")
    prop.container[prop.key] = {"keys": sorted(kept + added, key=lambda key: key["time"])}
    return copy.deepcopy(added)


@command("prop.removeKey", "Remove a keyframe",
         "Remove the key at a time, or by its 1-based index; removing the last key leaves the "
         "property static at that key's value.",
         {"comp": COMP_REF, "layer": LAYER_REF, "path": PATH, "time": TIME,
          "index": {"type": "integer", "description": "the key's 1-based index"}},
         required=("comp", "layer", "path"))
def prop_remove_key(engine, params, work):
    layer, prop, time = _property(engine, params)
    path = params["path"]
    if ("time" in params) == ("index" in params):
        raise CommandError("prop.removeKey needs either time or index (not both) to say which "
                           "key to remove.")
    if not is_animated(prop.value):
        raise CommandError(f"{path} of layer {layer['name']!r} has no keys to remove.")
    keys = prop.value["keys"]
    if "index" in params:
        position = params["index"] - 1
        if not 0 <= position < len(keys):
            raise CommandError(f"{path} has keys 1..{len(keys)}; there is no key "
                               f"{params['index']}.")
    else:
        matches = [i for i, k in enumerate(keys) if abs(k["time"] - time) <= SAME_TIME]
        if not matches:
            times = ", ".join(str(k["time"]) for k in keys)
            raise CommandError(f"{path} has no key at {time} s; its keys are at {times}.")
        position = matches[0]
    removed = keys.pop(position)
    if not keys:
        prop.container[prop.key] = removed["value"]
    return {"path": path, "removed": removed, "keys": len(keys)}


@command("prop.get", "Read a property",
         "A property's value at a comp time (default 0), evaluated as a render evaluates it; "
         "animated properties also return their keys. A property with an expression returns "
         "it as expression, beside its own value (expression.check gives its results).",
         {"comp": COMP_REF, "layer": LAYER_REF, "path": PATH, "time": TIME},
         required=("comp", "layer", "path"), kind="read")
def prop_get(engine, params, work):
    layer, prop, time = _property(engine, params)
    time = 0.0 if time is None else time
    result = {"path": params["path"], "time": time, "value": value_at(prop.value, time),
              "animated": is_animated(prop.value)}
    if result["animated"]:
        result["keys"] = copy.deepcopy(prop.value["keys"])
    expression = _expression(layer, params["path"])
    if expression is not None:
        # Evaluated only in a worker (expression.check shows its results): the value here is
        # the property's own, which the expression reads as `value`.
        result["expression"] = expression
    return result


def _expression(layer: dict, path: str) -> str | None:
    try:
        canonical, _ = expression_path(layer, path)
    except ValueError:
        return None
    return (layer.get("expressions") or {}).get(canonical)
