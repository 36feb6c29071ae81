"""A Lottie animation's After Effects expressions evaluated into keys (lottie.bake), so a
player that cannot run them (ThorVG, which rendervisor draws Lottie with) plays the file as
designed.

    baked, report = bake(animation)   # a copy; report: {expressions, baked, failed}

Each property with an expression (`"x"`) gets a hold key at every frame of the animation
(`ip` to `op`), its value there the expression's, evaluated by this worker's sandbox exactly as
a rendervisor layer's expression is (the same API, the same determinism). What the expression
reads as `value` is the property's own keys, interpolated as Lottie does (per-dimension
bezier eases, holds; a motion path's spatial tangents are read as straight lines). Layers are
found by name (`nm`) and index (`ind`), their transform by After Effects' names, effects by
name with their params (`effect("Slider Control")("Slider")`); what bodymovin writes around
an expression (`var $bm_rt; $bm_rt = ...;`, `$bm_sum` and its kin) is understood.

An expression that fails (it uses what the API lacks, such as `content("Group 1")`) keeps its
keys and its `"x"`, and is named in `failed` with its sentence; the others are baked.
Pure apart from the sandbox: data in, data out.
"""

from __future__ import annotations

import copy
import json

from protocol.model import lottie_values
from workers.expressions.sandbox import Fault, LimitExceeded, current_sandbox

# The transform's properties by After Effects' names (as rendervisor's paths spell them).
TRANSFORM = {"a": "transform.anchor", "p": "transform.position", "s": "transform.scale",
             "r": "transform.rotation", "o": "transform.opacity"}


def bake(animation: dict) -> tuple[dict, dict]:
    """A copy of the animation with its expressions baked into keys, and what was done:
    {expressions: how many, baked: how many, failed: [sentence, ...]}."""
    animation = copy.deepcopy(animation)
    host = LottieHost(animation)
    frames = list(range(int(animation["ip"]), max(int(animation["ip"]) + 1,
                                                  int(-(-animation["op"] // 1)))))
    rate = float(animation["fr"])
    failed = []
    for key, place in host.places.items():
        if not isinstance(place.prop.get("x"), str):
            continue
        times = [frame / rate for frame in frames]
        try:
            values = current_sandbox().evaluate(host, key, times,
                                                [host.own(place, time) for time in times])
        except Fault as fault:
            failed.append(host.sentence(place, fault.time, fault.what()))
            continue
        except LimitExceeded as limit:
            failed.append(host.sentence(place, limit.time, limit.what()))
            continue
        place.bake(frames, values)
    count = sum(1 for place in host.places.values() if place.had_expression)
    return animation, {"expressions": count, "baked": count - len(failed), "failed": failed}


class Place:
    """One property of a Lottie layer: where it is, and how its values read and are written."""

    def __init__(self, comp: str, layer: dict, path: str, prop: dict, rate: float,
                 text: bool = False) -> None:
        self.comp, self.layer, self.path, self.prop = comp, layer, path, prop
        self.rate = rate
        self.text = text  # a text layer's document: the value is its text
        self.had_expression = isinstance(prop.get("x"), str)

    def value_at(self, time: float):
        if self.text:
            document = _document_at(self.prop, time * self.rate)
            return document.get("t", "") if isinstance(document, dict) else ""
        return _plain(lottie_values.value_at(self.prop, time * self.rate), self.prop)

    def keys(self) -> list:
        keys = self.prop.get("k")
        if self.prop.get("a") != 1 or not isinstance(keys, list):
            return []
        return [[key["t"] / self.rate, _plain(key.get("s"), self.prop) if not self.text
                 else (key.get("s") or {}).get("t", "")]
                for key in keys if isinstance(key, dict) and "t" in key]

    def bake(self, frames: list[int], values: list) -> None:
        """Hold keys at `frames` with `values`, in place of the keys and the expression."""
        if self.text:
            keys = [{"t": frame, "s": {**_document_at(self.prop, frame), "t": str(value)}}
                    for frame, value in zip(frames, values)]
        else:
            keys = [{"t": frame, "s": value if isinstance(value, list) else [value], "h": 1}
                    for frame, value in zip(frames, values)]
        self.prop.pop("x", None)
        self.prop["a"], self.prop["k"] = 1, keys


class LottieHost:
    """The animation as api.js sees it: its comps (the main one and precomp assets), their
    layers, their properties; and the answers to api.js's questions about them."""

    def __init__(self, animation: dict) -> None:
        self.animation = animation
        self.rate = float(animation["fr"])
        self.places: dict[str, Place] = {}
        comps = [("main", animation.get("layers") or [], animation)]
        comps += [(str(asset["id"]), asset["layers"], asset)
                  for asset in animation.get("assets") or []
                  if isinstance(asset, dict) and isinstance(asset.get("layers"), list)]
        self.scene = json.dumps({"comps": [self._comp(*comp) for comp in comps]})

    def _comp(self, comp_id: str, layers: list, owner: dict) -> dict:
        return {"id": comp_id, "name": owner.get("nm", comp_id),
                "width": owner.get("w", self.animation["w"]),
                "height": owner.get("h", self.animation["h"]), "frameRate": self.rate,
                "duration": (self.animation["op"] - self.animation["ip"]) / self.rate,
                "markers": [{"name": str(m.get("cm", "")), "time": m.get("tm", 0) / self.rate,
                             "duration": m.get("dr", 0) / self.rate}
                            for m in (self.animation.get("markers") or [])
                            if isinstance(m, dict)] if comp_id == "main" else [],
                "layers": [self._layer(comp_id, layer, index)
                           for index, layer in enumerate(layers, start=1)
                           if isinstance(layer, dict)]}

    def _layer(self, comp_id: str, layer: dict, index: int) -> dict:
        layer_id = str(layer.get("ind", index))
        paths, expressions, effects = [], {}, []

        def found(path: str, prop: dict, text: bool = False) -> None:
            place = Place(comp_id, layer, path, prop, self.rate, text)
            self.places[f"{comp_id}/{layer_id}/{path}"] = place
            paths.append(path)
            if place.had_expression:
                source = prop["x"]
                # bodymovin keeps the result in $bm_rt: read it at the end.
                expressions[path] = source + "\n;$bm_rt" if "$bm_rt" in source else source

        for short, path in TRANSFORM.items():
            prop = (layer.get("ks") or {}).get(short)
            if isinstance(prop, dict):
                found(path, prop)
        for number, effect in enumerate(layer.get("ef") or [], start=1):
            if not isinstance(effect, dict):
                continue
            params = []
            for param in effect.get("ef") or []:
                if isinstance(param, dict) and isinstance(param.get("v"), dict):
                    params.append(str(param.get("nm", len(params) + 1)))
                    found(f"effects.{number}.{params[-1]}", param["v"])
            effects.append({"id": str(number), "name": str(effect.get("nm", number)),
                            "params": params})
        document = (layer.get("t") or {}).get("d")
        if layer.get("ty") == 5 and isinstance(document, dict):
            found("text", document, text=True)
        for path, prop in _other_properties(layer):
            found(path, prop)
        return {"id": layer_id, "name": str(layer.get("nm", f"Layer {index}")), "index": index,
                "inPoint": layer.get("ip", 0) / self.rate,
                "outPoint": layer.get("op", 0) / self.rate,
                "startTime": layer.get("st", 0) / self.rate, "enabled": not layer.get("hd"),
                "parent": str(layer["parent"]) if "parent" in layer else None,
                "width": layer.get("sw", layer.get("w", 0)),
                "height": layer.get("sh", layer.get("h", 0)), "markers": [],
                "effects": effects, "masks": [], "paths": paths,
                "textPath": "text" if layer.get("ty") == 5 else None,
                "expressions": expressions}

    # -- api.js's questions ----------------------------------------------------------------

    def own(self, place: Place, time: float):
        return place.value_at(time)

    def answer(self, kind: str, key: str, time: float):
        place = self.places[key]
        if kind == "v":
            return place.value_at(time)
        if kind == "k":
            return place.keys()
        raise ValueError("sourceRectAtTime is not available when baking a Lottie file")

    def sentence(self, place: Place, time: float | None, what: str) -> str:
        at = f" at frame {round(time * self.rate)}" if time is not None else ""
        return (f"the expression on {place.path} of layer "
                f"{place.layer.get('nm', place.layer.get('ind'))!r}"
                f"{'' if place.comp == 'main' else f' in precomp {place.comp!r}'} failed{at}: "
                f"{what}; it keeps its keys")


def _other_properties(layer: dict):
    """The layer's other animatable properties (shapes', masks') with an expression, by their
    place in the layer's JSON: the expression reads its own value and keys through them."""
    stack = [(name, layer[name]) for name in ("shapes", "masksProperties") if name in layer]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            if "k" in node and isinstance(node.get("x"), str):
                yield path, node
                continue
            stack.extend((f"{path}.{key}", value) for key, value in node.items()
                         if isinstance(value, (dict, list)))
        elif isinstance(node, list):
            stack.extend((f"{path}.{number}", value) for number, value in enumerate(node))


def _plain(value, prop: dict):
    """A value as an expression reads it: a number for a one-dimensional property (Lottie
    keeps its keys' values as [v])."""
    if isinstance(value, list) and len(value) == 1 and (
            not isinstance(prop.get("k"), list) or prop.get("a") == 1):
        return value[0]
    return value


def _document_at(prop: dict, frame: float) -> dict:
    """A text layer's document (its `s`) in effect at `frame`."""
    keys = prop.get("k") if isinstance(prop.get("k"), list) else []
    current = keys[0].get("s", {}) if keys else {}
    for key in keys:
        if isinstance(key, dict) and key.get("t", 0) <= frame:
            current = key.get("s", current)
    return dict(current)
