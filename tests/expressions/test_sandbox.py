"""The sandbox: what an expression cannot reach, the bounds that stop a runaway one, nothing
surviving from one evaluation to the next, and errors as one sentence naming the line and
column."""

import os
import subprocess
import sys
import time as clock

import pytest

from tests.helpers.expression_scenes import bound, driven, value_of
from workers.expressions.document_expressions import ExpressionError
from workers.expressions.sandbox import TIME_LIMIT


@pytest.mark.parametrize("expression", [
    "typeof require + typeof std + typeof os + typeof fetch + typeof XMLHttpRequest + "
    "typeof setTimeout + typeof performance + typeof WeakRef + typeof Date.now",
])
def test_nothing_outside_the_language_is_reachable(expression):
    layer = driven("T", {"transform.rotation": f"({expression}).length"})
    got = bound(layer).value("comp1/T/transform.rotation", 0)
    assert got == len("undefined") * 9


def test_the_current_date_is_refused_with_a_sentence_and_a_given_date_works():
    with pytest.raises(ExpressionError, match="the current date and time are not available to "
                                              "expressions"):
        value_of("new Date().getTime()")
    assert value_of("new Date(Date.UTC(2024, 0, 2)).getUTCDate()") == 2


def test_a_global_an_expression_leaves_is_gone_before_the_next_evaluation():
    scene = bound(driven("A", {"transform.rotation": "leaked = time * 10; leaked"}),
                  driven("B", {"transform.rotation": "typeof leaked == 'undefined' ? 1 : 2"}))
    assert scene.value("comp1/A/transform.rotation", 1.0) == 10
    assert scene.value("comp1/B/transform.rotation", 1.0) == 1


def test_built_ins_are_frozen_so_one_expression_cannot_change_another_s_math():
    scene = bound(driven("A", {"transform.rotation": "Math.sin = function () { return 99 }; "
                                                     "Array.prototype.first = 1; 0"}),
                  driven("B", {"transform.rotation": "Math.sin(0) + ([].first || 0)"}))
    scene.value("comp1/A/transform.rotation", 0)
    assert scene.value("comp1/B/transform.rotation", 0) == 0


@pytest.mark.parametrize("reach", [
    "thisComp.constructor", "thisLayer.constructor", "Object.getPrototypeOf(function* () {})",
    "Object.getPrototypeOf(async function () {}).constructor", "Object.getPrototypeOf(Int8Array)",
])
def test_no_object_an_expression_can_reach_carries_a_count_to_the_next_evaluation(reach):
    # A count kept between evaluations would make a frame depend on which frames the same
    # worker drew before it, and so on the number of workers.
    scene = bound(driven("A", {"transform.rotation": f"var o = {reach}; o.n = (o.n || 0) + 1; "
                                                     "o.n || 0"}))
    assert [scene.value("comp1/A/transform.rotation", t) for t in (0, 0.5, 1.0)] == [0, 0, 0]


def test_local_time_is_utc_whatever_zone_the_worker_runs_in():
    # Render nodes in two time zones must draw the same frames.
    script = ("from tests.helpers.expression_scenes import value_of; "
              "print(value_of('new Date(2024, 6, 1, 12).getTimezoneOffset() * 100 + "
              "new Date(2024, 6, 1, 12).getHours()'))")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env={**os.environ, "TZ": "America/New_York"}, timeout=120)
    assert shown.stdout.split() == ["12"], shown.stderr


def test_a_runaway_loop_is_stopped_by_the_time_limit_with_a_sentence():
    started = clock.monotonic()
    with pytest.raises(ExpressionError) as caught:
        value_of("while (true) {}", time=2.0)
    assert clock.monotonic() - started < TIME_LIMIT * 10
    assert str(caught.value) == (
        "The expression on transform.rotation of layer 'A' in comp 'Main' failed at 2 s "
        f"(frame 60): it ran longer than the {TIME_LIMIT:g} s an evaluation may take. Fix it "
        "with prop.setExpression (expression.check tries it), or remove it with an "
        "expression of null.")
    assert value_of("time * 2", time=2.0) == 4  # the sandbox serves the next one


def test_a_100_mb_string_is_stopped_by_the_memory_limit_with_a_sentence():
    with pytest.raises(ExpressionError, match=r"it used more than the 64 MiB expressions may "
                                              r"hold"):
        value_of("'x'.repeat(100 * 1024 * 1024).length")
    with pytest.raises(ExpressionError, match="it used more than the 64 MiB"):
        value_of("var a = []; while (true) a.push([1, 2, 3]); 0")
    assert value_of("1 + 1") == 2


def test_endless_recursion_is_stopped_with_a_sentence():
    with pytest.raises(ExpressionError, match="it recursed deeper than expressions may"):
        value_of("function f(n) { return f(n + 1) + 1 } f(0)")


@pytest.mark.parametrize("expression, what", [
    ("foo + 1", "ReferenceError: foo is not defined (line 1, column 1)"),
    ("var a = 1;\nvar b = a +* 2;", "SyntaxError: unexpected token in expression: '*' "
                                    "(line 2, column 12)"),
    ("var a = [1, 2];\n  null.x", "TypeError: cannot read property 'x' of null (line 2, "
                                  "column 3)"),
    ("wiggle('fast', 10)", "wiggle's frequency must be a finite number, not NaN (line 1, "
                           "column 1)"),
    ("thisComp.layer('Nope')", "comp \"Main\" has no layer \"Nope\" (line 1, column 10)"),
    # Raised after the expression returned: no line of it to name (nor one of the API's).
    ("var x = 5;", "it gave no value (undefined): its last statement must be the value. Fix"),
    ("1 / 0", "it gave Infinity. Fix"),
])
def test_an_error_is_one_sentence_naming_the_time_line_and_column(expression, what):
    with pytest.raises(ExpressionError) as caught:
        value_of(expression, time=0.5)
    assert str(caught.value).startswith("The expression on transform.rotation of layer 'A' in "
                                        "comp 'Main' failed at 0.5 s (frame 15): ")
    assert what in str(caught.value)


def test_a_value_of_the_wrong_kind_names_what_the_property_needs():
    with pytest.raises(ExpressionError, match=r'it gave "960,5400,100", and '
                                              r"transform.position needs \[x, y\].*use add"):
        value_of("[960, 540] + [0, 100]", path="transform.position")


def test_an_error_in_an_expression_read_by_another_names_both():
    scene = bound(driven("A", {"transform.rotation": "thisComp.layer('B').rotation"}),
                  driven("B", {"transform.rotation": "missing()"}))
    with pytest.raises(ExpressionError) as caught:
        scene.value("comp1/A/transform.rotation", 0)
    assert str(caught.value).startswith(
        "The expression on transform.rotation of layer 'B' in comp 'Main' (read by the "
        "expression on transform.rotation of layer 'A') failed at 0 s (frame 0): "
        "ReferenceError: missing is not defined")
