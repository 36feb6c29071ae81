"""After Effects' Fill effect (`ef` of type 21) made the colours it paints, so ThorVG draws a
filled layer as lottie-web does.

lottie-web paints the layer's pixels (masked, matted) in the effect's colour and keeps their
alpha. ThorVG fills the layer's whole box where the layer has masks (a masked solid or
precomp became a rectangle of the colour) and, on a solid, drew the solid's own colour. The
same picture, drawn by any player: every fill and stroke of the layer (and of what its precomp
holds, through a copy of the precomp only this layer uses) set to the effect's colour, a
solid's colour likewise, and the effect removed. Overlapping parts of one colour composite to
the alpha the effect keeps.

Only the plain effect is rewritten: the whole layer (no `Fill Mask`), not inverted, no
feather, fully opaque, its colour still (no keys, no expression), and nothing in the layer
whose colour cannot be set so (a gradient with transparent stops, an image, text). Anything
else is left to ThorVG. A matte (`td`) inside keeps its colours: only its alpha or luminance
masks, before the effect paints.

Pure: the animation (a dict the caller owns) changed in place.
"""

from __future__ import annotations

import copy
from typing import Any

from protocol.model.lottie_trees import dicts, layers, shapes
from protocol.model.lottie_values import still_value

FILL_EFFECT = 21
_PLAIN = {"Fill Mask": 0, "Invert": 0, "Horizontal Feather": 0, "Vertical Feather": 0,
          "Opacity": 1}
# Copying precomps for a recoloured layer stops past this many layers (a file built to
# multiply them); the effect is then left to ThorVG.
_COPY_BUDGET = 5000


def paint_fill_effects(animation: dict) -> None:
    """Every plain Fill effect in `animation` made its colours (see the module's docstring)."""
    assets = {asset["id"]: asset for asset in dicts(animation.get("assets"))
              if isinstance(asset.get("id"), str) and isinstance(asset.get("layers"), list)}
    for layer in list(layers(animation)):
        for effect in dicts(layer.get("ef")):
            color = _plain_color(effect)
            if color is not None and not layer.get("td"):
                _Recolouring(animation, assets, color).apply(layer)
                break


def _plain_color(effect: dict) -> list | None:
    """The effect's colour [r, g, b] when it is a plain Fill effect, else None."""
    if effect.get("ty") != FILL_EFFECT or effect.get("en", 1) == 0:
        return None
    values = {param.get("nm"): still_value(param.get("v")) for param in dicts(effect.get("ef"))}
    for name, plain in _PLAIN.items():
        if _number(values.get(name, plain)) != plain:
            return None
    color = values.get("Color")
    if not (isinstance(color, list) and len(color) >= 3 and
            all(isinstance(c, (int, float)) for c in color[:3])):
        return None
    return [float(c) for c in color[:3]]


class _Recolouring:
    """One layer's Fill effect made colours: the layer's tree rewritten on a scratch copy, put
    in place only when all of it could be."""

    def __init__(self, animation: dict, assets: dict, color: list) -> None:
        self.animation, self.assets, self.color = animation, assets, color
        self.new_assets: list[dict] = []
        self.budget = _COPY_BUDGET

    def apply(self, layer: dict) -> None:
        scratch = copy.deepcopy(layer)
        if not self._recolour([scratch], chain=()):
            return
        layer.clear()
        layer.update(scratch)
        layer["ef"] = [e for e in dicts(layer.get("ef")) if e.get("ty") != FILL_EFFECT]
        self.animation.setdefault("assets", []).extend(self.new_assets)
        self.assets.update((asset["id"], asset) for asset in self.new_assets)

    def _recolour(self, tree: list, chain: tuple) -> bool:
        for layer in dicts(tree):
            self.budget -= 1
            if self.budget < 0:
                return False
            if layer.get("td"):
                continue  # a matte: it masks, it is not painted
            layer["ef"] = [e for e in dicts(layer.get("ef")) if e.get("ty") != FILL_EFFECT]
            kind = layer.get("ty")
            if kind == 4 and not self._recolour_shapes(layer.get("shapes")):
                return False
            if kind == 1:
                layer["sc"] = "#" + "".join(f"{round(min(1.0, max(0.0, c)) * 255):02x}"
                                            for c in self.color)
            if kind in (2, 5):
                return False
            if kind == 0 and not self._recolour_precomp(layer, chain):
                return False
        return True

    def _recolour_precomp(self, layer: dict, chain: tuple) -> bool:
        reference = layer.get("refId")
        source = self.assets.get(reference) if isinstance(reference, str) else None
        if source is None or reference in chain:
            return source is None  # a missing asset draws nothing; a cycle is left alone
        own = copy.deepcopy(source)
        own["id"] = f"{source['id']}.fill{len(self.assets) + len(self.new_assets)}"
        self.new_assets.append(own)
        layer["refId"] = own["id"]
        return self._recolour(own["layers"], chain + (source["id"],))

    def _recolour_shapes(self, items: Any) -> bool:
        for shape in shapes(items):
            kind = shape.get("ty")
            if kind in ("gf", "gs"):
                if _has_transparent_stops(shape):
                    return False
                shape["ty"] = "fl" if kind == "gf" else "st"
                for key in ("g", "s", "e", "t", "h", "a"):
                    shape.pop(key, None)
            if shape["ty"] in ("fl", "st"):
                shape["c"] = {"a": 0, "k": [*self.color, 1]}
        return True


def _has_transparent_stops(gradient: dict) -> bool:
    """Whether a gradient has opacity stops (after its colour stops) other than opaque."""
    spec = gradient.get("g")
    if not isinstance(spec, dict):
        return True
    count, values = spec.get("p"), still_value(spec.get("k"))
    if not isinstance(count, int) or not isinstance(values, list):
        return True
    return any(v != 1 for v in values[4 * count:][1::2])


def _number(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value
