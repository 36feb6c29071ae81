"""Effect commands: add, set, remove. The effects and their params are
protocol/model/effects.py's."""

from __future__ import annotations

from protocol.model.document import DocumentError, check_property, new_effect
from protocol.model.effects import EFFECTS
from protocol.model.expressions import prune_expressions
from supervisor.engine.commands.lookup import find_comp, find_effect, find_layer
from supervisor.engine.commands.registry import COLOR_FORMAT, COMP_REF, LAYER_REF, command
from supervisor.errors import CommandError

EFFECT_REF = {"type": ["string", "integer"], "description": "an effect's id, effect name or "
              "1-based index on the layer"}


def _defaults(spec: dict) -> str:
    """`radius (10), color ([0, 0, 0, 0.75])`: an effect's params with their defaults."""
    return ", ".join(f"{param} ({default:g})" if isinstance(default, (int, float)) else
                     f"{param} ([{', '.join(f'{v:g}' for v in default)}])"
                     for param, (_, default) in spec.items())


PARAMS = {"type": "object", "description": "param name -> value (static, or an animation "
          '{"keys": [...]}), with their defaults: '
          + "; ".join(f"{name}: {_defaults(spec)}" for name, spec in EFFECTS.items())
          + f"; color, black and white are colors: {COLOR_FORMAT}; e.g. "
          '{"color": "#000000", "distance": 8, "softness": 12}'}


def _checked_params(effect: str, params: dict) -> dict:
    spec = EFFECTS[effect]
    unknown = [key for key in params if key not in spec]
    if unknown:
        raise CommandError(f"a {effect} effect has no param {', '.join(map(repr, unknown))}; its "
                           f"params are {', '.join(spec)}.")
    try:
        return {key: check_property(spec[key][0], value, f"params.{key}")
                for key, value in params.items()}
    except DocumentError as error:
        raise CommandError(f"{error}.") from None


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
    effect = new_effect(engine.doc, params["effect"],
                        _checked_params(params["effect"], params.get("params") or {}))
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
    effect["params"].update(_checked_params(effect["effect"], params.get("params") or {}))
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
