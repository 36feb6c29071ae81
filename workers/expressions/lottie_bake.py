"""A Lottie animation's After Effects expressions evaluated into keys (lottie.bake), so a
player that cannot run them (ThorVG, which rendervisor draws Lottie with) plays the file as
designed.

    baked, report = bake(animation)   # a copy; report: {expressions, baked, failed}

Each property with an expression (`"x"`) gets a hold key at every frame of the animation
(`ip` to `op`; in a precomp, every frame of its own time the layers showing it reach), its value there the expression's, evaluated by this worker's sandbox exactly as
a rendervisor layer's expression is (the same API, the same determinism). What the expression
reads as `value` is the property's own keys, interpolated as Lottie does (per-dimension
bezier eases, holds; a position along its curved motion path as lottie-web moves it). Layers are
found by name (`nm`) and index (`ind`), their transform by After Effects' names, effects by
name or match name with their params (`effect("Slider Control")("Slider")`, a Layer
Control's param read as its layer), a shape layer's contents as lottie-web's `content()`
finds them (each item by name, match name or index; every shape property readable, a path
with `points()`, `pointOnPath()` and kin), time remapping; what bodymovin writes around
an expression (`var $bm_rt; $bm_rt = ...;`, `$bm_sum` and its kin) is understood.

An expression that fails (it uses what the API lacks, such as `sourceRectAtTime()`) keeps its
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

# A shape item's properties as lottie-web's expressions name them: by its own name (the first,
# what `.name` reads), After Effects' display name and match name. Keyed by the item's `ty`.
SHAPE_PROPERTIES = {
    "sh": {"ks": ("path", "Path", "shape", "Shape", "ADBE Vector Shape")},
    "el": {"s": ("size", "Size", "ADBE Vector Ellipse Size"),
           "p": ("position", "Position", "ADBE Vector Ellipse Position")},
    "rc": {"s": ("size", "Size", "ADBE Vector Rect Size"),
           "p": ("position", "Position", "ADBE Vector Rect Position"),
           "r": ("roundness", "Roundness", "ADBE Vector Rect Roundness")},
    "sr": {"p": ("position", "Position", "ADBE Vector Star Position"),
           "r": ("rotation", "Rotation", "ADBE Vector Star Rotation"),
           "pt": ("points", "Points", "ADBE Vector Star Points"),
           "ir": ("innerRadius", "Inner Radius", "ADBE Vector Star Inner Radius"),
           "is": ("innerRoundness", "Inner Roundness", "ADBE Vector Star Inner Roundess"),
           "or": ("outerRadius", "Outer Radius", "ADBE Vector Star Outer Radius"),
           "os": ("outerRoundness", "Outer Roundness", "ADBE Vector Star Outer Roundess")},
    "fl": {"c": ("color", "Color", "ADBE Vector Fill Color"),
           "o": ("opacity", "Opacity", "ADBE Vector Fill Opacity")},
    "st": {"c": ("color", "Color", "ADBE Vector Stroke Color"),
           "o": ("opacity", "Opacity", "ADBE Vector Stroke Opacity"),
           "w": ("strokeWidth", "Stroke Width", "ADBE Vector Stroke Width")},
    "gf": {"o": ("opacity", "Opacity", "ADBE Vector Grad Opacity"),
           "s": ("startPoint", "Start Point", "ADBE Vector Grad Start Pt"),
           "e": ("endPoint", "End Point", "ADBE Vector Grad End Pt")},
    "tm": {"s": ("start", "Start", "ADBE Vector Trim Start"),
           "e": ("end", "End", "ADBE Vector Trim End"),
           "o": ("offset", "Offset", "ADBE Vector Trim Offset")},
    "tr": {"a": ("anchorPoint", "Anchor Point", "ADBE Vector Anchor"),
           "p": ("position", "Position", "ADBE Vector Position"),
           "s": ("scale", "Scale", "ADBE Vector Scale"),
           "r": ("rotation", "Rotation", "ADBE Vector Rotation"),
           "o": ("opacity", "Opacity", "ADBE Vector Group Opacity"),
           "sk": ("skew", "Skew", "ADBE Vector Skew"),
           "sa": ("skewAxis", "Skew Axis", "ADBE Vector Skew Axis")},
    "rp": {"c": ("copies", "Copies", "ADBE Vector Repeater Copies"),
           "o": ("offset", "Offset", "ADBE Vector Repeater Offset")},
    "rd": {"r": ("radius", "Radius", "ADBE Vector RoundCorner Radius")},
}
SHAPE_PROPERTIES["gs"] = {**SHAPE_PROPERTIES["gf"], "w": SHAPE_PROPERTIES["st"]["w"]}

# Effects' params whose value is a layer (After Effects' Layer Control): read as that layer.
LAYER_PARAM = 10


def bake(animation: dict, *, whole_only: int | None = None) -> tuple[dict, dict]:
    """A copy of the animation with its expressions baked into keys, and what was done:
    {expressions: how many, baked: how many, failed: [sentence, ...]}. `whole_only`: for a
    bake that is of use only whole (drawing): at most that many evaluations (an expression
    at a frame), and none after the first expression that fails, so a file of many runaway
    expressions costs one. Both bounds are counts, not times: the same file is evaluated or
    not on every machine, however busy."""
    animation = copy.deepcopy(animation)
    host = LottieHost(animation)
    seen = frames_seen(animation)
    rate = float(animation["fr"])
    failed = []
    if whole_only is not None:
        wanted = sum(max(1, seen.get(place.comp, seen["main"])[1] -
                         seen.get(place.comp, seen["main"])[0])
                     for place in host.places.values() if isinstance(place.prop.get("x"), str))
        if wanted > whole_only:
            failed.append(f"its expressions need {wanted} evaluations, more than the "
                          f"{whole_only} evaluated for drawing")
    for key, place in host.places.items():
        if not isinstance(place.prop.get("x"), str):
            continue
        if whole_only is not None and failed:
            break
        first, end = seen.get(place.comp, seen["main"])
        frames = list(range(first, max(first + 1, end)))
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
        place.bake(frames, [_as_lottie_path(value) for value in values])
    count = sum(1 for place in host.places.values() if place.had_expression)
    return animation, {"expressions": count, "baked": count - len(failed), "failed": failed}


def frames_seen(animation: dict) -> dict[str, tuple[int, int]]:
    """The frames of each comp's own time the animation shows, [first, end): the main comp's
    `ip` to `op`; a precomp's, where the layers showing it reach into it (shifted by their
    start `st`, stretched by `sr`; a time-remapped one over its layers' own in and out)."""
    comps = {str(asset["id"]): asset["layers"] for asset in animation.get("assets") or []
             if isinstance(asset, dict) and isinstance(asset.get("layers"), list)}
    seen = {"main": (float(animation["ip"]), float(animation["op"]))}
    todo = ["main"]
    for _ in range(1000):  # precomps nest a few deep; a file whose refer to each other ends
        if not todo:
            break
        comp = todo.pop()
        first, end = seen[comp]
        for layer in (animation.get("layers") or []) if comp == "main" else comps[comp]:
            inner = str(layer.get("refId")) if isinstance(layer, dict) else None
            if inner not in comps:
                continue
            if "tm" in layer:
                own = [child for child in comps[inner] if isinstance(child, dict)]
                reach = (min((child.get("ip", 0) for child in own), default=0),
                         max((child.get("op", 0) for child in own), default=0))
            else:
                stretch = layer.get("sr") or 1
                shown = (max(first, layer.get("ip", first)), min(end, layer.get("op", end)))
                reach = tuple((frame - layer.get("st", 0)) / stretch for frame in shown)
            if reach[0] >= reach[1]:
                continue
            was = seen.get(inner)
            now = reach if was is None else (min(was[0], reach[0]), max(was[1], reach[1]))
            if now != was:
                seen[inner] = now
                todo.append(inner)
    return {comp: (int(first // 1), int(-(-end // 1))) for comp, (first, end) in seen.items()}


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
        if self.prop.get("s") is True and isinstance(self.prop.get("x"), dict):
            # a position given as separate x and y
            return [_plain(lottie_values.value_at(self.prop[axis], time * self.rate),
                           self.prop[axis]) for axis in ("x", "y")]
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
            if f"{comp_id}/{layer_id}/{path}" in self.places:
                return  # a shape's property with an expression, met again
            place = Place(comp_id, layer, path, prop, self.rate, text)
            self.places[f"{comp_id}/{layer_id}/{path}"] = place
            paths.append(path)
            if place.had_expression:
                source = prop["x"]
                # bodymovin keeps the result in $bm_rt: read it at the end.
                expressions[path] = source + "\n;$bm_rt" if "$bm_rt" in source else source

        for short, path in TRANSFORM.items():
            prop = (layer.get("ks") or {}).get(short)
            if short == "r" and not isinstance(prop, dict):
                prop = (layer.get("ks") or {}).get("rz")  # a 3D layer's turn in the picture
            if isinstance(prop, dict):
                found(path, prop)
        if isinstance(layer.get("tm"), dict):
            found("timeRemap", layer["tm"])
        for number, effect in enumerate(layer.get("ef") or [], start=1):
            if not isinstance(effect, dict):
                continue
            params, match_names, layer_params = [], [], []
            for param in effect.get("ef") or []:
                if isinstance(param, dict) and isinstance(param.get("v"), dict):
                    params.append(str(param.get("nm", len(params) + 1)))
                    match_names.append(str(param.get("mn", "")))
                    if param.get("ty") == LAYER_PARAM:
                        layer_params.append(params[-1])
                    found(f"effects.{number}.{params[-1]}", param["v"])
            effects.append({"id": str(number), "name": str(effect.get("nm", number)),
                            "matchName": str(effect.get("mn", "")), "params": params,
                            "paramMatchNames": match_names, "layerParams": layer_params})
        document = (layer.get("t") or {}).get("d")
        if layer.get("ty") == 5 and isinstance(document, dict):
            found("text", document, text=True)
        content = _content(layer.get("shapes"), "shapes", found)
        for path, prop in _other_properties(layer):
            found(path, prop)
        return {"id": layer_id, "name": str(layer.get("nm", f"Layer {index}")), "index": index,
                "inPoint": layer.get("ip", 0) / self.rate,
                "outPoint": layer.get("op", 0) / self.rate,
                "startTime": layer.get("st", 0) / self.rate, "enabled": not layer.get("hd"),
                "parent": str(layer["parent"]) if "parent" in layer else None,
                "width": layer.get("sw", layer.get("w", 0)),
                "height": layer.get("sh", layer.get("h", 0)), "markers": [],
                "effects": effects, "masks": [], "paths": paths, "content": content,
                "textPath": "text" if layer.get("ty") == 5 else None,
                "expressions": expressions}

    # -- api.js's questions ----------------------------------------------------------------

    def own(self, place: Place, time: float):
        return place.value_at(time)

    def answer(self, kind: str, key: str, time: float):
        if kind == "r":  # asked of a layer, not a property
            raise ValueError("sourceRectAtTime is not available when baking a Lottie file")
        place = self.places[key]
        return place.value_at(time) if kind == "v" else place.keys()

    def sentence(self, place: Place, time: float | None, what: str) -> str:
        at = f" at frame {round(time * self.rate)}" if time is not None else ""
        return (f"the expression on {place.path} of layer "
                f"{place.layer.get('nm', place.layer.get('ind'))!r}"
                f"{'' if place.comp == 'main' else f' in precomp {place.comp!r}'} failed{at}: "
                f"{what}; it keeps its keys")


def _content(items, path: str, found) -> list:
    """A layer's shapes as lottie-web's `content()` finds them: each item's name, match name and
    index, its properties (each registered with `found` under its place in the layer's JSON,
    so any expression can read it), a group's own items."""
    content = []
    for number, item in enumerate(items if isinstance(items, list) else []):
        if not isinstance(item, dict):
            continue
        at = f"{path}.{number}"
        node = {"name": str(item.get("nm", "")), "matchName": str(item.get("mn", "")),
                "type": item.get("ty"), "index": item.get("ix", len(content) + 1), "path": at,
                "properties": []}
        for short, names in SHAPE_PROPERTIES.get(item.get("ty"), {}).items():
            prop = item.get(short)
            if isinstance(prop, dict) and "k" in prop:
                found(f"{at}.{short}", prop)
                node["properties"].append({"names": names, "index": prop.get("ix"),
                                           "path": f"{at}.{short}"})
        if item.get("ty") == "gr":
            node["items"] = _content(item.get("it"), f"{at}.it", found)
        content.append(node)
    return content


def _as_lottie_path(value):
    """A path an expression made with createPath ({points, inTangents, outTangents, closed})
    as Lottie writes one ({v, i, o, c}); any other value as it is."""
    if isinstance(value, dict) and isinstance(value.get("points"), list):
        return {"c": bool(value.get("closed", True)),
                "v": [list(point[:2]) for point in value["points"]],
                "i": [list(point[:2]) for point in value.get("inTangents") or []],
                "o": [list(point[:2]) for point in value.get("outTangents") or []]}
    return value


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
