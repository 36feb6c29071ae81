"""Effect commands: add, set, remove. The effects and their params are
protocol/model/effects.py's."""

from __future__ import annotations

from protocol.model.document import DocumentError, check_property, new_effect
from protocol.model.effects import EFFECTS, FILE_PARAMS, STATIC_KINDS
from protocol.model.expressions import prune_expressions
from supervisor.engine.commands.lookup import find_comp, find_effect, find_layer
from supervisor.engine.commands.registry import COLOR_FORMAT, COMP_REF, LAYER_REF, command
from supervisor.engine.lut_files import LUT_HINT, check_lut_file
from supervisor.errors import CommandError

EFFECT_REF = {"type": ["string", "integer"], "description": "an effect's id, effect name or "
              "1-based index on the layer"}


def _defaults(spec: dict) -> str:
    """`radius (10), color ([0, 0, 0, 0.75])`: an effect's params with their defaults."""
    return ", ".join(f"{param} ({_default(default)})" for param, (_, default) in spec.items())


def _default(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, (int, float)):
        return f"{value:g}"
    return f"[{', '.join(f'{v:g}' for v in value)}]"


PARAMS = {"type": "object", "description": "param name -> value (static, or an animation "
          '{"keys": [...]}), with their defaults: '
          + "; ".join(f"{name}: {_defaults(spec)}" for name, spec in EFFECTS.items())
          + f"; color, black and white are colors: {COLOR_FORMAT}; lift, gamma and gain a "
          "number or [r, g, b]; a lut's path the absolute path of a .cube 3D LUT; e.g. "
          '{"color": "#000000", "distance": 8, "softness": 12}'}


def _checked_params(engine, effect: str, params: dict, work=None) -> dict:
    spec = EFFECTS[effect]
    unknown = [key for key in params if key not in spec]
    if unknown:
        raise CommandError(f"a {effect} effect has no param {', '.join(map(repr, unknown))}; its "
                           f"params are {', '.join(spec)}.")
    try:
        checked = {key: check_property(spec[key][0], value, f"params.{key}",
                                       animatable=spec[key][0] not in STATIC_KINDS)
                   for key, value in params.items()}
    except DocumentError as error:
        raise CommandError(f"{error}.") from None
    file_param = FILE_PARAMS.get(effect)
    if checked.get(file_param) is not None:
        checked[file_param] = check_lut_file(engine, checked[file_param], work)
    return checked


def _layer(engine, params):
    comp = find_comp(engine.doc, params["comp"])
    return find_layer(comp, params["layer"])


@command("effect.add", "Add an effect",
         "Add an effect to the end of a layer's effect stack (effects apply in order, before "
         "the layer's opacity and blending). Returns {effect} (its id).",
         {"comp": COMP_REF, "layer": LAYER_REF,
          "effect": {"type": "string", "enum": list(EFFECTS)}, "params": PARAMS},
         required=("comp", "layer", "effect"))
def effect_add(engine, params, work):
    layer = _layer(engine, params)
    checked = _checked_params(engine, params["effect"], params.get("params") or {}, work)
    file_param = FILE_PARAMS.get(params["effect"])
    if file_param and checked.get(file_param) is None:
        raise CommandError(f"a {params['effect']} effect needs params.{file_param}, the "
                           f"absolute path of {LUT_HINT}.")
    effect = new_effect(engine.doc, params["effect"], checked)
    layer["effects"].append(effect)
    return {"effect": effect["id"], "index": len(layer["effects"]), "params": effect["params"]}


@command("effect.set", "Change an effect",
         "Change an effect's params (static values or animations; prop.addKey animates one "
         "param at a time via effects.FX.PARAM) or switch it on or off.",
         {"comp": COMP_REF, "layer": LAYER_REF, "effect": EFFECT_REF, "params": PARAMS,
          "enabled": {"type": "boolean"}},
         required=("comp", "layer", "effect"))
def effect_set(engine, params, work):
    layer = _layer(engine, params)
    effect = find_effect(layer, params["effect"])
    effect["params"].update(_checked_params(engine, effect["effect"],
                                            params.get("params") or {}, work))
    if "enabled" in params:
        effect["enabled"] = params["enabled"]
    return {"effect": effect["id"], "enabled": effect["enabled"], "params": effect["params"]}


@command("effect.remove", "Remove an effect",
         "Remove an effect from a layer.",
         {"comp": COMP_REF, "layer": LAYER_REF, "effect": EFFECT_REF},
         required=("comp", "layer", "effect"))
def effect_remove(engine, params, work):
    layer = _layer(engine, params)
    effect = find_effect(layer, params["effect"])
    layer["effects"].remove(effect)
    prune_expressions(layer)  # an expression on one of its params goes with it
    return {"removed": effect["id"], "effect": effect["effect"]}
