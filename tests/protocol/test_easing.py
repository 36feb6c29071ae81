"""spring, bounce, elastic and back against their formulas (written out here as easings.net and
the damped oscillator give them), the spring also against a numerical integration of its
differential equation, and each through prop.get as a render evaluates it."""

import math

import pytest

from protocol.model.keyframes import check_interpolation, value_at
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp

PROGRESS = [i / 20 for i in range(21)]


def animated(interpolation, start=0.0, end=1.0, span=1.0):
    return {"keys": [{"time": 0.0, "value": start, "interpolation": interpolation},
                     {"time": span, "value": end, "interpolation": "linear"}]}


def fraction(interpolation, p, span=1.0):
    # Just before the end key, where the segment's own curve still governs.
    time = min(p * span, span * (1 - 1e-12))
    return value_at(animated(interpolation, span=span), time)


def back_formula(x, c1=1.70158):
    c3 = c1 + 1
    return 1 + c3 * (x - 1) ** 3 + c1 * (x - 1) ** 2


def elastic_formula(x):
    return 2 ** (-10 * x) * math.sin((x * 10 - 0.75) * (2 * math.pi) / 3) + 1


def bounce_formula(x):
    n1, d1 = 7.5625, 2.75
    if x < 1 / d1:
        return n1 * x * x
    if x < 2 / d1:
        x -= 1.5 / d1
        return n1 * x * x + 0.75
    if x < 2.5 / d1:
        x -= 2.25 / d1
        return n1 * x * x + 0.9375
    x -= 2.625 / d1
    return n1 * x * x + 0.984375


def integrated_spring(t_end, stiffness, damping, mass, steps=20000):
    """m x'' = -k (x - 1) - c x', from x = 0 at rest, by fourth-order Runge-Kutta."""
    def accel(x, v):
        return (-stiffness * (x - 1) - damping * v) / mass
    x = v = 0.0
    h = t_end / steps
    for _ in range(steps):
        k1x, k1v = v, accel(x, v)
        k2x, k2v = v + h / 2 * k1v, accel(x + h / 2 * k1x, v + h / 2 * k1v)
        k3x, k3v = v + h / 2 * k2v, accel(x + h / 2 * k2x, v + h / 2 * k2v)
        k4x, k4v = v + h * k3v, accel(x + h * k3x, v + h * k3v)
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    return x


@pytest.mark.parametrize("name, formula", [("back", back_formula),
                                           ("elastic", elastic_formula),
                                           ("bounce", bounce_formula)])
def test_named_curves_follow_their_formulas(name, formula):
    for p in PROGRESS[:-1]:
        assert fraction(name, p) == pytest.approx(formula(p), abs=1e-12)


def test_back_overshoots_by_ten_percent_and_a_larger_overshoot_by_more():
    peak = max(fraction("back", i / 1000) for i in range(1000))
    assert peak == pytest.approx(1.0999, abs=1e-3)
    stronger = {"back": {"overshoot": 3}}
    assert max(fraction(stronger, i / 1000) for i in range(1000)) > peak
    assert fraction(stronger, 0.5) == pytest.approx(back_formula(0.5, 3), abs=1e-12)


def test_bounce_lands_on_the_end_value_at_each_bounce():
    for p in (1 / 2.75, 2 / 2.75, 2.5 / 2.75):
        assert fraction("bounce", p) == pytest.approx(1.0, abs=1e-12)
    assert all(0 <= fraction("bounce", p) <= 1 for p in PROGRESS)


def test_elastic_swings_around_the_end_value_with_its_period():
    wide = {"elastic": {"amplitude": 1, "period": 0.6}}
    # It crosses the end value every half period, a quarter period after the start.
    for crossing in (0.15, 0.45, 0.75):
        assert fraction(wide, crossing) == pytest.approx(1.0, abs=1e-12)
    swings = [fraction(wide, p) - 1 for p in (0.3, 0.6, 0.9)]
    assert swings[0] > 0 > swings[1] and swings[2] > 0
    assert abs(swings[1]) == pytest.approx(swings[0] * 2 ** -3, rel=1e-9)  # 2^(-10 p) decay


@pytest.mark.parametrize("stiffness, damping, mass", [
    (100, 10, 1),   # underdamped: rings
    (170, 26, 1),   # close to critical
    (100, 20, 1),   # critical
    (100, 60, 2),   # overdamped
])
def test_a_spring_is_where_its_differential_equation_puts_it_in_real_seconds(
        stiffness, damping, mass):
    spring = {"spring": {"stiffness": stiffness, "damping": damping, "mass": mass}}
    for t in (0.05, 0.2, 0.5, 1.1):
        expected = integrated_spring(t, stiffness, damping, mass)
        # The same spring on a 2 s segment: its time is seconds, not progress.
        assert fraction(spring, t / 2, span=2.0) == pytest.approx(expected, abs=1e-7)


def test_the_default_spring_overshoots_and_settles():
    values = [fraction("spring", i / 100, span=2.0) for i in range(100)]
    assert max(values) > 1.1 and abs(values[-1] - 1) < 1e-3


def test_eases_scale_to_the_keys_values_through_prop_get():
    engine = engine_with_comp()
    engine.run("layer.add", {"comp": "Main", "type": "null", "name": "N"})
    engine.run("prop.addKey", {"comp": "Main", "layer": "N", "path": "transform.rotation",
                               "time": 1, "value": 10, "interpolation": "bounce"})
    engine.run("prop.addKey", {"comp": "Main", "layer": "N", "path": "transform.rotation",
                               "time": 3, "value": 30})
    got = engine.run("prop.get", {"comp": "Main", "layer": "N", "path": "transform.rotation",
                                  "time": 1.5})["value"]
    assert got == pytest.approx(10 + 20 * bounce_formula(0.25), abs=1e-9)
    keys = engine.run("prop.get", {"comp": "Main", "layer": "N",
                                   "path": "transform.rotation"})["keys"]
    assert keys[0]["interpolation"] == "bounce"


@pytest.mark.parametrize("interpolation, words", [
    ({"spring": {"stiffness": 0}}, "spring's stiffness must be a number above 0"),
    ({"spring": {"bounciness": 1}}, "spring takes {stiffness, damping, mass}"),
    ({"elastic": {"amplitude": 0.5}}, "elastic's amplitude must be a number at least 1"),
    ("wobble", "spring, bounce, elastic, back"),
])
def test_a_bad_ease_is_refused_with_a_sentence(interpolation, words):
    with pytest.raises(ValueError, match=words.replace("{", r"\{").replace("}", r"\}")):
        check_interpolation(interpolation)
    engine = engine_with_comp()
    engine.run("layer.add", {"comp": "Main", "type": "null", "name": "N"})
    with pytest.raises(CommandError, match="interpolation"):
        engine.run("prop.addKey", {"comp": "Main", "layer": "N", "path": "transform.rotation",
                                   "time": 0, "value": 1, "interpolation": interpolation})


def test_an_ease_given_by_name_and_with_all_its_defaults_are_the_same_curve():
    full = check_interpolation({"back": {}})
    assert full == {"back": {"overshoot": 1.70158}}
    assert fraction(full, 0.3) == fraction("back", 0.3)
