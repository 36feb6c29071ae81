"""The document schema: validation naming the place, colors, migration, factories, ids."""

import copy

import pytest

from protocol.model.colors import normalize_color
from protocol.model.document import (VERSION, DocumentError, allocate_id, dumps, load_document,
                                     loads, new_comp, new_document)
from protocol.model.layers import default_content, new_layer


def sample_document():
    doc = new_document("Sample")
    main = new_comp(doc, "Main", width=640, height=360)
    other = new_comp(doc, "Other", width=200, height=100)
    doc["comps"] += [main, other]
    solid = new_layer(doc, main, allocate_id(doc, "layer"), "Red", "solid",
                      default_content("solid", {"color": [1.0, 0.0, 0.0, 1.0], "width": 100,
                                                "height": 50}, main))
    pre = new_layer(doc, main, allocate_id(doc, "layer"), "Pre", "precomp",
                    default_content("precomp", {"source": other["id"]}, main))
    main["layers"] += [solid, pre]
    return doc


def test_a_valid_document_loads_unchanged_and_survives_text_round_trip():
    doc = load_document(sample_document())
    assert loads(dumps(doc)) == doc
    assert dumps(loads(dumps(doc))) == dumps(doc)


def test_new_layer_is_centered_anchor_at_content_center_position_at_comp_center():
    doc = sample_document()
    solid, pre = doc["comps"][0]["layers"]
    assert solid["transform"]["anchor"] == [50.0, 25.0]
    assert solid["transform"]["position"] == [320.0, 180.0]
    assert pre["transform"]["anchor"] == [100.0, 50.0]  # a precomp's box is its source comp


def test_ids_come_from_next_id_and_never_repeat():
    doc = new_document()
    assert [allocate_id(doc, kind) for kind in ("comp", "layer", "effect", "footage", "item")] \
        == ["comp1", "layer2", "fx3", "footage4", "item5"]
    assert doc["nextId"] == 6


@pytest.mark.parametrize("edit,place", [
    (lambda d: d["comps"][0]["layers"][0]["transform"].__setitem__("position", 5),
     "comps[0].layers[0].transform.position: expected [x, y]"),
    (lambda d: d["comps"][1].__setitem__("width", -3),
     "comps[1].width: expected a number above 0"),
    (lambda d: d["comps"][0]["layers"][1].__setitem__("blendMode", "burn"),
     "comps[0].layers[1].blendMode: expected one of normal"),
    (lambda d: d["comps"][0]["layers"][0]["content"].__setitem__("color", [2, 0, 0]),
     "comps[0].layers[0].content.color: expected a color"),
    (lambda d: d["comps"][0]["layers"][0].__setitem__("sparkle", True),
     "comps[0].layers[0].sparkle: unknown key"),
    (lambda d: d["comps"][0]["layers"][0]["content"].pop("color"),
     "comps[0].layers[0].content: missing color"),
    (lambda d: d["comps"][0]["layers"][0].__setitem__("parent", "layer99"),
     "comps[0].layers[0].parent: 'layer99' is not another layer"),
    (lambda d: d["comps"][0]["layers"][1]["content"].__setitem__("source", "comp42"),
     "comps[0].layers[1].content.source: no comp has the id"),
    (lambda d: d["comps"][0]["layers"][0]["transform"].__setitem__(
        "opacity", {"keys": [{"time": 1, "value": 0}, {"time": 0.5, "value": 1}]}),
     "comps[0].layers[0].transform.opacity.keys[1].time: key times must be increasing"),
    (lambda d: d["comps"][0]["layers"][0]["transform"].__setitem__(
        "rotation", {"keys": [{"time": 0, "value": 0, "interpolation": "wobble"}]}),
     "comps[0].layers[0].transform.rotation.keys[0].interpolation: expected an interpolation"),
    (lambda d: d["comps"][0]["layers"][1].__setitem__("id", "layer3"),
     "comps[0].layers[1].id: 'layer3' is already the id of comps[0].layers[0]"),
    (lambda d: d.__setitem__("nextId", 2), "nextId: is 2 but the id counter"),
    (lambda d: d["comps"][0]["layers"][0]["content"].__setitem__("shape", "rect"),
     "comps[0].layers[0].content.shape: unknown key"),
])
def test_validation_errors_name_the_place(edit, place):
    doc = sample_document()
    edit(doc)
    with pytest.raises(DocumentError) as caught:
        load_document(doc)
    assert str(caught.value).startswith(place), str(caught.value)


def test_parent_loops_and_precomp_loops_are_refused():
    doc = sample_document()
    solid, pre = doc["comps"][0]["layers"]
    solid["parent"], pre["parent"] = pre["id"], solid["id"]
    with pytest.raises(DocumentError, match="form a loop"):
        load_document(doc)
    doc = sample_document()
    doc["comps"][0]["layers"][1]["content"]["source"] = doc["comps"][0]["id"]
    with pytest.raises(DocumentError, match="nest inside themselves"):
        load_document(doc)


def test_loading_normalises_colors_to_four_components():
    doc = sample_document()
    doc["comps"][0]["background"] = "#336699"
    doc["comps"][0]["layers"][0]["content"]["color"] = [0, 1, 0]
    loaded = load_document(doc)
    assert loaded["comps"][0]["background"] == [0x33 / 255, 0x66 / 255, 0x99 / 255, 1.0]
    assert loaded["comps"][0]["layers"][0]["content"]["color"] == [0.0, 1.0, 0.0, 1.0]


@pytest.mark.parametrize("given,stored", [
    ([0.5, 0.25, 1], [0.5, 0.25, 1.0, 1.0]),
    ([0, 0, 0, 0.5], [0.0, 0.0, 0.0, 0.5]),
    ("#ff000080", [1.0, 0.0, 0.0, 128 / 255]),
    ("#FFFFFF", [1.0, 1.0, 1.0, 1.0]),
])
def test_color_forms(given, stored):
    assert normalize_color(given) == stored


@pytest.mark.parametrize("bad", ["red", "#ff00", "#gg0000", [1, 0], [1, 0, 0, 0, 1],
                                 [1.5, 0, 0], [True, 0, 0], None])
def test_bad_colors_are_refused_with_the_accepted_forms(bad):
    with pytest.raises(ValueError, match="expected a color"):
        normalize_color(bad)


def test_a_version_0_draft_is_migrated():
    draft = sample_document()
    del draft["version"], draft["nextId"], draft["renderQueue"]
    loaded = load_document(draft)
    assert loaded["version"] == VERSION
    assert loaded["nextId"] == 5  # past the highest id in use (layer4)
    assert loaded["renderQueue"] == []
    assert list(loaded)[:3] == ["version", "name", "nextId"]


def test_a_newer_version_is_refused_with_a_sentence():
    doc = sample_document()
    doc["version"] = VERSION + 1
    with pytest.raises(DocumentError, match="newer than this rendervisor reads"):
        load_document(doc)


def test_text_that_is_not_json_is_refused_with_the_position():
    with pytest.raises(DocumentError, match=r"not a JSON document \(line 1, column 2"):
        loads("{nope")


def test_load_does_not_touch_its_input():
    doc = sample_document()
    doc["comps"][0]["background"] = "#000000"
    before = copy.deepcopy(doc)
    load_document(doc)
    assert doc == before
