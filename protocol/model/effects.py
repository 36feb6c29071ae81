"""The effects a layer can carry, their parameters, and their defaults.

One table, read by the schema validator, by `effect.add` and by the compositor, so a default
can only ever be stated once (docs/document.md, "Effects"). Pure: no I/O.
"""

from __future__ import annotations

import copy

# effect name -> param name -> (value kind, default). Kinds are the validator's
# (protocol/model/values.py): "number" or "color"; every param is animatable.
EFFECTS: dict[str, dict[str, tuple[str, object]]] = {
    "gaussianBlur": {
        "radius": ("number", 10),
    },
    "dropShadow": {
        "color": ("color", [0.0, 0.0, 0.0, 0.75]),
        "distance": ("number", 10),
        "direction": ("number", 135),
        "softness": ("number", 10),
        "opacity": ("number", 75),
    },
    "fill": {
        "color": ("color", [1.0, 0.0, 0.0, 1.0]),
        "opacity": ("number", 100),
    },
    "tint": {
        "black": ("color", [0.0, 0.0, 0.0, 1.0]),
        "white": ("color", [1.0, 1.0, 1.0, 1.0]),
        "amount": ("number", 100),
    },
    "glow": {
        "radius": ("number", 20),
        "intensity": ("number", 1),
        "threshold": ("number", 50),
    },
}


def default_params(effect: str) -> dict:
    return {name: copy.deepcopy(default) for name, (_, default) in EFFECTS[effect].items()}


def param_kind(effect: str, param: str) -> str | None:
    spec = EFFECTS.get(effect, {}).get(param)
    return spec[0] if spec else None
