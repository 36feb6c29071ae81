"""Text animator commands: text.addAnimator, text.removeAnimator, and text.animate, which adds
a preset's animator and keys (protocol/model/text_presets.py).

An animator's values are properties like any other: `animators.ID.range.offset`,
`animators.ID.properties.opacity`, ... take prop.addKey, prop.set and prop.get.
"""

from __future__ import annotations

from protocol.model.document import DocumentError, allocate_id, check_animators
from protocol.model.keyframes import static_value
from protocol.model.text_animators import RANGE_DEFAULTS, SHAPES, UNITS, find_animator, new_animator
from protocol.model.text_animators import paths_of as animator_paths
from protocol.model.text_presets import PRESETS, preset_plan, preset_properties
from protocol.model.expressions import prune_expressions
from supervisor.engine.commands.lookup import find_comp, find_layer
from supervisor.engine.commands.registry import COLOR_FORMAT, COMP_REF, LAYER_REF, command
from supervisor.errors import CommandError

ANIMATOR_PROPERTIES = {
    "type": "object",
    "description": "what the animator changes, reached at full amount: opacity (percent), "
                   "position [dx, dy] (px), scale (percent), rotation (degrees), fill ("
                   + COLOR_FORMAT + "), tracking (px), blur (px); e.g. "
                   '{"opacity": 0, "position": [0, 40]}'}
RANGE = {
    "type": "object",
    "description": "which units it reaches: start, end, offset (percent of the units; default "
                   "0, 100, 0), shape (" + ", ".join(SHAPES) + "; default square), "
                   "smoothness (square's edges, 0..100, default 100), ease (for the other "
                   "shapes, an easing name or curve as prop.addKey's interpolation takes, "
                   'not hold); e.g. {"start": 0, "end": 50, "shape": "rampUp"}'}


def _text_layer(engine, params) -> tuple[dict, dict]:
    comp = find_comp(engine.doc, params["comp"])
    layer = find_layer(comp, params["layer"])
    if layer["type"] != "text":
        raise CommandError(f"layer {layer['name']!r} is a {layer['type']} layer; text "
                           "animators go on text layers.")
    return comp, layer


def add_animator(engine, layer: dict, unit: str, properties: dict, selector: dict) -> dict:
    """A new animator on `layer`, checked as a loaded document would be; CommandError else."""
    animator = new_animator(allocate_id(engine.doc, "animator"), unit, properties, selector)
    try:
        animator = check_animators([animator], "animator")[0]
    except DocumentError as error:
        raise CommandError(f"{error}.") from None
    if not animator["properties"]:
        raise CommandError("an animator needs at least one property to change, such as "
                           '{"opacity": 0}.')
    layer["content"].setdefault("animators", []).append(animator)
    return animator


@command("text.addAnimator", "Add a text animator",
         "Animate a text layer per character, word or line, as After Effects' text animators "
         "do: each unit gets the properties' values by the amount the range gives it (0..1). "
         "The range's numbers and the properties are properties "
         "(animators.ID.range.offset, animators.ID.properties.opacity) that prop.addKey "
         "animates. Returns {animator, paths}.",
         {"comp": COMP_REF, "layer": LAYER_REF,
          "unit": {"type": "string", "enum": list(UNITS)},
          "properties": ANIMATOR_PROPERTIES, "range": RANGE},
         required=("comp", "layer", "properties"))
def text_add_animator(engine, params, work):
    _, layer = _text_layer(engine, params)
    animator = add_animator(engine, layer, params.get("unit", "character"),
                            params["properties"], params.get("range") or {})
    return {"animator": animator["id"], "paths": animator_paths(animator)}


@command("text.removeAnimator", "Remove a text animator",
         "Remove a text animator (its id or 1-based index) and its keys.",
         {"comp": COMP_REF, "layer": LAYER_REF,
          "animator": {"type": ["string", "integer"], "description": "its id or 1-based index"}},
         required=("comp", "layer", "animator"))
def text_remove_animator(engine, params, work):
    _, layer = _text_layer(engine, params)
    animators = layer["content"].get("animators") or []
    animator = find_animator(animators, str(params["animator"]))
    if animator is None:
        listed = ", ".join(a["id"] for a in animators) or "none"
        raise CommandError(f"layer {layer['name']!r} has no text animator "
                           f"{params['animator']!r}; its animators are {listed}.")
    animators.remove(animator)
    if not animators:
        del layer["content"]["animators"]
    prune_expressions(layer)  # an expression on one of its properties goes with it
    return {"removed": animator["id"]}


@command("text.animate", "Animate text with a preset",
         "Add a preset text animation: " + "; ".join(f"{name} ({preset.description})"
                                                   for name, preset in PRESETS.items())
         + ". From start (s, default 0) over duration (s; default: from the stagger), unit "
         "(character, word or line; each preset has its own default), stagger (s between one "
         "unit starting and the next). Returns the animator and the keys it added.",
         {"comp": COMP_REF, "layer": LAYER_REF,
          "preset": {"type": "string", "enum": list(PRESETS)},
          "start": {"type": "number", "description": "comp time (s) it starts"},
          "duration": {"type": "number", "description": "seconds, for the whole text"},
          "unit": {"type": "string", "enum": list(UNITS)},
          "stagger": {"type": "number", "description": "seconds between units"}},
         required=("comp", "layer", "preset"), waits_on="probe")
def text_animate(engine, params, work):
    _, layer = _text_layer(engine, params)
    return play_preset(engine, layer, params["preset"], float(params.get("start", 0.0)),
                       params.get("duration"), params.get("unit"), params.get("stagger"), work)


def measured(engine, content: dict, time: float, work=None) -> dict:
    """A text's units and ink at `time` ({graphemes, words, lines, ink}), laid out on a probe
    worker (supervisor/engine/probes.py): its font file is read there, once the roots allow."""
    if isinstance(content.get("fontFile"), str):
        engine.check_path(content["fontFile"], "read")
    return engine.probes.measure_text(content, [time],
                                      work.cancel if work is not None else None)[0]


def play_preset(engine, layer: dict, name: str, start: float, duration: float | None,
                unit: str | None, stagger: float | None, work=None) -> dict:
    """Add text preset `name`'s animator and keys to a text layer (text.animate, and
    preset.apply's typewriter); what it added, as text.animate returns it."""
    preset = PRESETS[name]
    unit = unit or preset.unit
    if duration is not None and duration <= 0:
        raise CommandError(f"text.animate: duration must be above 0 seconds, got {duration}.")
    if stagger is not None and stagger < 0:
        raise CommandError(f"text.animate: stagger must be 0 seconds or more, got {stagger}.")
    layout = measured(engine, layer["content"], start, work)
    units = {"character": layout["graphemes"], "word": layout["words"],
             "line": layout["lines"]}[unit]
    plan = preset_plan(preset, units, start, duration, stagger)
    selector = dict(plan["range"])
    for key_name, keys in plan["keys"].items():
        selector[key_name] = {"keys": [{"time": time, "value": value, "interpolation": how}
                                       for time, value, how in keys]}
    size = float(static_value(layer["content"].get("size", 72)))
    animator = add_animator(engine, layer, unit, preset_properties(preset, size), selector)
    added = [{"path": f"animators.{animator['id']}.range.{key_name}", "time": key["time"],
              "value": key["value"]}
             for key_name in plan["keys"] for key in animator["range"][key_name]["keys"]]
    return {"animator": animator["id"], "preset": name, "unit": unit,
            "units": units, "start": start, "end": plan["end"], "keys": added,
            "range": {key: animator["range"][key] for key in RANGE_DEFAULTS
                      if key not in plan["keys"]}}
