"""Checking a tools/call's arguments against the tool's inputSchema, before any work starts.

Only what the schemas here use: known keys (additionalProperties is always false), required
keys, and the JSON type of each top-level value (its `type`, or the types of its `anyOf`
branches), where a number must be one a project can hold
(not NaN or Infinity: protocol/model/numbers.py). A failure is one sentence naming the key and the
accepted arguments; the front door sends it as -32602. (Numbers inside an object argument,
such as command_run's params, are the engine command's to check, naming its own params.)
"""

from __future__ import annotations

from typing import Any

from protocol.model.numbers import is_unusable_number, unusable_problem

JSON_TYPES = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
    "object": (dict,), "array": (list,), "null": (type(None),),
}


def check(tool_name: str, schema: dict, arguments: Any) -> str | None:
    if not isinstance(arguments, dict):
        return f"Invalid arguments for {tool_name}: \"arguments\" must be an object."
    properties = schema.get("properties", {})
    accepted = ", ".join(properties) or "none"
    for key in arguments:
        if key not in properties:
            return (f"Unknown argument {key!r} for tool {tool_name}; "
                    f"the accepted arguments are: {accepted}.")
    for key in schema.get("required", ()):
        if key not in arguments:
            return f"Missing argument {key!r} for tool {tool_name}; it is required."
    for key, value in arguments.items():
        names = _types(properties[key])
        if not names:
            continue
        if is_unusable_number(value):
            return f"Argument {key!r} of tool {tool_name} {unusable_problem(value)}."
        if not any(_is(value, name) for name in names):
            return (f"Argument {key!r} of tool {tool_name} must be of type "
                    f"{' or '.join(names)}, not {_type_name(value)}.")
    return None


def _types(schema: dict) -> list[str]:
    """The JSON types a property accepts; empty for any."""
    if "type" in schema:
        return [schema["type"]]
    branches = [_types(branch) for branch in schema.get("anyOf", ())]
    return [] if not branches or not all(branches) else [
        name for names in branches for name in names]


def _is(value: Any, name: str) -> bool:
    if isinstance(value, bool) and name in ("integer", "number"):
        return False
    return isinstance(value, JSON_TYPES.get(name, (object,)))


def _type_name(value: Any) -> str:
    for name, types in JSON_TYPES.items():
        if _is(value, name):
            return name
    return type(value).__name__
