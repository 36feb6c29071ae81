"""Curved motion paths: where a layer is between keys with spatial tangents, checked against an
independent dense sampling of the cubic; easing measured along the arc; auto-orient by the
drawn layer's own axis."""

import math

import numpy as np
import pytest

from protocol.model.document import load_document
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp
from workers.compositor import render_frame

START, END = (100.0, 300.0), (500.0, 300.0)
OUT, IN = (150.0, -250.0), (-150.0, -250.0)  # an arch over the straight line


def arc_table(samples=200_000):
    """Points of the cubic START, START + OUT, END + IN, END and their arc lengths, sampled
    densely enough that chord lengths are the arc's to a millionth."""
    t = np.linspace(0, 1, samples)[:, None]
    p0, p1 = np.array(START), np.array(START) + OUT
    p2, p3 = np.array(END) + IN, np.array(END)
    points = ((1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t * t * p2
              + t ** 3 * p3)
    lengths = np.concatenate([[0], np.cumsum(np.hypot(*np.diff(points, axis=0).T))])
    return points, lengths


def at_arc_fraction(fraction):
    points, lengths = arc_table()
    index = int(np.searchsorted(lengths, fraction * lengths[-1]))
    return points[min(index, len(points) - 1)], points, index


def moving(interpolation="linear", auto_orient=False):
    engine = engine_with_comp(width=600, height=400)
    engine.run("layer.add", {"comp": "Main", "type": "solid", "name": "Dot", "color": "#ffffff",
                             "width": 6, "height": 6, "autoOrient": auto_orient})
    for time, value, extra in ((0, START, {"spatialOut": list(OUT)}),
                               (2, END, {"spatialIn": list(IN)})):
        engine.run("prop.addKey", {"comp": "Main", "layer": "Dot", "path": "transform.position",
                                   "time": time, "value": list(value),
                                   "interpolation": interpolation, **extra})
    return engine


def position(engine, time):
    return engine.run("prop.get", {"comp": "Main", "layer": "Dot", "path": "transform.position",
                                   "time": time})["value"]


def drawn_center(engine, time):
    pixels = render_frame(engine.doc, "Main", time).pixels[..., 0].astype(float)
    ys, xs = np.indices(pixels.shape)
    return (xs * pixels).sum() / pixels.sum() + 0.5, (ys * pixels).sum() / pixels.sum() + 0.5


def test_at_mid_time_a_linear_key_puts_the_layer_halfway_along_the_cubic():
    engine = moving()
    expected, _, _ = at_arc_fraction(0.5)
    assert position(engine, 1.0) == pytest.approx(list(expected), abs=0.05)
    assert drawn_center(engine, 1.0) == pytest.approx(tuple(expected), abs=0.2)
    # A quarter of the time is a quarter of the arc's length, not the cubic's own t = 0.25,
    # which the long handles put elsewhere.
    quarter, points, _ = at_arc_fraction(0.25)
    assert position(engine, 0.5) == pytest.approx(list(quarter), abs=0.05)
    assert np.hypot(*(points[len(points) // 4] - quarter)) > 5


def test_an_ease_keeps_its_speed_profile_along_the_arc():
    curved, straight = moving("easyEase"), engine_with_comp(width=600, height=400)
    straight.run("layer.add", {"comp": "Main", "type": "null", "name": "Dot"})
    for time, value in ((0, START), (2, END)):
        straight.run("prop.addKey", {"comp": "Main", "layer": "Dot",
                                     "path": "transform.position", "time": time,
                                     "value": list(value), "interpolation": "easyEase"})
    points, lengths = arc_table()
    for time in (0.2, 0.7, 1.0, 1.5, 1.9):
        eased = (position(straight, time)[0] - START[0]) / (END[0] - START[0])
        x, y = position(curved, time)
        travelled = lengths[np.argmin(np.hypot(points[:, 0] - x, points[:, 1] - y))]
        assert travelled / lengths[-1] == pytest.approx(eased, abs=2e-4)


def test_auto_orient_turns_the_layer_along_the_path():
    engine = moving(auto_orient=True)
    engine.run("layer.set", {"comp": "Main", "layer": "Dot", "width": 60, "height": 4})
    engine.run("layer.set", {"comp": "Main", "layer": "Dot", "anchor": [30, 2]})
    for fraction, time in ((0.25, 0.5), (0.5, 1.0), (0.8, 1.6)):
        _, points, index = at_arc_fraction(fraction)
        dx, dy = points[index + 50] - points[index - 50]
        heading = math.degrees(math.atan2(dy, dx))
        pixels = render_frame(engine.doc, "Main", time).pixels[..., 0].astype(float)
        ys, xs = np.indices(pixels.shape)
        w = pixels / pixels.sum()
        cx, cy = (xs * w).sum(), (ys * w).sum()
        cov = np.cov(np.stack([(xs - cx).ravel(), (ys - cy).ravel()]), aweights=w.ravel())
        major = np.linalg.eigh(cov)[1][:, 1]
        drawn = math.degrees(math.atan2(major[1], major[0]))
        assert (drawn - heading + 90) % 180 - 90 == pytest.approx(0, abs=0.5)


def test_auto_orient_adds_to_the_layers_own_rotation_and_holds_past_the_last_key():
    engine = moving(auto_orient=True)
    engine.run("layer.set", {"comp": "Main", "layer": "Dot", "rotation": 30})
    from protocol.model.transforms import layer_matrix
    comp = engine.doc["comps"][0]
    layer = comp["layers"][0]
    at_start = math.degrees(math.atan2(OUT[1], OUT[0])) + 30
    at_end = math.degrees(math.atan2(-IN[1], -IN[0])) + 30
    for time, degrees in ((0.0, at_start), (-1.0, at_start), (2.0, at_end), (5.0, at_end)):
        m = layer_matrix(comp, layer, time)
        assert math.degrees(math.atan2(m[1][0], m[0][0])) == pytest.approx(degrees, abs=0.01)


def test_spatial_tangents_are_for_position_like_properties_and_are_kept_on_replace():
    engine = moving()
    with pytest.raises(CommandError, match="spatialIn bends a motion path.*not transform.scale"):
        engine.run("prop.addKey", {"comp": "Main", "layer": "Dot", "path": "transform.scale",
                                   "time": 0, "value": [50, 50], "spatialIn": [1, 1]})
    engine.run("prop.addKey", {"comp": "Main", "layer": "Dot", "path": "transform.position",
                               "time": 0, "value": [110, 300]})
    keys = engine.doc["comps"][0]["layers"][0]["transform"]["position"]["keys"]
    assert keys[0]["spatialOut"] == list(OUT) and keys[0]["value"] == [110, 300]
    assert load_document(engine.doc)["comps"][0]["layers"][0]["transform"]["position"] == \
        {"keys": keys}
    engine.run("prop.addKey", {"comp": "Main", "layer": "Dot", "path": "transform.anchor",
                               "time": 0, "value": [3, 3], "spatialOut": [5, 0]})
