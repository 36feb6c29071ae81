"""Path shapes with tangents, path morphs, trims and dashes through the engine commands, and
version 1 projects with straight paths still opening."""

import json

import pytest

from protocol.model.document import VERSION, load_document
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp

SQUARE = [[0, 0], [40, 0], [40, 40], [0, 40]]


def add_path(engine, **params):
    return engine.run("layer.add", {"comp": "Main", "type": "shape", "shape": "path",
                                    "size": [100, 100], "name": "P", **params})


def path_at(engine, time):
    return engine.run("prop.get", {"comp": "Main", "layer": "P", "path": "path",
                                   "time": time})["value"]


def test_a_path_shape_stores_its_points_tangents_and_closedness_as_one_path():
    engine = engine_with_comp()
    add_path(engine, points=[[0, 0], [100, 0]], outTangents=[[30, -40], [0, 0]],
             inTangents=[[0, 0], [-30, -40]], closed=False)
    path = engine.run("layer.get", {"comp": "Main", "layer": "P"})["content"]["path"]
    assert path == {"points": [[0, 0], [100, 0]], "inTangents": [[0, 0], [-30, -40]],
                    "outTangents": [[30, -40], [0, 0]], "closed": False}


def test_tangents_default_to_straight_and_new_points_clear_the_old_tangents():
    engine = engine_with_comp()
    add_path(engine, points=SQUARE)
    assert path_at(engine, 0)["inTangents"] == [[0, 0]] * 4
    engine.run("layer.set", {"comp": "Main", "layer": "P", "outTangents": [[5, 0]] * 4})
    assert path_at(engine, 0)["outTangents"] == [[5, 0]] * 4
    engine.run("layer.set", {"comp": "Main", "layer": "P", "points": SQUARE[:3]})
    assert path_at(engine, 0)["outTangents"] == [[0, 0]] * 3 and path_at(engine, 0)["closed"]


def test_path_keys_with_the_same_point_count_morph_point_by_point():
    engine = engine_with_comp()
    add_path(engine, points=SQUARE)
    bigger = {"points": [[0, 0], [80, 0], [80, 80], [0, 80]],
              "outTangents": [[10, 0], [0, 10], [-10, 0], [0, -10]]}
    for time, value in ((0, {"points": SQUARE}), (2, bigger)):
        engine.run("prop.addKey", {"comp": "Main", "layer": "P", "path": "path", "time": time,
                                   "value": value})
    middle = path_at(engine, 1)
    assert middle["points"] == [[0, 0], [60, 0], [60, 60], [0, 60]]
    assert middle["outTangents"] == [[5, 0], [0, 5], [-5, 0], [0, -5]]


@pytest.mark.parametrize("params, words", [
    ({"points": SQUARE, "inTangents": [[0, 0]]}, "one [dx, dy] per point (4)"),
    ({"points": [[0, 0]]}, "at least 2 points"),
    ({"points": SQUARE, "closed": "yes"}, "closed must be boolean"),
    ({"points": SQUARE, "outTangents": [[0, 0], [1, "x"], [0, 0], [0, 0]]},
     "expected a tangent [dx, dy]"),
])
def test_a_malformed_path_is_refused_with_a_sentence(params, words):
    engine = engine_with_comp()
    with pytest.raises(CommandError) as refused:
        add_path(engine, **params)
    assert words in str(refused.value) and str(refused.value).endswith(".")


def test_tangents_belong_to_path_shapes_only():
    engine = engine_with_comp()
    with pytest.raises(CommandError, match="a rect shape does not take 'inTangents'"):
        engine.run("layer.add", {"comp": "Main", "type": "shape", "shape": "rect",
                                 "size": [10, 10], "inTangents": [[0, 0]]})


def test_trim_and_dash_offset_animate_and_dashes_are_checked():
    engine = engine_with_comp()
    engine.run("layer.add", {"comp": "Main", "type": "shape", "shape": "ellipse", "name": "E",
                             "size": [50, 50], "stroke": "#ffffff", "strokeWidth": 3,
                             "dashes": [6, 4]})
    for path in ("trimStart", "trimEnd", "trimOffset", "dashOffset"):
        for time, value in ((0, 0), (1, 50)):
            engine.run("prop.addKey", {"comp": "Main", "layer": "E", "path": path,
                                       "time": time, "value": value})
        assert engine.run("prop.get", {"comp": "Main", "layer": "E", "path": path,
                                       "time": 0.5})["value"] == 25
    with pytest.raises(CommandError, match="dashes"):
        engine.run("layer.set", {"comp": "Main", "layer": "E", "dashes": [0, 0]})
    with pytest.raises(CommandError, match="cannot be animated"):
        engine.run("prop.addKey", {"comp": "Main", "layer": "E", "path": "dashes", "time": 0,
                                   "value": [1, 1]})


def test_a_version_1_project_with_a_straight_path_opens_as_a_version_2_path(tmp_path):
    engine = engine_with_comp()
    add_path(engine, points=SQUARE, closed=False)
    saved = json.loads(json.dumps(engine.doc))
    content = saved["comps"][0]["layers"][0]["content"]
    old_form = {key: value for key, value in content.items()
                if key not in ("path", "trimStart", "trimEnd", "trimOffset", "dashes",
                               "dashOffset")}
    old_form.update(points=SQUARE, closed=False)
    saved["comps"][0]["layers"][0]["content"] = old_form
    saved["version"] = 1
    loaded = load_document(saved)
    assert loaded["version"] == VERSION == 2
    assert loaded["comps"][0]["layers"][0]["content"] == content
