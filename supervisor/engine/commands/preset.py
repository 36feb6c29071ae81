"""Animation preset commands: preset.list and preset.apply, which adds a preset's keys (or its
mask, or its text animator) to a layer in one undo step.

What each preset keys is protocol/model/animation_presets.py's table; this module only measures
the layer (its values before the preset, where its content lands: workers/compositor/
layer_boxes.py) and stores the plan through the same checks prop.addKey, mask.add and
text.animate use.
"""

from __future__ import annotations

from protocol.model.animation_presets import PRESETS, Subject, listing, resolved_params
from protocol.model.document import allocate_id, numbered_name
from protocol.model.keyframes import value_at
from protocol.model.masks import new_mask
from protocol.model.property_paths import resolve
from protocol.model.transforms import layer_matrix, mapped_rect
from supervisor.engine.commands.lookup import find_comp, find_layer
from supervisor.engine.commands.prop import replace_keys
from supervisor.engine.commands.registry import COMP_REF, LAYER_REF, command
from supervisor.engine.commands.text import measured, play_preset
from supervisor.errors import CommandError
from workers.compositor.layer_boxes import content_rect


@command("preset.list", "List animation presets",
         "The animation presets preset.apply adds: {presets: [{name, description, params, "
         "duration, starts}]}; params gives each param's type, default, description and "
         "choices; duration is the default length in seconds; starts says when it plays by "
         "default (in: from the layer's in point; out: ending at its out point; span: over "
         "the layer's whole time).", kind="read")
def preset_list(engine, params, work):
    return {"presets": listing()}


@command("preset.apply", "Apply an animation preset",
         "Animate a layer with a preset in one undo step: " + ", ".join(PRESETS) + " (preset.list "
         "gives each one's params). time: when it starts, comp seconds (default: the layer's "
         "in point; fadeOut and slideOut end at its out point). duration: seconds (default the "
         "preset's). The preset's keys replace the property's keys within its span; the values "
         "it keys to are the layer's own (a fade ends at its opacity, a slide at its "
         "position). Returns {preset, layer, start, end, keys: [{path, time, value, "
         "interpolation}]} and, for wipe, mask (the mask it added), for typewriter, animator. "
         'Example: {"comp": "Main", "layer": "Title", "preset": "slideIn", "params": {"from": '
         '"left"}}.',
         {"comp": COMP_REF, "layer": LAYER_REF,
          "preset": {"type": "string", "enum": list(PRESETS)},
          "time": {"type": "number", "description": "comp time (s) it starts"},
          "duration": {"type": "number", "description": "seconds it lasts"},
          "params": {"type": "object", "description": "the preset's own params, e.g. "
                     '{"from": "bottom"} for slideIn (preset.list)'}},
         required=("comp", "layer", "preset"), waits_on="probe")
def preset_apply(engine, params, work):
    doc = engine.doc
    comp = find_comp(doc, params["comp"])
    layer = find_layer(comp, params["layer"])
    name = params["preset"]
    preset = PRESETS[name]
    if preset.layer_types and layer["type"] not in preset.layer_types:
        raise CommandError(f"{name} is for {' and '.join(preset.layer_types)} layers; layer "
                           f"{layer['name']!r} is a {layer['type']} layer.")
    try:
        given = resolved_params(name, params.get("params") or {})
    except ValueError as error:
        raise CommandError(f"{error}.") from None
    start, duration = _timing(preset, layer, params)
    end = start + (duration or 0.0)

    def ink(content: dict, time: float) -> tuple:
        return tuple(measured(engine, content, time, work)["ink"])

    subject = Subject(
        start=start, end=end, params=given,
        rest=lambda key, time: value_at(layer["transform"][key], time),
        box=content_rect(doc, comp, layer, end, ink),
        extent=lambda time: mapped_rect(layer_matrix(comp, layer, time),
                                        content_rect(doc, comp, layer, time, ink)),
        comp_size=(float(comp["width"]), float(comp["height"])))
    plan = preset.plan(subject)
    if plan.text is not None:
        return {"preset": name, "layer": layer["id"],
                **play_preset(engine, layer, plan.text, start, duration, None, None, work)}
    result = {"preset": name, "layer": layer["id"], "start": start, "end": end, "keys": []}
    for path, keys in plan.keys.items():
        result["keys"] += _stored(path, replace_keys(resolve(layer, path), path, keys))
    if plan.mask is not None:
        masks = layer.setdefault("masks", [])
        mask = new_mask(allocate_id(doc, "mask"), numbered_name("Wipe", {m["name"] for m in masks}),
                        "add", plan.mask[-1][1])
        mask["feather"] = plan.mask_feather
        masks.append(mask)
        path = f"masks.{mask['id']}.path"
        result["keys"] += _stored(path, replace_keys(resolve(layer, path), path, plan.mask))
        result["mask"] = mask["id"]
    return result


def _timing(preset, layer: dict, params: dict) -> tuple[float, float | None]:
    """(start, duration) from the params, else the preset's defaults for this layer."""
    duration = params.get("duration")
    if duration is not None and duration <= 0:
        raise CommandError(f"preset.apply: duration must be above 0 seconds, got {duration}.")
    if duration is None:
        duration = preset.duration
    if "time" in params:
        start = float(params["time"])
    elif preset.starts == "out":
        start = layer["outPoint"] - duration
    else:
        start = layer["inPoint"]
    if duration is None and preset.starts == "span":
        duration = layer["outPoint"] - start
        if duration <= 0:
            raise CommandError(f"preset.apply: time {start} is not before the layer's out "
                               f"point ({layer['outPoint']}); give a duration.")
    return start, duration


def _stored(path: str, keys: list[dict]) -> list[dict]:
    return [{"path": path, **key} for key in keys]
