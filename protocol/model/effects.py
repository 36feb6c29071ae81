"""The effects a layer can carry, their parameters, and their defaults.

One table, read by the schema validator, by `effect.add` and by the compositor, so a default
can only ever be stated once (docs/document.md, "Effects"). Pure: no I/O.
"""

from __future__ import annotations

import copy

# effect name -> param name -> (value kind, default). Kinds are the validator's
# (protocol/model/values.py): "number", "color", "rgb" (a number for all three channels, or
# [r, g, b]) or "pathOrNull"; every param but a file is animatable (STATIC_KINDS).
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
    # A .cube 3D LUT (docs/document.md, "LUTs and grading"), mixed in at `amount` percent.
    "lut": {
        "path": ("pathOrNull", None),
        "amount": ("number", 100),
    },
    # Exposure in stops, then lift, gamma and gain per channel, then saturation in percent.
    "grade": {
        "exposure": ("number", 0),
        "lift": ("rgb", [0.0, 0.0, 0.0]),
        "gamma": ("rgb", [1.0, 1.0, 1.0]),
        "gain": ("rgb", [1.0, 1.0, 1.0]),
        "saturation": ("number", 100),
    },
}
# Param kinds that are never keyed: a file is read whole, not blended between two.
STATIC_KINDS = ("pathOrNull",)
# Effects that read a file, and the param naming it.
FILE_PARAMS = {"lut": "path"}


def default_params(effect: str) -> dict:
    return {name: copy.deepcopy(default) for name, (_, default) in EFFECTS[effect].items()}


def param_kind(effect: str, param: str) -> str | None:
    spec = EFFECTS.get(effect, {}).get(param)
    return spec[0] if spec else None


def effect_files(layer: dict) -> list[str]:
    """The files the layer's effects read (a LUT's .cube), in order."""
    files = []
    for effect in layer.get("effects") or ():
        param = FILE_PARAMS.get(effect.get("effect"))
        path = (effect.get("params") or {}).get(param) if param else None
        if isinstance(path, str):
            files.append(path)
    return files
