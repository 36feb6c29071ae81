"""A document's expressions, bound to this thread's sandbox, and the copy of the document the
compositor draws: each property that has an expression replaced by a `Driven` one
(protocol/model/keyframes.py), whose value at a time is the expression's result.

    bound = DocumentExpressions(document, content_rect)   # once per render plan
    bound.document        # the copy to draw (the document itself when it has none)
    bound.value(key, t)   # one property's result, checked as its value kind

The expression reads the stored document: a property's own value (before its expression) and
keys, another property's result, a layer's content box (`content_rect(document, comp, layer,
time)`, the compositor's, over the driven copy, so a text's box follows its expression). Results are kept
per (property, time): the same time asked twice costs one evaluation, and since each result is
a pure function of the two, which worker or chunk asks first changes nothing.

A failed expression raises ExpressionError (a ValueError), one sentence naming the property,
the layer, the comp, the time and the place in the expression, so a render fails that item and
a preview says it.
"""

from __future__ import annotations

import copy
import json
from functools import partial
from typing import Callable

from protocol.model.effects import EFFECTS
from protocol.model.expressions import expression_path
from protocol.model.keyframes import Driven, is_animated, value_at
from protocol.model.layers import content_box
from protocol.model.numbers import MAX_NUMBER
from protocol.model.property_paths import PropertyRef, canonical_path, paths_of, resolve
from protocol.model.values import check_value, describe
from workers.expressions.sandbox import Fault, LimitExceeded, current_sandbox

# Results kept per document, at most: a whole chunk's frames of a few hundred expressions
# fit; past it they are dropped and evaluated again when asked (no result changes).
MAX_KEPT_RESULTS = 200_000
# Kinds whose values are [x, y]: an After Effects expression may give [x, y, z].
PLANAR_KINDS = ("vec2", "size", "sizeOrNull")
# Kinds any number (or pair of numbers) is a value of: kind -> how many numbers (0: one alone).
PLAIN_KINDS = {"number": 0, "vec2": 2}


class ExpressionError(ValueError):
    """An expression failed; the message is the sentence for a person."""


def has_expressions(document: dict) -> bool:
    return any(layer.get("expressions") for comp in document.get("comps", [])
               for layer in comp.get("layers", []))


def property_key(comp: dict, layer: dict, path: str) -> str:
    return f"{comp['id']}/{layer['id']}/{path}"


class DocumentExpressions:
    def __init__(self, document: dict,
                 content_rect: Callable[[dict, dict, dict, float], tuple] | None = None) -> None:
        self.stored = document
        self._content_rect = content_rect
        self._places: dict[str, tuple[dict, dict, str]] = {}  # key -> (comp, layer, path)
        self._refs: dict[str, PropertyRef] = {}
        self._kept: dict[tuple, object] = {}
        self._active: set[str] = set()
        self.document = self._driven_copy(document)
        self.scene = json.dumps(self._scene_of(document))
        # The sandbox is the evaluating thread's, asked for each time: a plan may be drawn
        # from by another thread than the one that made it (a Dask worker's).
        self.compile_faults = current_sandbox().load(self)

    # -- results --------------------------------------------------------------------------

    def value(self, key: str, time: float):
        """The result of the expression on property `key` at `time`, as its value kind."""
        return self.values(key, [time])[0]

    def values(self, key: str, times) -> list:
        """The results at each of `times`: the ones not kept yet evaluated in one batch."""
        times = [float(time) for time in times]
        missing = sorted({time for time in times if (key, time) not in self._kept})
        if missing:
            if key in self._active:
                # Asked again from inside its own evaluation (a text's sourceRectAtTime
                # reading the text): its own value, as the expression itself reads it.
                return [value_at(self._ref(key).value, time) for time in times]
            self._evaluate(key, missing)
        return [self._kept[(key, time)] for time in times]

    def _evaluate(self, key: str, times: list[float]) -> None:
        stored = self._ref(key).value
        self._active.add(key)
        try:
            results = current_sandbox().evaluate(self, key, times,
                                                 [value_at(stored, time) for time in times])
        except Fault as fault:
            raise ExpressionError(self._failed(fault, key)) from None
        except LimitExceeded as limit:
            raise ExpressionError(self._sentence(key, limit.time, limit.what())) from None
        finally:
            self._active.discard(key)
        if len(self._kept) + len(times) > MAX_KEPT_RESULTS:
            self._kept.clear()
        for time, result in zip(times, results):
            self._kept[(key, time)] = self._checked(key, time, result)

    def _checked(self, key: str, time: float, result):
        kind = self._ref(key).kind
        if kind in PLAIN_KINDS and _plain(result, PLAIN_KINDS[kind]):
            return result  # the common case, without check_value's general walk
        if kind in PLANAR_KINDS and isinstance(result, list) and len(result) == 3:
            result = result[:2]
        if kind == "string" and isinstance(result, (int, float)) and \
                not isinstance(result, bool):
            result = _as_text(result)
        try:
            return check_value(kind, result)
        except ValueError as error:
            shown = json.dumps(result)
            if len(shown) > 80:
                shown = shown[:77] + "..."
            hint = ""
            if isinstance(result, str) and "," in result and kind != "string":
                hint = ("; `+` on arrays joins them as text in JavaScript: use add(a, b), "
                        "sub, mul and div for vector math")
            raise ExpressionError(self._sentence(
                key, time, f"it gave {shown}, and {self._places[key][2]} needs "
                f"{describe(kind)} ({error}){hint}")) from None

    def _failed(self, fault: Fault, key: str) -> str:
        """The sentence for a fault met evaluating `key`: it names the expression that raised
        it (another one, which `key`'s read, when that is where it was)."""
        where = fault.slot if fault.slot in self._places else key
        reader = ""
        if where != key:
            _, layer, path = self._places[key]
            reader = f" (read by the expression on {path} of layer {layer['name']!r})"
        return self._sentence(where, fault.time, fault.what(), reader)

    def _sentence(self, key: str, time: float, what: str, reader: str = "") -> str:
        comp, layer, path = self._places[key]
        frame = round(time * float(comp.get("frameRate", 30)), 3)
        frame_text = f"frame {int(frame)}" if frame == int(frame) else f"frame {frame:g}"
        return (f"The expression on {path} of layer {layer['name']!r} in comp "
                f"{comp['name']!r}{reader} failed at {time:g} s ({frame_text}): {what}. Fix it "
                "with prop.setExpression (expression.check tries it), or remove it with an "
                "expression of null.")

    # -- what the sandbox asks (api.js's questions) -------------------------------------

    def answer(self, kind: str, key: str, time: float):
        if kind == "v":  # a property's own value at `time` (before its expression)
            return value_at(self._ref(key).value, time)
        if kind == "k":
            stored = self._ref(key).value
            return [[k["time"], k["value"]] for k in stored["keys"]] if is_animated(stored) \
                else []
        if kind == "r":
            return self._rect(key, time)
        raise ValueError(f"api.js asked {kind!r} of {key}, which no host answers")

    def _rect(self, layer_key: str, time: float) -> dict:
        if self._content_rect is None:
            raise ValueError("sourceRectAtTime is not available here")
        comp_id, layer_id = layer_key.split("/", 1)
        comp = next(c for c in self.document["comps"] if c["id"] == comp_id)
        layer = next(item for item in comp["layers"] if item["id"] == layer_id)
        left, top, right, bottom = self._content_rect(self.document, comp, layer, time)
        return {"top": top, "left": left, "width": right - left, "height": bottom - top}

    def _ref(self, key: str) -> PropertyRef:
        ref = self._refs.get(key)
        if ref is None:
            comp_id, layer_id, path = key.split("/", 2)
            comp = next(c for c in self.stored["comps"] if c["id"] == comp_id)
            layer = next(item for item in comp["layers"] if item["id"] == layer_id)
            ref = self._refs[key] = resolve(layer, path)
            self._places.setdefault(key, (comp, layer, path))
        return ref

    # -- the document as the compositor reads it --------------------------------------------

    def _driven_copy(self, document: dict) -> dict:
        """The document, with each comp that has expressions copied down to its layers that
        have them (the rest shared), and in those the driven properties."""
        comps = []
        for comp in document.get("comps", []):
            if not any(layer.get("expressions") for layer in comp["layers"]):
                comps.append(comp)
                continue
            comp = dict(comp)
            layers = []
            for layer in comp["layers"]:
                if layer.get("expressions"):
                    original = layer
                    layer = copy.deepcopy(layer)
                    for path in original["expressions"]:
                        key = property_key(comp, original, path)
                        self._places[key] = (comp, original, path)
                        self._refs[key] = resolve(original, path)
                        target = resolve(layer, path)
                        target.container[target.key] = Driven(
                            self._refs[key].value, partial(self.value, key),
                            partial(self.values, key))
                layers.append(layer)
            comp["layers"] = layers
            comps.append(comp)
        return dict(document, comps=comps)

    def _scene_of(self, document: dict) -> dict:
        return {"comps": [{
            "id": comp["id"], "name": comp["name"], "width": comp["width"],
            "height": comp["height"], "frameRate": comp["frameRate"],
            "duration": comp["duration"], "markers": _markers(comp),
            "layers": [_layer_scene(document, layer, index)
                       for index, layer in enumerate(comp["layers"], start=1)]}
            for comp in document.get("comps", [])]}


def _layer_scene(document: dict, layer: dict, index: int) -> dict:
    width, height = content_box(document, layer)
    return {
        "id": layer["id"], "name": layer["name"], "index": index,
        "inPoint": layer["inPoint"], "outPoint": layer["outPoint"],
        "startTime": layer.get("startTime", 0.0), "enabled": layer.get("enabled", True),
        "parent": layer.get("parent"), "width": width, "height": height,
        "markers": _markers(layer),
        "effects": [{"id": fx["id"], "name": fx["effect"], "params": list(EFFECTS[fx["effect"]])}
                    for fx in layer.get("effects", [])],
        "masks": [{"id": mask["id"], "name": mask["name"]} for mask in layer.get("masks", [])],
        "paths": [_canonical(layer, path) for path in paths_of(layer)],
        "textPath": "text" if layer["type"] == "text" else None,
        "expressions": layer.get("expressions") or {},
    }


def _canonical(layer: dict, path: str) -> str:
    try:
        return expression_path(layer, path)[0]
    except ValueError:  # a property no expression can be on is still one an expression reads
        return canonical_path(layer, path)


def _markers(owner: dict) -> list:
    return [{"name": m["name"], "time": m["time"], "duration": m.get("duration", 0)}
            for m in owner.get("markers", [])]


def _plain(result, count: int) -> bool:
    """Whether `result` is `count` plain numbers (0: one number) within the document's range;
    api.js has already refused NaN and the infinities."""
    if count == 0:
        return type(result) in (int, float) and -MAX_NUMBER <= result <= MAX_NUMBER
    return type(result) is list and len(result) == count and all(
        type(x) in (int, float) and -MAX_NUMBER <= x <= MAX_NUMBER for x in result)


def _as_text(number: float) -> str:
    """A number as JavaScript's String() writes it, for a text property."""
    if float(number).is_integer() and abs(number) < 1e21:
        return str(int(number))
    return json.dumps(number)
