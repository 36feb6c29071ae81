"""Animation preset commands: preset.list and preset.apply, which adds a preset's keys (or its
mask, or its text animator) to a layer in one undo step.

What each preset keys is protocol/model/animation_presets.py's table; this module only measures
the layer (its values before the preset, where its content lands: workers/compositor/
layer_boxes.py) and stores the plan through the same checks prop.addKey, mask.add and
text.animate use.
"""

from __future__ import annotations

import math

from protocol.model.animation_presets import PRESETS, Subject, listing, resolved_params
from protocol.model.document import allocate_id, numbered_name
from protocol.model.keyframes import is_animated, value_at
from protocol.model.masks import new_mask
from protocol.model.property_paths import resolve
from protocol.model.transforms import layer_matrix, mapped_rect
from supervisor.engine.commands.lookup import find_comp, find_layer
from supervisor.engine.commands.prop import replace_keys
from supervisor.engine.commands.registry import COMP_REF, LAYER_REF, command
from supervisor.engine.commands.text import measured, play_preset
from supervisor.errors import CommandError


@command("preset.list", "List animation presets",
         "The animation presets preset.apply adds: {presets: [{name, description, params, "
         "duration, starts}]}; params gives each param's type, default, description and "
         "choices; duration is the default length in seconds; starts says when it plays by "
         "default (in: from the layer's in point; out: ending at its out point; span: over "
         "the layer's whole time; with: from the in point of the layer its `to` names).",
         kind="read")
def preset_list(engine, params, work):
    return {"presets": listing()}


@command("preset.apply", "Apply an animation preset",
         "Animate a layer with a preset in one undo step: " + ", ".join(PRESETS) + " (preset.list "
         "gives each one's params). time: when it starts, comp seconds (default: the layer's "
         "in point; fadeOut and slideOut end at its out point). duration: seconds (default the "
         "preset's). The preset's keys replace the property's keys within its span; the values "
         "it keys to are the layer's own (a fade ends at its opacity, a slide at its "
         "position). growFrom moves the anchor to the edge it grows from (the layer stays in "
         "place); countUp keys a text layer's text on each frame; audioFadeIn and audioFadeOut "
         "key audio.level; crossfade fades this layer out and params.to in; cascade plays "
         "params.preset on this layer and params.layers, stagger seconds apart. Returns "
         "{preset, layer, start, end, keys: [{path, time, value, interpolation, layer?}]} "
         "(layer: another layer's keys), and, for wipe, mask (the mask it added), for "
         "typewriter, animator, for cascade, layers (each layer's result). "
         'Examples: {"comp": "Main", "layer": "Title", "preset": "slideIn", "params": {"from": '
         '"left"}}; {"comp": "Main", "layer": "Bar 1", "preset": "cascade", "params": '
         '{"layers": ["Bar 2", "Bar 3"], "preset": "growFrom", "stagger": 0.15}}; '
         '{"comp": "Main", "layer": "Total", "preset": "countUp", "params": {"to": 1250, '
         '"format": "$ {} M"}}.',
         {"comp": COMP_REF, "layer": LAYER_REF,
          "preset": {"type": "string", "enum": list(PRESETS)},
          "time": {"type": "number", "description": "comp time (s) it starts"},
          "duration": {"type": "number", "description": "seconds it lasts"},
          "params": {"type": "object", "description": "the preset's own params, e.g. "
                     '{"from": "bottom"} for slideIn (preset.list)'}},
         required=("comp", "layer", "preset"), waits_on="probe")
def preset_apply(engine, params, work):
    comp = find_comp(engine.doc, params["comp"])
    layer = find_layer(comp, params["layer"])
    name = params["preset"]
    try:
        given = resolved_params(name, params.get("params") or {})
    except ValueError as error:
        raise CommandError(f"{error}.") from None
    return _apply(engine, work, comp, layer, name, params.get("time"), params.get("duration"),
                  given)


def _apply(engine, work, comp: dict, layer: dict, name: str, time, duration,
           given: dict) -> dict:
    """Plan preset `name` for `layer` and store what it plans; its result."""
    # The compositor's layer boxes import Skia and its text layout: with the first preset, not
    # with the engine, which every front door imports (`rendervisor render` applies none).
    from workers.compositor.layer_boxes import content_rect
    doc = engine.doc
    preset = PRESETS[name]
    if preset.layer_types and layer["type"] not in preset.layer_types:
        raise CommandError(f"{name} is for {' and '.join(preset.layer_types)} layers; layer "
                           f"{layer['name']!r} is a {layer['type']} layer.")
    start, duration = _timing(preset, comp, layer, time, duration, given)
    end = start + (duration or 0.0)

    def ink(content: dict, at: float) -> tuple:
        return tuple(measured(engine, content, at, work)["ink"])

    subject = Subject(
        start=start, end=end, params=given,
        rest=lambda key, at: _rest(layer, key, at),
        box=content_rect(doc, comp, layer, end, ink),
        extent=lambda at: mapped_rect(layer_matrix(comp, layer, at),
                                      content_rect(doc, comp, layer, at, ink)),
        comp_size=(float(comp["width"]), float(comp["height"])),
        frame_rate=float(comp["frameRate"]),
        rest_of=lambda ref, key, at: _rest(find_layer(comp, ref), key, at))
    plan = preset.plan(subject)
    if plan.text is not None:
        return {"preset": name, "layer": layer["id"],
                **play_preset(engine, layer, plan.text, start, duration, None, None, work)}
    result = {"preset": name, "layer": layer["id"], "start": start, "end": end, "keys": []}
    if plan.anchor is not None:
        _move_anchor(layer, plan.anchor, end)
    for path, keys in plan.keys.items():
        result["keys"] += _stored(path, _replaced(layer, path, keys))
    for ref, planned in plan.others.items():
        other = find_layer(comp, ref)
        for path, keys in planned.items():
            result["keys"] += _stored(path, _replaced(other, path, keys), other["id"])
    for ref, times in plan.shows.items():
        _show(comp, layer if ref == "" else find_layer(comp, ref), times)
    if plan.mask is not None:
        masks = layer.setdefault("masks", [])
        mask = new_mask(allocate_id(doc, "mask"), numbered_name("Wipe", {m["name"] for m in masks}),
                        "add", plan.mask[-1][1])
        mask["feather"] = plan.mask_feather
        masks.append(mask)
        path = f"masks.{mask['id']}.path"
        result["keys"] += _stored(path, replace_keys(resolve(layer, path), path, plan.mask))
        result["mask"] = mask["id"]
    if plan.then:
        result["layers"] = [
            _apply(engine, work, comp, layer if ref == "" else find_layer(comp, ref), then_name,
                   then_start, then_duration, _resolved(then_name, then_params))
            for ref, then_name, then_start, then_duration, then_params in plan.then]
    return result


def _resolved(name: str, given: dict) -> dict:
    try:
        return resolved_params(name, given)
    except ValueError as error:
        raise CommandError(f"{error}.") from None


def _rest(layer: dict, key: str, time: float):
    """A property's value at `time` before the preset: a transform property by its name
    ("opacity"), any other by its path ("audio.level")."""
    if "." in key:
        return value_at(_property(layer, key).value, time)
    return value_at(layer["transform"][key], time)


def _property(layer: dict, path: str):
    try:
        return resolve(layer, path)
    except ValueError as error:
        raise CommandError(f"layer {layer['name']!r}: {error}.") from None


def _replaced(layer: dict, path: str, keys: list) -> list[dict]:
    return replace_keys(_property(layer, path), path, keys)


def _move_anchor(layer: dict, anchor: list, time: float) -> None:
    """Put the layer's anchor at `anchor` without moving it on screen: its position moves by
    the anchor's move through the layer's scale and rotation at `time` (every key, if it is
    animated)."""
    transform = layer["transform"]
    if is_animated(transform["anchor"]):
        raise CommandError(f"layer {layer['name']!r} has an animated anchor, so its edge "
                           "cannot be its anchor too; remove the anchor's keys first.")
    old = transform["anchor"]
    sx, sy = value_at(transform["scale"], time)
    turn = math.radians(value_at(transform["rotation"], time))
    dx, dy = (anchor[0] - old[0]) * sx / 100, (anchor[1] - old[1]) * sy / 100
    offset = (dx * math.cos(turn) - dy * math.sin(turn), dx * math.sin(turn) + dy * math.cos(turn))
    position = transform["position"]
    for holder in (position["keys"] if is_animated(position) else [transform]):
        key = "value" if holder is not transform else "position"
        holder[key] = [holder[key][0] + offset[0], holder[key][1] + offset[1]]
    transform["anchor"] = list(anchor)


def _show(comp: dict, layer: dict, times: dict) -> None:
    """Make the layer show from `inPoint` (at the latest) or to `outPoint` (at the earliest)."""
    if "inPoint" in times:
        layer["inPoint"] = min(layer["inPoint"], max(0.0, times["inPoint"]))
    if "outPoint" in times:
        layer["outPoint"] = max(layer["outPoint"], min(comp["duration"], times["outPoint"]))


def _timing(preset, comp: dict, layer: dict, time, duration,
            given: dict) -> tuple[float, float | None]:
    """(start, duration) from the params, else the preset's defaults for this layer."""
    if duration is not None and duration <= 0:
        raise CommandError(f"preset.apply: duration must be above 0 seconds, got {duration}.")
    if duration is None:
        duration = preset.duration
    if time is not None:
        start = float(time)
    elif preset.starts == "out":
        start = layer["outPoint"] - duration
    elif preset.starts == "with":
        start = find_layer(comp, given["to"])["inPoint"]
    else:
        start = layer["inPoint"]
    if duration is None and preset.starts == "span":
        duration = layer["outPoint"] - start
        if duration <= 0:
            raise CommandError(f"preset.apply: time {start} is not before the layer's out "
                               f"point ({layer['outPoint']}); give a duration.")
    return start, duration


def _stored(path: str, keys: list[dict], layer: str | None = None) -> list[dict]:
    """The keys as the result lists them, with the layer's id when it is another layer's."""
    return [{"path": path, **({"layer": layer} if layer else {}), **key} for key in keys]
