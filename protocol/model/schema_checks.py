"""A call's arguments against the JSON schema it declares: the one check behind both front doors
(an MCP tool's arguments, supervisor/mcp/tools/arguments.py; an engine command's params,
supervisor/engine/commands/registry.py), so a schema says what is accepted and nothing else
has to.

Each front door checks the names itself (every schema has additionalProperties: false, and
lists what is required); what is checked here is each value, against what the schemas use: its
JSON type (`type`, or the types of its `anyOf` branches), `enum`, the bounds (`minimum`,
`maximum`, `exclusiveMinimum`, `exclusiveMaximum`), and for an array its length (`minItems`,
`maxItems`) and each item against `items`. Every number anywhere in a value must be one a
project can hold (protocol/model/numbers.py). Deeper than that (an object's inner fields, a
colour, a layer that exists) is the handler's, which knows the document and names its own
fields.

`value_problem` gives a fragment ("must be at least 0, got -2.0") or None; the caller puts
the argument's name in front and says it its own way. Hand-written rather than a general
validator, because the sentence is the product: it names the argument, the accepted values and
what was given. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from protocol.model.numbers import is_number, unusable_number_in, unusable_problem

JSON_TYPES = {
    "string": lambda value: isinstance(value, str),
    "integer": lambda value: isinstance(value, int) and not isinstance(value, bool),
    "number": is_number,
    "boolean": lambda value: isinstance(value, bool),
    "array": lambda value: isinstance(value, list),
    "object": lambda value: isinstance(value, dict),
    "null": lambda value: value is None,
}
# bound -> (does the value pass it, how a failure reads)
BOUNDS = {
    "minimum": (lambda value, bound: value >= bound, "must be at least"),
    "maximum": (lambda value, bound: value <= bound, "must be at most"),
    "exclusiveMinimum": (lambda value, bound: value > bound, "must be above"),
    "exclusiveMaximum": (lambda value, bound: value < bound, "must be below"),
}


def value_problem(spec: dict, value: Any, inside_objects: bool = True) -> str | None:
    """What is wrong with one argument's value against its schema, as a fragment, or None.
    `inside_objects=False` leaves the numbers inside an object value to whoever takes the
    object (command_run's params: the engine command names its own)."""
    unusable = None if isinstance(value, dict) and not inside_objects else \
        unusable_number_in(value)
    if unusable is not None:
        where, number = unusable
        return unusable_problem(number, where)
    if isinstance(value, list):
        problem = _array_problem(spec, value)
        if problem is not None:
            return problem
    requirement = _requirement(spec, value)
    return None if requirement is None else f"{requirement}, got {_shown(value)}"


def _requirement(spec: dict, value: Any) -> str | None:
    """The requirement of `spec` that `value` fails ("must be at least 0"), or None."""
    types = types_of(spec)
    if types and not any(JSON_TYPES[name](value) for name in types):
        return f"must be {' or '.join(types)}"
    if "anyOf" in spec:
        fits = [branch for branch in spec["anyOf"]
                if not types_of(branch) or any(JSON_TYPES[name](value)
                                               for name in types_of(branch))]
        failures = [_requirement(branch, value) for branch in fits]
        if fits and None not in failures:
            return failures[0]
    if "enum" in spec and value not in spec["enum"]:
        return f"must be one of {', '.join(map(str, spec['enum']))}"
    if is_number(value):
        for bound, (passes, reads) in BOUNDS.items():
            if bound in spec and not passes(value, spec[bound]):
                return f"{reads} {spec[bound]:g}"
    return None


def _array_problem(spec: dict, value: list) -> str | None:
    """An array's length against minItems and maxItems, and its items against `items`."""
    if "minItems" in spec and len(value) < spec["minItems"]:
        return f"must have at least {spec['minItems']} items, got {len(value)}"
    if "maxItems" in spec and len(value) > spec["maxItems"]:
        return f"must have at most {spec['maxItems']} items, got {len(value)}"
    items = spec.get("items")
    if isinstance(items, dict):
        for index, item in enumerate(value):
            requirement = _requirement(items, item)
            if requirement is not None:
                return f"has {_shown(item)} at item {index}, and each item {requirement}"
    return None


def types_of(spec: dict) -> list[str]:
    """The JSON types a schema accepts (its `type`, or every type its `anyOf` branches take);
    empty for any."""
    if "type" in spec:
        return [spec["type"]] if isinstance(spec["type"], str) else list(spec["type"])
    branches = [types_of(branch) for branch in spec.get("anyOf", ())]
    return [] if not branches or not all(branches) else [
        name for names in branches for name in names]


def _shown(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 60 else f"{type(value).__name__} {shown[:57]}..."
