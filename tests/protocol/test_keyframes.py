"""Keyframe evaluation: values at, between and beyond keys, for every interpolation, as exact
numbers. The eased expectations come from an independent high-precision bisection (decimal, 50
digits) of the CSS cubic-bezier definition, not from protocol/model/keyframes.py."""

from decimal import Decimal, getcontext

import pytest

from protocol.model.keyframes import check_interpolation, cubic_bezier, value_at


def reference_bezier(x1, y1, x2, y2, x):
    getcontext().prec = 50
    x1, y1, x2, y2, x = (Decimal(str(v)) for v in (x1, y1, x2, y2, x))

    def curve(a1, a2, s):
        return 3 * a1 * (1 - s) ** 2 * s + 3 * a2 * (1 - s) * s * s + s ** 3

    low, high = Decimal(0), Decimal(1)
    for _ in range(200):
        middle = (low + high) / 2
        if curve(x1, x2, middle) < x:
            low = middle
        else:
            high = middle
    return float(curve(y1, y2, low))


def animated(interpolation, a=0.0, b=100.0, t0=1.0, t1=3.0):
    return {"keys": [{"time": t0, "value": a, "interpolation": interpolation},
                     {"time": t1, "value": b, "interpolation": "linear"}]}


@pytest.mark.parametrize("interpolation", ["linear", "hold", "easeIn", "easeOut", "easyEase",
                                           {"bezier": [0.25, 0.1, 0.25, 1.0]}])
def test_at_keys_and_beyond_them_every_interpolation_gives_the_key_values(interpolation):
    prop = animated(interpolation)
    assert value_at(prop, 1.0) == 0.0
    assert value_at(prop, 3.0) == 100.0
    assert value_at(prop, -5.0) == 0.0  # before the first key: the first key's value
    assert value_at(prop, 99.0) == 100.0  # after the last: the last key's


def test_linear_between_keys():
    prop = animated("linear")
    assert value_at(prop, 1.5) == 25.0
    assert value_at(prop, 2.0) == 50.0
    assert value_at(prop, 2.5) == 75.0


def test_hold_keeps_the_key_value_until_the_next_key():
    prop = animated("hold")
    assert value_at(prop, 1.0) == 0.0
    assert value_at(prop, 2.999) == 0.0
    assert value_at(prop, 3.0) == 100.0


@pytest.mark.parametrize("interpolation,curve", [
    ("easeIn", (0.42, 0.0, 1.0, 1.0)),
    ("easeOut", (0.0, 0.0, 0.58, 1.0)),
    ("easyEase", (0.33, 0.0, 0.67, 1.0)),
    ({"bezier": [0.25, 0.1, 0.25, 1.0]}, (0.25, 0.1, 0.25, 1.0)),
])
@pytest.mark.parametrize("fraction", [0.25, 0.5, 0.75])
def test_eased_values_match_an_independent_cubic_bezier(interpolation, curve, fraction):
    prop = animated(interpolation)
    time = 1.0 + 2.0 * fraction
    assert value_at(prop, time) == pytest.approx(100 * reference_bezier(*curve, fraction),
                                                 abs=1e-9)


def test_named_eases_have_their_known_shapes():
    assert value_at(animated("easyEase"), 2.0) == pytest.approx(50.0, abs=1e-12)
    # easeIn starts slow, easeOut ends slow, and they mirror each other
    ease_in = value_at(animated("easeIn"), 1.5)
    ease_out = value_at(animated("easeOut"), 2.5)
    assert ease_in == pytest.approx(9.346465071882484, abs=1e-9)
    assert ease_in + ease_out == pytest.approx(100.0, abs=1e-9)


def test_vectors_and_colors_interpolate_component_wise():
    position = {"keys": [{"time": 0, "value": [0, 100], "interpolation": "linear"},
                         {"time": 2, "value": [200, 300]}]}
    assert value_at(position, 0.5) == [50.0, 150.0]
    color = {"keys": [{"time": 0, "value": [1.0, 0.0, 0.0, 1.0], "interpolation": "linear"},
                      {"time": 1, "value": [0.0, 0.0, 1.0, 0.0]}]}
    assert value_at(color, 0.25) == [0.75, 0.0, 0.25, 0.75]


def test_text_and_booleans_hold_until_the_next_key():
    text = {"keys": [{"time": 0, "value": "one", "interpolation": "linear"},
                     {"time": 1, "value": "two"}]}
    assert value_at(text, 0.9) == "one"
    assert value_at(text, 1.0) == "two"


def test_a_segment_uses_the_interpolation_of_its_left_key():
    prop = {"keys": [{"time": 0, "value": 0, "interpolation": "hold"},
                     {"time": 1, "value": 10, "interpolation": "linear"},
                     {"time": 2, "value": 20}]}
    assert value_at(prop, 0.5) == 0
    assert value_at(prop, 1.5) == 15.0


def test_static_properties_are_their_value_at_every_time():
    assert value_at([3, 4], 12.0) == [3, 4]


def test_cubic_bezier_ends_are_exact():
    assert cubic_bezier(0.42, 0, 1, 1, 0.0) == 0.0
    assert cubic_bezier(0.42, 0, 1, 1, 1.0) == 1.0


def test_interpolation_check_refuses_unknown_names_and_bad_curves():
    assert check_interpolation("easyEase") == "easyEase"
    assert check_interpolation({"bezier": [0.1, 2.0, 0.9, -1.0]}) == {"bezier": [0.1, 2.0, 0.9,
                                                                                -1.0]}
    for bad in ("wobble", {"bezier": [1.5, 0, 0.5, 1]}, {"bezier": [0, 0, 1]}, None):
        with pytest.raises(ValueError, match="expected an interpolation"):
            check_interpolation(bad)
