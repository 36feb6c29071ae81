"""template.addParam, list, setParam, removeParam, and queue items with params: what each
checks, what it writes into the document, and what survives saving, opening and undo."""

import os

import pytest

from supervisor.engine.engine import Engine
from supervisor.errors import CommandError
from tests.helpers.template_projects import card_template, logo_png


@pytest.fixture
def engine(tmp_path):
    return card_template(tmp_path)


def layer(engine, name):
    return next(layer for layer in engine.doc["comps"][0]["layers"] if layer["name"] == name)


def refused(engine, command, params, *fragments):
    with pytest.raises(CommandError) as caught:
        engine.run(command, params)
    for fragment in fragments:
        assert fragment in str(caught.value), str(caught.value)
    return str(caught.value)


def test_a_param_takes_its_type_from_the_property_and_writes_its_default(engine, tmp_path):
    params = {param["name"]: param for param in engine.run("template.list")["params"]}
    assert [(name, p["type"], p["required"]) for name, p in params.items()] == [
        ("accent", "color", False), ("title", "text", False), ("logo", "footage", False)]
    assert params["accent"]["default"] == [32 / 255, 48 / 255, 64 / 255, 1.0]
    assert params["accent"]["targets"] == [{"comp": "comp1", "compName": "Card",
                                            "layer": layer(engine, "Back")["id"],
                                            "layerName": "Back", "path": "color"}]
    assert params["logo"]["targets"][0]["file"] == str(tmp_path / "logo.png")
    assert layer(engine, "Back")["content"]["color"] == params["accent"]["default"]
    assert layer(engine, "Title")["content"]["text"] == "Hello"


def test_one_name_drives_several_targets_of_one_type(engine):
    result = engine.run("template.addParam", {"name": "accent", "comp": "Card",
                                              "layer": "Title", "path": "fill"})
    assert len(result["targets"]) == 2
    assert layer(engine, "Title")["content"]["fill"] == result["default"]  # default written
    refused(engine, "template.addParam", {"name": "accent", "comp": "Card", "layer": "Title",
                                          "path": "fill"}, "already drives")
    refused(engine, "template.addParam", {"name": "accent", "comp": "Card", "layer": "Title",
                                          "path": "size"}, "is a color param",
            "takes a number one")


def test_an_effect_param_is_bound_by_the_effects_id(engine):
    effect = engine.run("effect.add", {"comp": "Card", "layer": "Title",
                                       "effect": "gaussianBlur"})["effect"]
    result = engine.run("template.addParam", {"name": "blur", "comp": "Card",
                                              "layer": "Title", "path": "effects.1.radius",
                                              "default": 3})
    assert result["type"] == "number"
    assert result["targets"][0]["path"] == f"effects.{effect}.radius"
    assert layer(engine, "Title")["effects"][0]["params"]["radius"] == 3


@pytest.mark.parametrize("params,fragments", [
    ({"name": "2x", "comp": "Card", "layer": "Title", "path": "text"}, ["identifier"]),
    ({"name": "t", "comp": "Card", "layer": "Title"}, ["path is missing"]),
    ({"name": "t", "comp": "Card", "layer": "Title", "path": "nope"}, ["no property 'nope'"]),
    ({"name": "t", "comp": "Card", "layer": "Title", "path": "animators"},
     ["no property"]),
    ({"name": "t", "comp": "Card", "layer": "Title", "path": "transform.rotation"},
     ["is animated (2 keys)"]),
    ({"name": "t", "comp": "Card", "layer": "Title", "path": "text", "type": "color"},
     ["takes a text param, not color"]),
    ({"name": "t", "comp": "Card", "layer": "Title", "path": "fill", "default": "pink"},
     ["the default of 't'", "expected a color"]),
    ({"name": "t", "comp": "Card", "layer": "Title", "path": "size", "default": -4},
     ["above 0"]),
    ({"name": "t", "comp": "Card", "layer": "Title", "path": "font", "default": "NoSuch"},
     ["no font family 'NoSuch'"]),
    ({"name": "t", "footage": "logo.png", "comp": "Card"}, ["not both"]),
])
def test_add_param_refuses_what_it_cannot_bind(engine, params, fragments):
    before = engine.revision
    refused(engine, "template.addParam", params, *fragments)
    assert engine.revision == before and "t" not in {
        p["name"] for p in engine.run("template.list")["params"]}


def test_a_footage_default_must_be_a_file_the_layer_can_show(engine, tmp_path):
    refused(engine, "template.setParam", {"name": "logo", "default": str(tmp_path / "no.png")},
            "the default of 'logo'", "there is no such file")
    other = logo_png(tmp_path / "other.png", (255, 0, 0), size=8)
    result = engine.run("template.setParam", {"name": "logo", "default": other})
    footage = engine.doc["footage"][0]
    assert result["default"] == other and (footage["path"], footage["width"]) == (other, 8)


def test_set_param_changes_the_default_in_every_target_and_can_make_it_required(engine):
    engine.run("template.setParam", {"name": "title", "default": "Bye",
                                     "description": "the headline"})
    assert layer(engine, "Title")["content"]["text"] == "Bye"
    result = engine.run("template.setParam", {"name": "title", "required": True})
    assert result["required"] and result["default"] is None
    assert layer(engine, "Title")["content"]["text"] == "Bye"  # a required param leaves it
    refused(engine, "template.setParam", {"name": "title", "required": False}, "no default")
    refused(engine, "template.setParam", {"name": "nope"}, "no param 'nope'",
            "accent, title, logo")


def test_remove_param_removes_a_target_or_the_param_and_undo_brings_it_back(engine):
    engine.run("template.addParam", {"name": "accent", "comp": "Card", "layer": "Title",
                                     "path": "fill"})
    assert len(engine.run("template.removeParam", {"name": "accent", "target": 1})[
        "targets"]) == 1
    assert engine.run("template.removeParam", {"name": "accent"}) == {"removed": "accent"}
    assert [p["name"] for p in engine.run("template.list")["params"]] == ["title", "logo"]
    engine.run("edit.undo", {"steps": 2})
    assert len(engine.run("template.list")["params"][0]["targets"]) == 2


def test_a_param_whose_layer_was_removed_is_listed_with_its_problem(engine, tmp_path):
    engine.run("layer.remove", {"comp": "Card", "layer": "Title"})
    title = engine.run("template.list")["params"][1]
    assert "is no longer in comp 'Card'" in title["targets"][0]["problem"]
    engine.run("project.save", {"path": str(tmp_path / "kept.rvproj")})
    assert Engine(str(tmp_path / "kept.rvproj")).run("template.list")["params"][1] == title
    refused(engine, "renderQueue.add", {"comp": "Card", "output": str(tmp_path / "x.mp4"),
                                        "params": {"title": "x"}},
            "param 'title' cannot be set", "template.removeParam")


def test_a_queue_item_stores_checked_values_and_refuses_bad_ones(engine, tmp_path):
    logo = logo_png(tmp_path / "red.png", (255, 0, 0))
    added = engine.run("renderQueue.add", {
        "comp": "Card", "output": str(tmp_path / "[param:title]_[param:accent].mp4"),
        "params": {"title": "Hi", "accent": "#ff0000", "logo": logo}})
    item = engine.doc["renderQueue"][-1]
    assert item["params"] == {"title": "Hi", "accent": [1.0, 0.0, 0.0, 1.0], "logo": logo}
    assert added["output"] == str(tmp_path / "[param:title]_[param:accent].mp4")
    assert layer(engine, "Title")["content"]["text"] == "Hello"  # the project is unchanged
    out = str(tmp_path / "y.mp4")
    refused(engine, "renderQueue.add", {"comp": "Card", "output": out,
                                        "params": {"accent": "blue"}},
            "param 'accent': expected a color")
    refused(engine, "renderQueue.add", {"comp": "Card", "output": out,
                                        "params": {"colour": "#fff"}},
            "param 'colour': is not a param", "accent, title, logo")
    refused(engine, "renderQueue.add", {"comp": "Card", "output": out,
                                        "params": {"logo": str(tmp_path / "gone.png")}},
            "param 'logo'", "there is no such file")
    refused(engine, "renderQueue.add", {"comp": "Card",
                                        "output": str(tmp_path / "[param:nope].mp4")},
            "names [param:nope]", "there is no param 'nope'")
    engine.run("template.setParam", {"name": "title", "required": True})
    refused(engine, "renderQueue.add", {"comp": "Card", "output": out, "params": {}},
            "param 'title': has no default")
    duplicated = engine.run("renderQueue.duplicate", {"item": added["item"]})
    assert engine.doc["renderQueue"][duplicated["index"] - 1]["params"] == item["params"]


def test_footage_values_and_defaults_are_saved_relative_to_the_project(engine, tmp_path):
    os.makedirs(tmp_path / "art")
    logo = logo_png(tmp_path / "art" / "red.png", (255, 0, 0))
    engine.run("template.setParam", {"name": "logo", "default": logo})
    engine.run("renderQueue.add", {"comp": "Card", "output": str(tmp_path / "a.mp4"),
                                   "params": {"logo": logo, "title": "T"}})
    path = str(tmp_path / "card.rvproj")
    engine.run("project.save", {"path": path})
    text = open(path).read()
    assert str(tmp_path) not in text and '"art/red.png"' in text
    moved = tmp_path / "moved"
    os.makedirs(moved / "art")
    os.replace(path, moved / "card.rvproj")
    os.replace(logo, moved / "art" / "red.png")
    opened = Engine(str(moved / "card.rvproj"))
    assert opened.doc["params"][2]["default"] == str(moved / "art" / "red.png")
    assert opened.doc["renderQueue"][0]["params"]["logo"] == str(moved / "art" / "red.png")
    assert opened.run("template.list")["params"][0]["default"] == \
        engine.run("template.list")["params"][0]["default"]
