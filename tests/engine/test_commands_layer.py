import pytest

from protocol.model.document import load_document
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp, engine_with_layers


def layers(engine, comp=0):
    return engine.doc["comps"][comp]["layers"]


@pytest.mark.parametrize("params,box", [
    ({"type": "solid", "color": [1, 0, 0]}, (640, 360)),  # default: the comp's size
    ({"type": "solid", "color": "#00ff00", "width": 100, "height": 60}, (100, 60)),
    ({"type": "shape", "shape": "ellipse", "size": [30, 20]}, (30, 20)),
    ({"type": "shape", "shape": "star", "size": [50, 50], "points": 6}, (50, 50)),
    ({"type": "shape", "shape": "path", "size": [10, 10], "points": [[0, 0], [10, 0], [5, 10]]},
     (10, 10)),
    ({"type": "text", "text": "Hi\nthere"}, (0, 0)),  # text: its origin is its alignment point
    ({"type": "null"}, (100, 100)),
])
def test_layer_add_each_type_is_centered(params, box):
    engine = engine_with_comp()
    result = engine.run("layer.add", {"comp": "Main", **params})
    layer = layers(engine)[0]
    assert result["layer"] == layer["id"] and result["index"] == 1
    assert layer["type"] == params["type"]
    assert layer["transform"]["anchor"] == [box[0] / 2, box[1] / 2]
    assert layer["transform"]["position"] == [320.0, 180.0]
    assert (layer["inPoint"], layer["outPoint"], layer["startTime"]) == (0.0, 10.0, 0.0)
    load_document(engine.doc)  # whatever a command builds, a load accepts


def test_layer_add_defaults_names_and_content():
    engine = engine_with_comp()
    engine.run("layer.add", {"comp": "Main", "type": "solid", "color": [1, 0, 0]})
    engine.run("layer.add", {"comp": "Main", "type": "solid", "color": [1, 0, 0]})
    engine.run("layer.add", {"comp": "Main", "type": "text", "text": "Big title\nsecond"})
    engine.run("layer.add", {"comp": "Main", "type": "shape", "shape": "rect", "size": [4, 4]})
    assert [l["name"] for l in layers(engine)] == ["Rect 1", "Big title", "Solid 2", "Solid 1"]
    rect, text = layers(engine)[0]["content"], layers(engine)[1]["content"]
    assert rect["fill"] == [1.0, 1.0, 1.0, 1.0] and rect["cornerRadius"] == 0
    assert text["align"] == "center" and text["lineHeight"] == 1.2
    assert layers(engine)[3]["content"]["color"] == [1.0, 0.0, 0.0, 1.0]


def test_layer_add_at_an_index_and_with_attributes_and_transform():
    engine = engine_with_layers()
    engine.run("layer.add", {"comp": "Main", "type": "null", "name": "Ctrl", "index": 4,
                             "position": [10, 20], "rotation": 45, "blendMode": "screen",
                             "inPoint": 1, "outPoint": 2})
    ctrl = layers(engine)[3]
    assert ctrl["name"] == "Ctrl"
    assert ctrl["transform"]["position"] == [10, 20] and ctrl["transform"]["rotation"] == 45
    assert (ctrl["blendMode"], ctrl["inPoint"], ctrl["outPoint"]) == ("screen", 1, 2)


@pytest.mark.parametrize("params,message", [
    ({"type": "solid"}, "a solid layer needs 'color'"),
    ({"type": "solid", "color": "red"}, r"color: expected a color"),
    ({"type": "solid", "color": [1, 0, 0], "text": "x"}, "a solid layer does not take 'text'; "
                                                         "it takes color, height, width"),
    ({"type": "shape", "shape": "ellipse", "size": [1, 1], "cornerRadius": 3},
     "an ellipse shape does not take 'cornerRadius'"),
    ({"type": "shape", "shape": "path", "size": [1, 1]}, "a shape layer needs 'points'"),
    ({"type": "shape", "shape": "polygon", "size": [1, 1], "points": [[0, 0], [1, 1]]},
     "points is a list of"),
    ({"type": "shape", "shape": "rect", "size": [0, 1]}, r"size: expected \[w, h\] above 0"),
    ({"type": "sphere"}, "type must be one of solid, shape, text"),
    ({"type": "null", "index": 9}, "index 9 is outside 1..1"),
    ({"type": "null", "blendMode": "burn"}, "blendMode must be one of normal"),
    ({"type": "null", "inPoint": 5, "outPoint": 1}, "outPoint \\(1\\) must be after inPoint"),
    ({"type": "null", "trackMatte": "alpha"}, "is the top layer, so there is no layer above"),
    ({"type": "image"}, "an image layer needs 'footage'"),
    ({"type": "image", "footage": "nothing"}, "the project has no footage; import some"),
    ({"type": "image", "path": "/no/such/file.png"}, "cannot import /no/such/file.png: there "
                                                     "is no such file"),
    ({"type": "text", "path": "/x.png"}, "path is for image, video, lottie and audio layers"),
    ({"type": "precomp", "source": "Main"}, "cannot show itself"),
    ({"type": "null", "colour": 1}, "layer.add does not take 'colour'; it takes comp, type"),
])
def test_layer_add_bad_input(params, message):
    engine = engine_with_comp()
    with pytest.raises(CommandError, match=message):
        engine.run("layer.add", {"comp": "Main", **params})
    assert layers(engine) == []  # a failed command leaves nothing behind


def test_layer_set_attributes_content_and_transform():
    engine = engine_with_layers()
    engine.run("layer.set", {"comp": "Main", "layer": "Red", "color": "#0000ff", "opacity": 50,
                             "name": "Blue", "enabled": False, "trackMatte": "luma"})
    red = layers(engine)[2]
    assert red["name"] == "Blue" and red["enabled"] is False and red["trackMatte"] == "luma"
    assert red["content"]["color"] == [0.0, 0.0, 1.0, 1.0]
    assert red["transform"]["opacity"] == 50
    engine.run("layer.set", {"comp": "Main", "layer": 2, "shape": "star"})
    assert layers(engine)[1]["content"]["innerRadius"] == 0.5
    assert "cornerRadius" not in layers(engine)[1]["content"]


def test_layer_set_parent_by_name_and_refuses_loops():
    engine = engine_with_layers()
    engine.run("layer.set", {"comp": "Main", "layer": "Title", "parent": "Box"})
    engine.run("layer.set", {"comp": "Main", "layer": "Box", "parent": 3})
    assert layers(engine)[0]["parent"] == layers(engine)[1]["id"]
    with pytest.raises(CommandError, match="cannot be the parent of 'Red'.*make a loop"):
        engine.run("layer.set", {"comp": "Main", "layer": "Red", "parent": "Title"})
    with pytest.raises(CommandError, match="make a loop"):
        engine.run("layer.set", {"comp": "Main", "layer": "Red", "parent": "Red"})
    engine.run("layer.set", {"comp": "Main", "layer": "Title", "parent": None})
    assert layers(engine)[0]["parent"] is None


@pytest.mark.parametrize("params,message", [
    ({"layer": "Ghost"}, "there is no layer 'Ghost' in comp 'Main'; the ones there are: "
                         "'Title' \\(layer4\\), 'Box' \\(layer3\\), 'Red' \\(layer2\\)"),
    ({"layer": 7}, "there is no layer number 7 in comp 'Main'; there are 3"),
    ({"layer": "Red", "text": "x"}, "a solid layer does not take 'text'"),
    ({"layer": "Red", "position": [1]}, r"position: expected \[x, y\]"),
    ({"layer": "Red", "outPoint": 0}, "must be after inPoint"),
])
def test_layer_set_bad_input(params, message):
    engine = engine_with_layers()
    with pytest.raises(CommandError, match=message):
        engine.run("layer.set", {"comp": "Main", **params})


def test_layers_are_found_by_id_name_and_index_and_ambiguous_names_are_refused():
    engine = engine_with_layers()
    red = layers(engine)[2]
    for ref in (red["id"], "Red", 3, "3"):
        assert engine.run("layer.get", {"comp": "Main", "layer": ref})["id"] == red["id"]
    engine.run("layer.add", {"comp": "Main", "type": "null", "name": "Red"})
    with pytest.raises(CommandError, match="2 layers in comp 'Main' are called 'Red'.*by its id"):
        engine.run("layer.get", {"comp": "Main", "layer": "Red"})


def test_layer_remove_unparents_children():
    engine = engine_with_layers()
    engine.run("layer.set", {"comp": "Main", "layer": "Title", "parent": "Red"})
    result = engine.run("layer.remove", {"comp": "Main", "layer": "Red"})
    assert result["unparented"] == [layers(engine)[0]["id"]]
    assert [l["name"] for l in layers(engine)] == ["Title", "Box"]
    assert layers(engine)[0]["parent"] is None
    with pytest.raises(CommandError, match="there is no layer 'Red'"):
        engine.run("layer.remove", {"comp": "Main", "layer": "Red"})


def test_layer_duplicate_goes_above_with_new_ids():
    engine = engine_with_layers()
    engine.run("effect.add", {"comp": "Main", "layer": "Red", "effect": "glow"})
    result = engine.run("layer.duplicate", {"comp": "Main", "layer": "Red"})
    copy, original = layers(engine)[2], layers(engine)[3]
    assert result == {"layer": copy["id"], "name": "Red 2", "index": 3}
    assert copy["content"] == original["content"]
    assert copy["effects"][0]["id"] != original["effects"][0]["id"]
    with pytest.raises(CommandError, match="layer.duplicate needs 'layer'"):
        engine.run("layer.duplicate", {"comp": "Main"})


def test_layer_move_reorders():
    engine = engine_with_layers()
    result = engine.run("layer.move", {"comp": "Main", "layer": "Red", "index": 1})
    assert result["order"] == ["Red", "Title", "Box"]
    with pytest.raises(CommandError, match="index 0 is outside 1..3"):
        engine.run("layer.move", {"comp": "Main", "layer": "Red", "index": 0})


def test_layer_list_summarises_from_the_top():
    engine = engine_with_layers()
    engine.run("prop.addKey", {"comp": "Main", "layer": "Red", "path": "transform.opacity",
                               "time": 0, "value": 0})
    result = engine.run("layer.list", {"comp": "Main"})
    assert [(l["index"], l["name"], l["type"]) for l in result["layers"]] == \
        [(1, "Title", "text"), (2, "Box", "shape"), (3, "Red", "solid")]
    assert result["layers"][2]["transform"]["opacity"] == {"animated": 1, "first": 0}
    with pytest.raises(CommandError, match="layer.list needs 'comp'"):
        engine.run("layer.list", {})


@pytest.mark.parametrize("ref", ["²", "١", "1" * 5000])
@pytest.mark.parametrize("command,params", [
    ("layer.get", lambda ref: {"comp": "Main", "layer": ref}),
    ("layer.get", lambda ref: {"comp": ref, "layer": 1}),
    ("prop.get", lambda ref: {"comp": "Main", "layer": "Red", "path": f"effects.{ref}.radius"}),
    ("prop.get", lambda ref: {"comp": "Main", "layer": "Red", "path": f"masks.{ref}.feather"}),
    ("prop.get", lambda ref: {"comp": "Main", "layer": "Title",
                              "path": f"text.animators.{ref}.range.start"}),
])
def test_a_name_of_digits_that_is_no_index_is_refused_as_a_name(command, params, ref):
    # Python's isdigit() takes '²' (and any length of digits) that int() refuses.
    engine = engine_with_layers()
    with pytest.raises(CommandError) as refused:
        engine.run(command, params(ref))
    message = str(refused.value)
    assert not any(word in message for word in ("unexpectedly", "invalid literal", "int()")), \
        message
