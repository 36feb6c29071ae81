"""Template params: named values a render may change in a project (docs/document.md,
"Template params"), and a row of such values applied to a copy of the document.

A param has a name (an identifier), a type, targets (properties of layers, or footage items),
an optional default and a description. Its type says what a value is (`color`: a color) and
how a text spells one (`"#ff0000"`, `0.5`, `[100, 200]`): a CSV cell and `--set NAME=VALUE`
are texts, a JSON row gives values. A value is checked twice, as its type and then as each
target's own kind (protocol/model/values.py), so a `number` driving a size must be above 0.

Values come from a render's row (a queue item's `params`, a `--data` row, `--set`); a param
the row leaves out takes its default, and a param without a default must be given. Applying
them sets every target to its param's value, statically (keys a target has are replaced in
that copy), and points footage targets at the row's file.

Targets are stored by id and left in the document when their layer, comp, effect or footage
goes: such a target is reported by `target_problem` and refused when values are applied, so
a template never renders a row with one of its values silently dropped.

Pure: no I/O. Probing a row's footage file, checking a font is installed and confinement are
the supervisor's (supervisor/engine/template_values.py); they hand the probed fields in.
"""

from __future__ import annotations

import copy
import json
import os
import re
from dataclasses import dataclass
from typing import Any, Callable

from protocol.model.colors import normalize_color
from protocol.model.keyframes import static_value
from protocol.model.limits import MAX_TEXT_LENGTH
from protocol.model.property_paths import resolve
from protocol.model.values import check_value, describe

NAME_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# A name is a column header and an output field ([param:NAME]); past this it is a sentence.
MAX_NAME_LENGTH = 64
# How deep a row's value may nest: a color or a point is one list, a gradient's stops three
# levels. Deeper is no value any param takes, and a JSON text nested 100,000 deep would make a
# parser recurse past its stack.
MAX_VALUE_DEPTH = 16
PARAM_KEYS = ("name", "type", "description", "targets")
OPTIONAL_PARAM_KEYS = ("default",)


class ParamError(ValueError):
    """A value (or a name) a row gives that cannot be used; `name` is the param (a column),
    the message a fragment that follows it: `expected a color ..., got 'blue'`."""

    def __init__(self, name: str, problem: str):
        self.name = name
        self.problem = problem
        super().__init__(problem)


class TargetError(ValueError):
    """A param whose target cannot be set (its layer or footage is gone, its path no longer
    names a property); the message is the whole sentence, without the final period."""


# -- types -------------------------------------------------------------------------------------

def _number_text(text: str) -> Any:
    try:
        number = float(text.strip())
    except ValueError:
        raise ValueError(f"expected a number such as 0.5, got {text!r}") from None
    return int(number) if number.is_integer() and abs(number) < 2 ** 53 else number


def _list_text(text: str) -> Any:
    """`[100, 200]` (JSON) as a list; anything else as it is, for the kind to judge."""
    stripped = text.strip()
    if not stripped.startswith("["):
        return stripped
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        raise ValueError(f"expected a JSON list such as [100, 200], got {text!r:.80}") from None
    problem = value_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def _bool_text(text: str) -> Any:
    words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
    value = words.get(text.strip().lower())
    if value is None:
        raise ValueError(f"expected true or false, got {text!r}")
    return value


@dataclass(frozen=True)
class ParamType:
    name: str
    kinds: frozenset  # the value kinds (protocol/model/values.py) a param of the type drives
    base: Any  # the kind every value is checked as first (None: the targets' kinds alone)
    parse: Callable[[str], Any] | None  # a text (a CSV cell, --set) to a value; None: as is
    hint: str  # what a value looks like, for catalogs and errors


TYPES: dict[str, ParamType] = {spec.name: spec for spec in (
    ParamType("text", frozenset({"string"}), "string", None, "any text"),
    ParamType("number", frozenset({"number", "positive", "nonNegative", "weight",
                                   "numberOrNull"}), "number", _number_text,
              "a number such as 0.5"),
    ParamType("color", frozenset({"color", "colorOrNull", "fill"}), "color", _list_text,
              'a color such as "#ff0000" or [1, 0, 0]'),
    ParamType("vec2", frozenset({"vec2", "size", "sizeOrNull"}), "vec2", _list_text,
              "[x, y] such as [100, 200]"),
    ParamType("font", frozenset(), "string", None, "a font family such as Lato"),
    ParamType("boolean", frozenset({"bool"}), "bool", _bool_text, "true or false"),
    ParamType("choice", frozenset(), None, None, "one of the property's choices"),
    ParamType("footage", frozenset(), "path", None, "a file path (an image, a video, ...)"),
)}
# Content keys whose string is a font family rather than text to show.
FONT_KEYS = ("font",)


def type_for(kind: Any, key: str) -> str | None:
    """The param type that drives a property of value kind `kind` named `key`, or None."""
    if key in FONT_KEYS:
        return "font"
    if isinstance(kind, tuple):
        return "choice"
    return next((spec.name for spec in TYPES.values() if kind in spec.kinds), None)


def check_value_as(type_name: str, value: Any, kinds: list = ()) -> Any:
    """`value` (a text is parsed first) as a param of `type_name` driving properties of
    `kinds`, normalised (a color in its four-component form); ValueError with a fragment."""
    spec = TYPES[type_name]
    if isinstance(value, str) and spec.parse is not None:
        value = spec.parse(value)
    if spec.base is not None:
        value = check_value(spec.base, value)
    for kind in kinds:
        value = check_value(kind, value)
    return value


# -- the document's params ---------------------------------------------------------------------

def check_name(name: Any) -> str:
    """A param name: an identifier (a column header, a [param:NAME] field); ValueError."""
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        raise ValueError(f"a param name is an identifier (letters, digits and _, not starting "
                         f"with a digit), such as title or accent_color; got {name!r}")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"a param name is at most {MAX_NAME_LENGTH} characters; "
                         f"{name[:20]!r}... has {len(name)}")
    return name


def check_params(params: Any, place: str, fail: Callable[[str, str], Exception]) -> list:
    """The document's `params` list, normalised; `fail(place, problem)` makes the error
    (protocol/model/document.py's DocumentError), so a file names the place of a problem."""
    if not isinstance(params, list):
        raise fail(place, f"expected a list of params, got {params!r}")
    names: set = set()
    for index, param in enumerate(params):
        where = f"{place}[{index}]"
        if not isinstance(param, dict):
            raise fail(where, f"expected a param object, got {param!r}")
        missing = [key for key in PARAM_KEYS if key not in param]
        unknown = sorted(set(param) - set(PARAM_KEYS) - set(OPTIONAL_PARAM_KEYS))
        if missing or unknown:
            problem = (f"missing {', '.join(missing)}" if missing else
                       f"unknown key {unknown[0]!r}; the keys here are "
                       f"{', '.join(PARAM_KEYS + OPTIONAL_PARAM_KEYS)}")
            raise fail(where, problem)
        try:
            check_name(param["name"])
            if param["name"] in names:
                raise ValueError(f"{param['name']!r} is the name of another param; names must "
                                 "be unique")
            if param["type"] not in TYPES:
                raise ValueError(f"type must be one of {', '.join(TYPES)}, got "
                                 f"{param['type']!r}")
            check_value("string", param["description"])
            if "default" in param:
                param["default"] = check_value_as(param["type"], param["default"])
        except ValueError as error:
            raise fail(where, str(error)) from None
        names.add(param["name"])
        targets = param["targets"]
        if not isinstance(targets, list) or not targets:
            raise fail(f"{where}.targets", "expected a non-empty list of targets")
        for number, target in enumerate(targets):
            problem = _target_shape_problem(target, param["type"])
            if problem:
                raise fail(f"{where}.targets[{number}]", problem)
    return params


def _target_shape_problem(target: Any, type_name: str) -> str | None:
    if type_name == "footage":
        if isinstance(target, dict) and set(target) == {"footage"} and \
                isinstance(target["footage"], str):
            return None
        return f'a footage param\'s target is {{"footage": ID}}, got {target!r}'
    if isinstance(target, dict) and set(target) == {"comp", "layer", "path"} and \
            all(isinstance(target[key], str) for key in target):
        return None
    return f'a target is {{"comp": ID, "layer": ID, "path": PATH}}, got {target!r}'


def params_of(doc: dict) -> list:
    return doc.get("params") or []


def find_param(doc: dict, name: Any) -> dict | None:
    return next((param for param in params_of(doc) if param["name"] == name), None)


def names_listed(doc: dict) -> str:
    names = [param["name"] for param in params_of(doc)]
    return ", ".join(names) if names else "none (template.addParam makes one)"


# -- targets -----------------------------------------------------------------------------------

@dataclass
class ResolvedTarget:
    container: dict  # the dict holding the value: a layer's content, an effect's params, ...
    key: str
    kind: Any  # its value kind
    label: str  # `text of layer 'Title' in comp 'Main'`, `footage 'logo.png'`


def resolve_target(doc: dict, target: dict) -> ResolvedTarget:
    """The property or footage item a target names in `doc`; TargetError when it is gone."""
    if "footage" in target:
        footage = next((f for f in doc.get("footage", []) if f["id"] == target["footage"]),
                       None)
        if footage is None:
            raise TargetError(f"its footage {target['footage']} is no longer in the project")
        return ResolvedTarget(footage, "path", "path", f"footage {footage['name']!r}")
    comp = next((c for c in doc.get("comps", []) if c["id"] == target["comp"]), None)
    if comp is None:
        raise TargetError(f"its comp {target['comp']} is no longer in the project")
    layer = next((layer for layer in comp["layers"] if layer["id"] == target["layer"]), None)
    if layer is None:
        raise TargetError(f"its layer {target['layer']} is no longer in comp {comp['name']!r}")
    try:
        ref = resolve(layer, target["path"])
    except ValueError as error:
        raise TargetError(str(error)) from None
    return ResolvedTarget(ref.container, ref.key, ref.kind,
                          f"{target['path']} of layer {layer['name']!r} in comp "
                          f"{comp['name']!r}")


def target_problem(doc: dict, param: dict, target: dict) -> str | None:
    """Why `target` of `param` cannot be set any more, or None."""
    try:
        resolved = resolve_target(doc, target)
    except TargetError as error:
        return str(error)
    if "footage" not in target and type_for(resolved.kind, resolved.key) != param["type"]:
        return (f"{resolved.label} now takes {describe(resolved.kind)}, which a "
                f"{param['type']} param cannot set")
    return None


def target_kinds(doc: dict, param: dict) -> list:
    """The value kinds of a param's targets (each value must suit all of them);
    TargetError naming the param when one is gone."""
    kinds = []
    for target in param["targets"]:
        problem = target_problem(doc, param, target)
        if problem is not None:
            raise TargetError(f"param {param['name']!r} cannot be set: {problem}; remove that "
                              "target with template.removeParam, or bind it again")
        if "footage" not in target:
            resolved = resolve_target(doc, target)
            kinds.append(resolved.kind)
    return kinds


# -- a row's values ----------------------------------------------------------------------------

def value_problem(value: Any) -> str | None:
    """Why a row's value (a cell, a --set text, a JSON row's value) is no value of any param,
    as a fragment; None when it may be one. Walked without recursion: a value nested past the
    bound is refused, never followed down."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if len(item) > MAX_TEXT_LENGTH:
                return (f"is {len(item):,} characters long, over the {MAX_TEXT_LENGTH:,} a "
                        "value may have")
            if "\0" in item:
                return "holds a NUL character, which no text, name or path may"
        elif isinstance(item, (list, dict)):
            if depth > MAX_VALUE_DEPTH:
                return f"nests more than {MAX_VALUE_DEPTH} lists or objects deep"
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return None


def check_row(doc: dict, given: Any) -> dict:
    """The values a row gives (name -> value), each checked against its param's type and
    targets and normalised; ParamError for an unknown name or a bad value, TargetError for a
    param whose target is gone. Footage values stay paths: the caller checks the files."""
    if not isinstance(given, dict):
        raise ParamError("", f'params are an object {{"NAME": VALUE}}, got {given!r}')
    checked = {}
    for name, value in given.items():
        param = find_param(doc, name)
        if param is None:
            raise ParamError(name, f"is not a param of this project; its params are "
                                   f"{names_listed(doc)}")
        problem = value_problem(value)
        if problem is not None:
            raise ParamError(name, problem)
        kinds = target_kinds(doc, param)
        try:
            checked[name] = check_value_as(param["type"], value, kinds)
        except ValueError as error:
            raise ParamError(name, str(error)) from None
    return checked


def resolved_values(doc: dict, given: dict, require: bool = True) -> dict:
    """Every param's value for a row: the row's, else the default; ParamError naming a param
    that has neither, unless not `require` (a preview), which leaves that one out (its targets
    keep what the document holds)."""
    values = {}
    for param in params_of(doc):
        if param["name"] in given:
            values[param["name"]] = given[param["name"]]
        elif "default" in param:
            values[param["name"]] = param["default"]
        elif require:
            raise ParamError(param["name"], "has no default, so a value must be given")
    return values


def footage_paths(doc: dict, values: dict) -> dict:
    """Param name -> the file a footage param's value names, for the caller to probe."""
    return {param["name"]: values[param["name"]] for param in params_of(doc)
            if param["type"] == "footage" and param["name"] in values}


def apply_values(doc: dict, values: dict, footage_fields: dict | None = None) -> dict:
    """A copy of `doc` with every param's target set to its value in `values` (checked, with a
    value for every param: `resolved_values`). `footage_fields` maps a footage value (a path)
    to its probed fields (footage.import's), which replace the footage item's; without them
    only its path changes. TargetError for a param whose target is gone.

    The copy shares with `doc` every part no value changes: each layer and footage item a
    value sets is a copy of its own, and the lists and comps above them. So the rows of a
    large project cost a copy of a few layers each, not of the project (a render holds every
    row's document); neither document may be edited in place afterwards."""
    applied = dict(doc, comps=list(doc["comps"]), footage=list(doc["footage"]))
    owned: set = set()
    for param in params_of(applied):
        if param["name"] not in values:
            continue
        target_kinds(applied, param)  # every target still there, before any is set
        value = values[param["name"]]
        for target in param["targets"]:
            _own(applied, target, owned)
            resolved = resolve_target(applied, target)
            if "footage" in target:
                _point_footage(resolved.container, value, (footage_fields or {}).get(value))
            else:
                resolved.container[resolved.key] = copy.deepcopy(value)
    return applied


def _own(applied: dict, target: dict, owned: set) -> None:
    """Put a copy of the target's layer (with its comp and layer list) or footage item in
    `applied` in place of the one it shares with the document it was made from."""
    if "footage" in target:
        if target["footage"] not in owned:
            owned.add(target["footage"])
            index = next(i for i, f in enumerate(applied["footage"])
                         if f["id"] == target["footage"])
            applied["footage"][index] = dict(applied["footage"][index])
        return
    index = next(i for i, c in enumerate(applied["comps"]) if c["id"] == target["comp"])
    if target["comp"] not in owned:
        owned.add(target["comp"])
        comp = applied["comps"][index]
        applied["comps"][index] = dict(comp, layers=list(comp["layers"]))
    layers = applied["comps"][index]["layers"]
    if target["layer"] not in owned:
        owned.add(target["layer"])
        position = next(i for i, layer in enumerate(layers) if layer["id"] == target["layer"])
        layers[position] = copy.deepcopy(layers[position])


def _point_footage(footage: dict, path: str, fields: dict | None) -> None:
    if fields is None:
        footage["path"] = path
        return
    for key in ("frameRate", "duration", "frameCount", "firstFrame"):
        footage.pop(key, None)
    footage.update({key: value for key, value in fields.items() if key != "id"})


def current_value(doc: dict, param: dict) -> Any:
    """What the param's first target holds now (its first key's value if it is animated), or
    None when that target is gone: what template.list shows beside the default."""
    try:
        resolved = resolve_target(doc, param["targets"][0])
    except TargetError:
        return None
    return copy.deepcopy(static_value(resolved.container[resolved.key]))


# -- output names ------------------------------------------------------------------------------

def item_fields(doc: dict, item: dict) -> dict:
    """Param name -> its value as file name text for a queue item's output ([param:NAME]):
    the item's params over the defaults; a param with neither is left out."""
    given = item.get("params") or {}
    fields = {}
    for param in params_of(doc):
        if param["name"] in given:
            fields[param["name"]] = value_text(param["type"], given[param["name"]])
        elif "default" in param:
            fields[param["name"]] = value_text(param["type"], param["default"])
    return fields


def value_text(type_name: str, value: Any) -> str:
    """A value as part of a file name: a number as 0.5, a color as ff0000 (alpha added when
    not opaque), [x, y] as 100x200, a footage file as its name without the extension."""
    if type_name == "footage" and isinstance(value, str):
        return os.path.splitext(os.path.basename(value))[0]
    if type_name == "color":
        try:
            channels = normalize_color(value)
        except ValueError:
            return str(value)
        digits = channels if channels[3] < 1 else channels[:3]
        return "".join(f"{round(c * 255):02x}" for c in digits)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"{value:g}"
    if isinstance(value, list):
        return "x".join(value_text(type_name, part) for part in value)
    return str(value)[:MAX_TEXT_LENGTH]
