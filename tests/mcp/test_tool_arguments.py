"""Every tool's inputSchema is what its front door enforces, bounds included: checked in-process
over the whole catalog (supervisor/mcp/tools/arguments.py), and once through a real server."""

from __future__ import annotations

import pytest

from protocol.model.schema_checks import BOUNDS
from supervisor.mcp import tools as _catalog  # noqa: F401  (imports every tool module)
from supervisor.mcp.tools import arguments
from supervisor.mcp.tools.registry import TOOLS

# In steps (1 for an integer, a thousandth for a number): a value just past each bound, and
# one just inside it.
PAST = {"minimum": -1, "maximum": 1, "exclusiveMinimum": 0, "exclusiveMaximum": 0}
INSIDE = {"minimum": 0, "maximum": 0, "exclusiveMinimum": 1, "exclusiveMaximum": -1}


def bounded_arguments():
    """(tool, argument, bound, its value, the argument's schema, whether it is an array's
    items): every bound any tool declares, on its own arguments or their items."""
    found = []
    for tool in TOOLS.values():
        for name, spec in tool.input_schema["properties"].items():
            for where, schema in ((False, spec), (True, spec.get("items") or {})):
                for bound in BOUNDS:
                    if bound in schema:
                        found.append((tool.name, name, bound, schema[bound], schema, where))
    return found


def value_near(bound: str, limit: float, schema: dict, steps: dict):
    step = 1 if schema.get("type") == "integer" else 1e-3
    return limit + steps[bound] * step


def test_the_catalog_declares_bounds_to_enforce():
    assert len(bounded_arguments()) >= 10
    assert ("audio_levels", "start", "minimum", 0, {"type": "number", "minimum": 0,
            "description": "comp time in seconds (0)"}, False) in bounded_arguments()


@pytest.mark.parametrize("tool, name, bound, limit, schema, as_item", bounded_arguments(),
                         ids=lambda value: value if isinstance(value, str) else "")
def test_every_bound_a_tool_declares_is_enforced(tool, name, bound, limit, schema, as_item):
    required = {key: minimal(spec) for key, spec in TOOLS[tool].input_schema["properties"].items()
                if key in TOOLS[tool].input_schema.get("required", ())}
    past = value_near(bound, limit, schema, PAST)
    inside = value_near(bound, limit, schema, INSIDE)
    wrap = (lambda value: [value]) if as_item else (lambda value: value)
    problem = arguments.check(tool, TOOLS[tool].input_schema, {**required, name: wrap(past)})
    assert problem is not None and repr(name) in problem and f"{limit:g}" in problem, problem
    assert arguments.check(tool, TOOLS[tool].input_schema, {**required, name: wrap(inside)}) \
        is None


def minimal(spec: dict):
    """A value of the schema's type, for the required arguments beside the one tested."""
    kind = spec.get("type") or spec.get("anyOf", [{}])[0].get("type", "string")
    kind = kind[0] if isinstance(kind, list) else kind
    return {"string": "x", "integer": 1, "number": 1, "boolean": True, "object": {},
            "array": []}[kind]


def test_a_time_before_the_comps_start_is_refused_at_the_front_door(server):
    """audio_levels answered levels at -2.0 s: its schema said minimum 0, and nothing read it."""
    answer = server.wait_for(server.call("audio_levels", {"start": -2.0}))
    assert answer["error"]["code"] == -32602
    assert answer["error"]["message"] == (
        "Argument 'start' of tool audio_levels must be at least 0, got -2.0.")
    ping = server.wait_for(server.request("ping"))
    assert ping["result"] == {}
