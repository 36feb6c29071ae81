"""protocol/model/schema_checks.py: one argument's value against its schema, with values alone."""

import pytest

from protocol.model.schema_checks import value_problem

TIME = {"type": "number", "minimum": 0}
TIMES = {"type": "array", "items": TIME}
REF = {"type": ["string", "integer"]}
PAIR = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}


@pytest.mark.parametrize("spec, value, problem", [
    (TIME, -2.0, "must be at least 0, got -2.0"),
    ({"type": "number", "exclusiveMinimum": 0}, 0, "must be above 0, got 0"),
    ({"type": "integer", "maximum": 10}, 11, "must be at most 10, got 11"),
    ({"type": "number", "exclusiveMaximum": 1}, 1, "must be below 1, got 1"),
    (TIME, "1", "must be number, got '1'"),
    ({"type": "integer"}, True, "must be integer, got True"),
    (REF, 1.5, "must be string or integer, got 1.5"),
    ({"type": "string", "enum": ["a", "b"]}, "c", "must be one of a, b, got 'c'"),
    (TIMES, [0, 1, -1], "has -1 at item 2, and each item must be at least 0"),
    (PAIR, [1], "must have at least 2 items, got 1"),
    (PAIR, [1, 2, 3], "must have at most 2 items, got 3"),
    ({"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 1}]}, 0,
     "must be at least 1, got 0"),
    ({"type": "number"}, float("nan"), "is NaN, not a number rendervisor can use"),
    ({"type": "object"}, {"deep": [float("inf")]}, "has Infinity at deep[0]"),
])
def test_a_value_that_breaks_its_schema_is_named_by_what_it_breaks(spec, value, problem):
    assert value_problem(spec, value).startswith(problem)


@pytest.mark.parametrize("spec, value", [
    (TIME, 0), (TIME, 3.5), (TIMES, []), (TIMES, [0, 2]), (REF, "Main"), (REF, 2),
    (PAIR, [1, 2]), ({"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 1}]}, "x"),
    ({}, {"anything": ["goes"]}),
])
def test_a_value_that_fits_its_schema_passes(spec, value):
    assert value_problem(spec, value) is None
