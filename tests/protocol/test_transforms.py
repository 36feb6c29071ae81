"""Layer matrices, parents included, checked against Skia's own matrix composition."""

import math

import pytest
import skia

from protocol.model.transforms import apply, is_visible, layer_matrix, layer_opacity, layer_time


def layer(id, anchor=(0, 0), position=(0, 0), scale=(100, 100), rotation=0, opacity=100,
          parent=None, **timing):
    return {"id": id, "name": id, "parent": parent, "enabled": True,
            "inPoint": timing.get("inPoint", 0.0), "outPoint": timing.get("outPoint", 10.0),
            "startTime": timing.get("startTime", 0.0),
            "transform": {"anchor": list(anchor), "position": list(position),
                          "scale": list(scale), "rotation": rotation, "opacity": opacity}}


def skia_matrix(l):
    t = l["transform"]
    m = skia.Matrix()
    m.preTranslate(*t["position"])
    m.preRotate(t["rotation"])
    m.preScale(t["scale"][0] / 100, t["scale"][1] / 100)
    m.preTranslate(-t["anchor"][0], -t["anchor"][1])
    return m


def test_anchor_scale_rotation_position_compose_like_skia():
    child = layer("a", anchor=(50, 25), position=(320, 180), scale=(200, 50), rotation=30)
    comp = {"layers": [child]}
    ours = layer_matrix(comp, child, 0.0)
    theirs = skia_matrix(child)
    for x, y in [(0, 0), (50, 25), (100, 50), (-7, 13)]:
        expected = theirs.mapXY(x, y)
        assert apply(ours, x, y) == pytest.approx((expected.x(), expected.y()), abs=1e-4)


def test_the_anchor_point_lands_on_the_position():
    l = layer("a", anchor=(10, 20), position=(300, 400), scale=(150, 75), rotation=45)
    assert apply(layer_matrix({"layers": [l]}, l, 0), 10, 20) == pytest.approx((300, 400))


def test_rotation_is_clockwise_on_screen():
    l = layer("a", rotation=90)
    x, y = apply(layer_matrix({"layers": [l]}, l, 0), 10, 0)
    assert (x, y) == pytest.approx((0, 10))  # +x turns to +y, which points down


def test_a_child_follows_its_parents_transform_through_two_levels():
    grandparent = layer("g", position=(100, 100), rotation=90)
    parent = layer("p", position=(50, 0), scale=(200, 200), parent="g")
    child = layer("c", position=(10, 0), parent="p")
    comp = {"layers": [child, parent, grandparent]}
    # the child's origin: 10 px along the parent's x (scaled x2 -> 20), plus the parent's 50 along
    # the grandparent's x, which is rotated 90 degrees clockwise to point down.
    assert apply(layer_matrix(comp, child, 0), 0, 0) == pytest.approx((100, 100 + 50 + 20))
    expected = skia.Matrix.Concat(skia.Matrix.Concat(skia_matrix(grandparent),
                                                     skia_matrix(parent)), skia_matrix(child))
    point = expected.mapXY(3, 4)
    assert apply(layer_matrix(comp, child, 0), 3, 4) == pytest.approx((point.x(), point.y()))


def test_animated_parent_moves_the_child_over_time():
    parent = layer("p")
    parent["transform"]["position"] = {"keys": [
        {"time": 0, "value": [0, 0], "interpolation": "linear"}, {"time": 2, "value": [100, 0]}]}
    child = layer("c", position=(5, 5), parent="p")
    comp = {"layers": [child, parent]}
    assert apply(layer_matrix(comp, child, 1.0), 0, 0) == pytest.approx((55, 5))


def test_opacity_is_not_inherited_and_is_clamped():
    parent = layer("p", opacity=10)
    child = layer("c", opacity=150, parent="p")
    assert layer_opacity(child, 0) == 1.0
    assert layer_opacity(parent, 0) == pytest.approx(0.1)


def test_visibility_is_in_point_inclusive_out_point_exclusive_and_layer_time_offsets():
    l = layer("a", inPoint=1.0, outPoint=2.0, startTime=0.5)
    assert [is_visible(l, t) for t in (0.99, 1.0, 1.99, 2.0)] == [False, True, True, False]
    l["enabled"] = False
    assert not is_visible(l, 1.5)
    assert layer_time(l, 1.5) == 1.0
    assert math.isclose(layer_time(l, 0.0), -0.5)
