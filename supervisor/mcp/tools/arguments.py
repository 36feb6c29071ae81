"""Checking a tools/call's arguments against the tool's inputSchema, before any work starts.

The names here (additionalProperties is always false; required keys); each value against its
schema, bounds included, by protocol/model/schema_checks.py, the check the engine's commands
share. A failure is one sentence naming the key and the accepted arguments; the front door
sends it as -32602. (Inside an object argument, such as command_run's params, the engine
command checks its own params, naming them.)
"""

from __future__ import annotations

from typing import Any

from protocol.model.schema_checks import value_problem


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
        problem = value_problem(properties[key], value, inside_objects=False)
        if problem is not None:
            return f"Argument {key!r} of tool {tool_name} {problem}."
    return None
