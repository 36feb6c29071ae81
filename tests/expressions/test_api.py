"""After Effects' expression API, each function against its definition: linear and the loops
exactly (their published formulas, worked by hand here), the eases against the Easy Ease
bezier they are defined as, wiggle and the random functions by their statistics and their
determinism (their noise is their own, as After Effects' is)."""

import math
import threading

import pytest

from protocol.model.keyframes import cubic_bezier
from tests.helpers.expression_scenes import bound, driven, keys, value_of
from workers.expressions.document_expressions import ExpressionError


# -- time, value, the layer ------------------------------------------------------------------

def test_time_value_index_and_the_layer_attributes():
    assert value_of("time * 90", time=1.5) == 135
    assert value_of("value + 5", rotation=30) == 35
    assert value_of("value", path="transform.position", time=0) == [10, 10]
    layer = driven("A", {"transform.rotation": "index * 1000 + inPoint * 10 + outPoint"})
    other = driven("B", {})
    other.pop("expressions")
    layer["inPoint"], layer["outPoint"] = 0.5, 4.0
    assert bound(other, layer).value("comp1/A/transform.rotation", 1.0) == 2009.0


def test_this_comp_and_reading_another_layer_by_name_and_index():
    a = driven("A", {"transform.position": "thisComp.layer('B').transform.position",
                     "transform.rotation": "thisComp.layer(2).rotation + thisComp.numLayers"
                                           " + thisComp.width + thisComp.frameDuration * 30"})
    b = driven("B", {"transform.position": "[time * 100, 7]"})
    b["transform"]["rotation"] = 12
    scene = bound(a, b)
    # B's position is its expression's result, as After Effects reads another layer.
    assert scene.value("comp1/A/transform.position", 0.5) == [50, 7]
    assert scene.value("comp1/A/transform.rotation", 0) == 12 + 2 + 160 + 1


def test_value_at_time_velocity_and_keys_read_the_property_s_own_keys():
    animated = keys((0, 0), (2, 100))
    assert value_of("valueAtTime(time - 1)", time=1.5, rotation=animated) == 25
    assert value_of("velocity", time=1.0, rotation=animated) == pytest.approx(50)
    assert value_of("numKeys * 1000 + key(2).value + key(2).time", rotation=animated) == 2102
    assert value_of("nearestKey(1.6).index", rotation=animated) == 2
    with pytest.raises(ExpressionError, match=r"key\(3\): transform.rotation has keys 1 to 2"):
        value_of("key(3).value", rotation=animated)


def test_a_property_reads_its_own_value_and_a_loop_of_reads_ends():
    # A reads B, whose expression reads A: a property read while its own expression is under
    # way is its own value, so the reads end, and each result depends on the time alone.
    a = driven("A", {"transform.rotation": "thisComp.layer('B').rotation + 1"}, rotation=10)
    b = driven("B", {"transform.rotation": "thisComp.layer('A').rotation * 2"}, rotation=5)
    scene = bound(a, b)
    assert scene.value("comp1/A/transform.rotation", 0) == 10 * 2 + 1
    assert scene.value("comp1/B/transform.rotation", 0) == (5 + 1) * 2


def test_markers_source_rect_effects_and_text():
    layer = driven("A", {"transform.rotation": "marker.key('hit').time * 10 + "
                                               "thisComp.marker.numKeys",
                         "transform.position": "var r = sourceRectAtTime(); [r.width, r.height]"})
    layer["markers"] = [{"id": "marker1", "name": "hit", "time": 1.5, "duration": 0}]
    comp_marker = {"id": "marker2", "name": "start", "time": 0, "duration": 0}
    scene = bound(layer, markers=[comp_marker])
    assert scene.value("comp1/A/transform.rotation", 0) == 16
    assert scene.value("comp1/A/transform.position", 0) == [20, 20]
    fx = driven("F", {"effects.fx1.radius": "effect('gaussianBlur')('radius') + effect(1)(1)"})
    fx["effects"] = [{"id": "fx1", "effect": "gaussianBlur", "enabled": True,
                      "params": {"radius": 4}}]
    assert bound(fx).value("comp1/F/effects.fx1.radius", 0) == 8


# -- math ------------------------------------------------------------------------------------

@pytest.mark.parametrize("expression, expected", [
    ("linear(0.25, 0, 1, 0, 100)", 25),
    ("linear(-1, 0, 1, 0, 100)", 0),          # before tMin: value1
    ("linear(5, 0, 1, 0, 100)", 100),          # after tMax: value2
    ("linear(0.5, 20, 40)", 30),               # the three-argument form: t in 0..1
    ("linear(0.25, 1, 0, 0, 100)", 75),        # tMin above tMax: the ends swap
    ("linear(0.5, 0, 1, [0, 10], [100, 30])", [50, 20]),
    ("clamp(150, 0, 100)", 100),
    ("clamp([-5, 500], 0, 100)", [0, 100]),
    ("length([3, 4])", 5),
    ("length([1, 1], [4, 5])", 5),
    ("degreesToRadians(180)", math.pi),
    ("radiansToDegrees(Math.PI / 2)", 90),
    ("add([1, 2], [10, 20])", [11, 22]),
    ("sub([1, 2], [10, 20])", [-9, -18]),
    ("mul([1, 2], 3)", [3, 6]),
    ("div([3, 6], 3)", [1, 2]),
    ("add(1, 2)", 3),
    ("timeToFrames(2)", 60),
    ("timeToFrames(1 / 30 * 7)", 7),           # a hair under frame 7 is frame 7
    ("framesToTime(45)", 1.5),
    ("hslToRgb(rgbToHsl([0.2, 0.4, 0.6, 1]))[2]", 0.6),
])
def test_math_functions(expression, expected):
    got = value_of(expression, path="transform.position" if isinstance(expected, list)
                   else "transform.rotation")
    assert got == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("name, curve", [("ease", (1 / 3, 0, 2 / 3, 1)),
                                         ("easeIn", (1 / 3, 0, 1, 1)),
                                         ("easeOut", (0, 0, 2 / 3, 1))])
def test_eases_follow_the_easy_ease_curves(name, curve):
    for fraction in (0.0, 0.1, 0.25, 0.5, 0.8, 1.0):
        got = value_of(f"{name}({fraction}, 0, 1, 0, 100)")
        assert got == pytest.approx(100 * cubic_bezier(*curve, fraction), abs=1e-9)
    assert value_of(f"{name}(2, 0, 1, 10, 20)") == 20


def test_posterize_time_holds_time_and_value_to_steps():
    animated = keys((0, 0), (1, 30))
    assert value_of("posterizeTime(4); [time * 1000, value[0]]", path="transform.position",
                    time=0.6, position=keys((0, [0, 0]), (1, [30, 30]))) == [500, 15]
    assert value_of("posterizeTime(2); value", time=0.9, rotation=animated) == 15


# -- loops: exactly as After Effects defines them --------------------------------------------

# Keys at 1 s (10), 2 s (30), 3 s (20): two linear stretches.
LOOPED = keys((1, 10), (2, 30), (3, 20))


def own(t):
    """The keys' own value at t (linear), for the expected values."""
    if t <= 1:
        return 10
    if t <= 2:
        return 10 + 20 * (t - 1)
    if t <= 3:
        return 30 - 10 * (t - 2)
    return 20


@pytest.mark.parametrize("time", [3.25, 3.5, 4.0, 4.75, 7.3])
def test_loop_out_cycle_pingpong_offset_and_continue(time):
    span, start = 2.0, 1.0
    laps, within = divmod(time - start, span)
    assert value_of("loopOut('cycle')", time=time, rotation=LOOPED) == \
        pytest.approx(own(start + within))
    pingpong = own(start + within) if laps % 2 == 0 else own(3 - within)
    assert value_of("loopOut('pingpong')", time=time, rotation=LOOPED) == pytest.approx(pingpong)
    assert value_of("loopOut('offset')", time=time, rotation=LOOPED) == \
        pytest.approx(own(start + within) + laps * (20 - 10))
    # continue: on along the last stretch's slope (-10 a second)
    assert value_of("loopOut('continue')", time=time, rotation=LOOPED) == \
        pytest.approx(20 - 10 * (time - 3), abs=1e-6)


def test_loop_out_with_a_count_loops_the_last_stretches_and_leaves_the_keys_alone():
    # loopOut("cycle", 1): the last stretch only, 2 s to 3 s.
    assert value_of("loopOut('cycle', 1)", time=3.5, rotation=LOOPED) == pytest.approx(own(2.5))
    assert value_of("loopOutDuration('cycle', 1)", time=3.25, rotation=LOOPED) == \
        pytest.approx(own(2.25))
    # Within the keys the property is its own value.
    assert value_of("loopOut('cycle')", time=1.5, rotation=LOOPED) == pytest.approx(20)


@pytest.mark.parametrize("time", [0.75, 0.2, -0.6])
def test_loop_in_mirrors_loop_out_before_the_first_key(time):
    span, start = 2.0, 1.0
    laps, within = divmod(time - start, span)  # laps is negative
    assert value_of("loopIn('cycle')", time=time, rotation=LOOPED) == \
        pytest.approx(own(start + within))
    pingpong = own(start + within) if laps % 2 == 0 else own(3 - within)
    assert value_of("loopIn('pingpong')", time=time, rotation=LOOPED) == pytest.approx(pingpong)
    assert value_of("loopIn('offset')", time=time, rotation=LOOPED) == \
        pytest.approx(own(start + within) + laps * 10)
    assert value_of("loopIn('continue')", time=time, rotation=LOOPED) == \
        pytest.approx(10 + 20 * (time - 1), abs=1e-6)


def test_an_unknown_loop_type_is_one_sentence():
    with pytest.raises(ExpressionError, match=r'loopOut\("bounce"\): the type is "cycle", '
                                              r'"pingpong", "offset" or "continue"'):
        value_of("loopOut('bounce')", time=4, rotation=LOOPED)


# -- wiggle and randomness: statistics and determinism ---------------------------------------

def samples(expression, times, path="transform.position", layer="A", **kwargs):
    scene = bound(driven(layer, {path: expression}, **kwargs))
    return [scene.value(f"comp1/{layer}/{path}", t) for t in times]


def test_wiggle_stays_about_its_value_within_its_amplitude_and_is_smooth():
    times = [frame / 30 for frame in range(1800)]  # a minute
    xs = [x - 10 for x, _ in samples("wiggle(2, 30)", times)]
    mean = sum(xs) / len(xs)
    spread = math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))
    assert abs(mean) < 6 and 4 < spread < 20 and max(map(abs, xs)) <= 30
    # Smooth: at 2 wiggles a second a frame moves it a small part of its range.
    assert max(abs(b - a) for a, b in zip(xs, xs[1:])) < 30 * 0.5


def test_wiggle_frequency_is_wiggles_a_second_and_octaves_add_finer_ones():
    times = [frame / 30 for frame in range(3600)]

    def crossings(expression):
        xs = [x - 10 for x, _ in samples(expression, times)]
        return sum(1 for a, b in zip(xs, xs[1:]) if (a < 0) != (b < 0))

    slow, fast = crossings("wiggle(0.5, 30)"), crossings("wiggle(4, 30)")
    assert 4 < fast / slow < 16  # eight times the frequency: about eight times the crossings
    # octaves with ampMult add detail: more direction changes than one octave.
    def turns(expression):
        xs = [x for x, _ in samples(expression, times[:600])]
        return sum(1 for a, b, c in zip(xs, xs[1:], xs[2:]) if (b - a) * (c - b) < 0)
    assert turns("wiggle(1, 30, 4, 0.5)") > turns("wiggle(1, 30)")


def test_wiggle_is_the_same_every_time_and_its_own_for_each_layer_and_dimension():
    times = [frame / 30 for frame in range(60)]
    first = samples("wiggle(3, 50)", times)
    results = []
    thread = threading.Thread(target=lambda: results.append(samples("wiggle(3, 50)", times)))
    thread.start()
    thread.join()
    assert results == [first]  # another sandbox, on another thread: the same values
    # A binding made on one thread and evaluated on another (a Dask worker's threads share a
    # plan) uses that thread's own sandbox, with the same results.
    scene = bound(driven("A", {"transform.position": "wiggle(3, 50)"}))
    elsewhere = []
    thread = threading.Thread(target=lambda: elsewhere.append(
        [scene.value("comp1/A/transform.position", t) for t in times]))
    thread.start()
    thread.join()
    assert elsewhere == [first]
    other = samples("wiggle(3, 50)", times, layer="B")
    assert other != first
    assert [x for x, _ in first] != [y for _, y in first]


def test_random_is_seeded_by_layer_property_and_time_and_seed_random_can_hold_it():
    times = [frame / 30 for frame in range(300)]
    values = samples("random()", times, path="transform.rotation")
    assert values == samples("random()", times, path="transform.rotation")
    assert len(set(values)) == len(values) and all(0 <= v < 1 for v in values)
    assert 0.4 < sum(values) / len(values) < 0.6
    held = samples("seedRandom(7, true); random(10, 20)", times, path="transform.rotation")
    assert len(set(held)) == 1 and 10 <= held[0] < 20
    assert samples("seedRandom(8, true); random(10, 20)", times[:1],
                   path="transform.rotation") != held[:1]
    assert samples("Math.random()", times[:5], path="transform.rotation") == \
        samples("Math.random()", times[:5], path="transform.rotation")
    vector = samples("random([100, 200])", times[:50])
    assert all(0 <= x < 100 and 0 <= y < 200 for x, y in vector)


def test_gauss_random_puts_about_ninety_percent_in_its_range():
    values = samples("gaussRandom()", [frame / 30 for frame in range(2000)],
                     path="transform.rotation")
    inside = sum(1 for v in values if 0 <= v <= 1) / len(values)
    assert 0.86 < inside < 0.94
    assert abs(sum(values) / len(values) - 0.5) < 0.03


def test_noise_is_smooth_and_bounded():
    values = samples("noise(time * 3) * 100", [frame / 30 for frame in range(300)],
                     path="transform.rotation")
    assert all(-100 <= v <= 100 for v in values) and len(set(values)) > 250
    assert max(abs(b - a) for a, b in zip(values, values[1:])) < 40
