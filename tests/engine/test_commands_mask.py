"""mask.add, mask.set, mask.remove, mask.list and masks.ID.* properties through the engine."""

import pytest

from protocol.model.bezier import KAPPA
from protocol.model.document import load_document
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_layers


def add(engine, **params):
    return engine.run("mask.add", {"comp": "Main", "layer": "Box", **params})


def masks(engine, layer="Box"):
    return engine.run("mask.list", {"comp": "Main", "layer": layer})["masks"]


def test_a_rect_mask_defaults_to_the_layers_content_box():
    engine = engine_with_layers()  # Box is an 80x40 rect
    result = add(engine, shape="rect", mode="add")
    assert result["mask"].startswith("mask") and result["name"] == "Mask 1"
    (stored,) = masks(engine)
    assert stored["path"]["points"] == [[0, 0], [80, 0], [80, 40], [0, 40]]
    assert (stored["mode"], stored["inverted"], stored["feather"], stored["opacity"],
            stored["expansion"]) == ("add", False, 0, 100, 0)


def test_an_ellipse_mask_is_four_cubics_around_its_center():
    engine = engine_with_layers()
    add(engine, shape="ellipse", mode="subtract", size=[20, 10], position=[30, 15])
    path = masks(engine)[0]["path"]
    assert path["points"] == [[30, 10], [40, 15], [30, 20], [20, 15]]
    assert path["outTangents"][0] == [pytest.approx(10 * KAPPA), 0.0]


def test_a_path_mask_takes_points_and_tangents_and_is_always_closed_when_drawn():
    engine = engine_with_layers()
    add(engine, shape="path", mode="intersect", points=[[0, 0], [40, 0], [20, 30]],
        outTangents=[[5, 0], [0, 0], [0, 0]], feather=4, opacity=80, expansion=-2,
        inverted=True, name="Cut")
    (stored,) = masks(engine)
    assert stored["name"] == "Cut" and stored["inverted"] is True
    assert stored["path"]["outTangents"][0] == [5, 0]
    assert (stored["feather"], stored["opacity"], stored["expansion"]) == (4, 80, -2)


def test_masks_are_properties_that_animate():
    engine = engine_with_layers()
    mask_id = add(engine, shape="rect", mode="add")["mask"]
    for path in (f"masks.{mask_id}.feather", "masks.Mask 1.opacity", "masks.1.expansion"):
        for time, value in ((0, 0), (2, 10)):
            engine.run("prop.addKey", {"comp": "Main", "layer": "Box", "path": path,
                                       "time": time, "value": value})
        assert engine.run("prop.get", {"comp": "Main", "layer": "Box", "path": path,
                                       "time": 1})["value"] == 5
    wider = {"points": [[0, 0], [160, 0], [160, 40], [0, 40]]}
    engine.run("prop.addKey", {"comp": "Main", "layer": "Box", "path": f"masks.{mask_id}.path",
                               "time": 0, "value": masks(engine)[0]["path"]})
    engine.run("prop.addKey", {"comp": "Main", "layer": "Box", "path": f"masks.{mask_id}.path",
                               "time": 2, "value": wider})
    middle = engine.run("prop.get", {"comp": "Main", "layer": "Box",
                                     "path": f"masks.{mask_id}.path", "time": 1})["value"]
    assert middle["points"][1] == [120, 0]


def test_mask_set_changes_the_outline_and_settings_and_remove_takes_it_away():
    engine = engine_with_layers()
    add(engine, shape="rect", mode="add")
    add(engine, shape="ellipse", mode="add")
    engine.run("mask.set", {"comp": "Main", "layer": "Box", "mask": 1, "mode": "difference",
                            "shape": "rect", "size": [10, 10], "position": [5, 5]})
    first = masks(engine)[0]
    assert first["mode"] == "difference" and first["path"]["points"][2] == [10, 10]
    engine.run("mask.set", {"comp": "Main", "layer": "Box", "mask": "Mask 1",
                            "points": [[0, 0], [1, 0], [1, 1]]})
    assert masks(engine)[0]["path"]["points"] == [[0, 0], [1, 0], [1, 1]]
    removed = engine.run("mask.remove", {"comp": "Main", "layer": "Box", "mask": "Mask 2"})
    assert removed["masks"] == 1 and [m["name"] for m in masks(engine)] == ["Mask 1"]


def test_any_layer_takes_masks_and_one_without_a_box_needs_a_size():
    engine = engine_with_layers()
    add(engine, shape="rect", mode="add")
    engine.run("mask.add", {"comp": "Main", "layer": "Red", "shape": "ellipse", "mode": "add"})
    with pytest.raises(CommandError, match="no content box.*give the mask a size"):
        engine.run("mask.add", {"comp": "Main", "layer": "Title", "shape": "rect",
                                "mode": "add"})
    engine.run("mask.add", {"comp": "Main", "layer": "Title", "shape": "rect", "mode": "add",
                            "size": [100, 40], "position": [0, 0]})
    assert len(masks(engine, "Title")) == 1


@pytest.mark.parametrize("params, words", [
    ({"shape": "rect", "mode": "lighten"}, "mode must be one of add, subtract"),
    ({"shape": "path", "mode": "add"}, "a path mask needs 'points'"),
    ({"shape": "rect", "mode": "add", "points": [[0, 0], [1, 1]]}, "not points"),
    ({"shape": "path", "mode": "add", "points": [[0, 0], [1, 1]], "size": [1, 1]}, "not size"),
    ({"shape": "rect", "mode": "add", "feather": -1}, "feather: expected a number of 0 or more"),
    ({"shape": "rect", "mode": "add", "size": [0, 5]}, "size: expected [w, h] above 0"),
])
def test_a_bad_mask_is_refused_with_a_sentence_and_changes_nothing(params, words):
    engine = engine_with_layers()
    before = engine.revision
    with pytest.raises(CommandError) as refused:
        add(engine, **params)
    assert words in str(refused.value) and str(refused.value).endswith(".")
    assert engine.revision == before and masks(engine) == []


def test_unknown_masks_are_named_with_the_ones_there_are():
    engine = engine_with_layers()
    add(engine, shape="rect", mode="add")
    with pytest.raises(CommandError, match="has no mask 'Nope'; its masks are 1 'Mask 1'"):
        engine.run("mask.remove", {"comp": "Main", "layer": "Box", "mask": "Nope"})
    with pytest.raises(CommandError, match="a mask has no property 'blur'"):
        engine.run("prop.set", {"comp": "Main", "layer": "Box", "path": "masks.1.blur",
                                "value": 1})


def test_duplicates_get_their_own_mask_ids_and_the_project_still_loads():
    engine = engine_with_layers()
    original = add(engine, shape="rect", mode="add")["mask"]
    engine.run("layer.duplicate", {"comp": "Main", "layer": "Box", "name": "Box copy"})
    engine.run("comp.duplicate", {"comp": "Main", "name": "Again"})
    ids = [m["id"] for comp in engine.doc["comps"] for layer in comp["layers"]
           for m in layer["masks"]]
    assert len(ids) == 4 and len(set(ids)) == 4 and original in ids
    load_document(engine.doc)
    listed = engine.run("layer.list", {"comp": "Main"})["layers"]
    assert next(l for l in listed if l["name"] == "Box")["masks"][0]["mode"] == "add"
