"""Template params as pure data: types and how a text spells a value, a row's values checked
against each param's targets, applied to a copy of the document, stored and loaded, and
filled into output names."""

import copy
import re

import pytest

from protocol.model.document import (DocumentError, allocate_id, dumps, load_document, loads,
                                     new_comp, new_document)
from protocol.model.layers import default_content, new_layer
from protocol.model.output_names import (expand_fields, find_clash, planned_output,
                                         queue_outputs, unknown_fields)
from protocol.model.template_params import (ParamError, TargetError, apply_values,
                                            check_row, check_value_as, resolved_values,
                                            type_for, value_text)


def template():
    """A comp with a text, a solid and an image layer, and params title (text, default),
    accent (color driving the solid and the text's fill), size (number, required) and
    logo (footage)."""
    doc = new_document("Cards")
    comp = new_comp(doc, "Card", width=320, height=180)
    doc["comps"].append(comp)
    doc["footage"].append({"id": allocate_id(doc, "footage"), "name": "logo.png",
                           "path": "/art/logo.png", "kind": "image", "width": 64,
                           "height": 64})
    layers = [("Back", "solid", {"color": [0, 0, 0, 1], "width": 320, "height": 180}),
              ("Title", "text", {"text": "Hello"}),
              ("Logo", "image", {"footage": doc["footage"][0]["id"]})]
    for name, kind, content in layers:
        comp["layers"].append(new_layer(doc, comp, allocate_id(doc, "layer"), name, kind,
                                        default_content(kind, content, comp)))
    back, title, _logo = (layer["id"] for layer in comp["layers"])
    doc["params"] = [
        {"name": "title", "type": "text", "description": "", "default": "Hello",
         "targets": [{"comp": comp["id"], "layer": title, "path": "text"}]},
        {"name": "accent", "type": "color", "description": "the card's color",
         "default": [1.0, 1.0, 1.0, 1.0],
         "targets": [{"comp": comp["id"], "layer": back, "path": "color"},
                     {"comp": comp["id"], "layer": title, "path": "fill"}]},
        {"name": "size", "type": "number", "description": "",
         "targets": [{"comp": comp["id"], "layer": title, "path": "size"}]},
        {"name": "logo", "type": "footage", "description": "",
         "default": "/art/logo.png", "targets": [{"footage": doc["footage"][0]["id"]}]},
    ]
    return load_document(doc)


def layer(doc, name):
    return next(layer for layer in doc["comps"][0]["layers"] if layer["name"] == name)


@pytest.mark.parametrize("kind,key,expected", [
    ("string", "text", "text"), ("string", "font", "font"), ("color", "fill", "color"),
    ("fill", "fill", "color"), ("positive", "size", "number"), ("weight", "weight", "number"),
    ("vec2", "position", "vec2"), ("size", "box", "vec2"), ("bool", "bold", "boolean"),
    (("left", "center"), "align", "choice"), ("bezierPath", "path", None),
    ("dashes", "dashes", None)])
def test_a_property_is_driven_by_the_type_of_its_value_kind(kind, key, expected):
    assert type_for(kind, key) == expected


@pytest.mark.parametrize("type_name,text,value", [
    ("color", "#ff0000", [1.0, 0.0, 0.0, 1.0]), ("color", "[0, 1, 0]", [0.0, 1.0, 0.0, 1.0]),
    ("number", "0.5", 0.5), ("number", " 120 ", 120), ("vec2", "[100, 200]", [100, 200]),
    ("boolean", "Yes", True), ("boolean", "0", False), ("text", " as is ", " as is "),
    ("footage", "art/a.png", "art/a.png")])
def test_a_text_is_parsed_by_the_params_type(type_name, text, value):
    assert check_value_as(type_name, text) == value


@pytest.mark.parametrize("type_name,text,fragment", [
    ("color", "blue", "expected a color"), ("color", "[2, 0, 0]", "between 0 and 1"),
    ("number", "lots", "expected a number such as 0.5"), ("number", "nan", "a number"),
    ("vec2", "[1, 2", "expected a JSON list"), ("vec2", "[1, 2, 3]", "expected [x, y]"),
    ("boolean", "maybe", "expected true or false"), ("footage", "", "file path")])
def test_a_bad_text_says_what_its_type_expects(type_name, text, fragment):
    with pytest.raises(ValueError, match=re.escape(fragment)):
        check_value_as(type_name, text)


def test_a_value_must_suit_every_target_not_only_its_type():
    doc = template()
    with pytest.raises(ParamError) as caught:
        check_row(doc, {"size": "-3"})
    assert caught.value.name == "size" and "above 0" in str(caught.value)
    assert check_row(doc, {"size": "40", "accent": "#00ff00"}) == {
        "size": 40, "accent": [0.0, 1.0, 0.0, 1.0]}


def test_an_unknown_name_is_refused_listing_the_params():
    with pytest.raises(ParamError) as caught:
        check_row(template(), {"colour": "#ff0000"})
    assert caught.value.name == "colour"
    assert "title, accent, size, logo" in str(caught.value)


def test_a_param_without_default_must_be_given_and_defaults_fill_the_rest():
    doc = template()
    with pytest.raises(ParamError) as caught:
        resolved_values(doc, {"title": "Hi"})
    assert caught.value.name == "size" and "no default" in str(caught.value)
    assert resolved_values(doc, {"size": 30}) == {
        "title": "Hello", "accent": [1.0, 1.0, 1.0, 1.0], "size": 30,
        "logo": "/art/logo.png"}


def test_applying_values_sets_every_target_on_a_copy_and_leaves_the_document_alone():
    doc = template()
    before = copy.deepcopy(doc)
    values = resolved_values(doc, check_row(doc, {"title": "Bonjour", "accent": "#ff0000",
                                                  "size": 40, "logo": "/art/b.png"}))
    probed = {"/art/b.png": {"name": "b.png", "path": "/art/b.png", "kind": "image",
                             "width": 32, "height": 16}}
    applied = apply_values(doc, values, probed)
    assert doc == before
    assert layer(applied, "Title")["content"]["text"] == "Bonjour"
    assert layer(applied, "Title")["content"]["size"] == 40
    assert layer(applied, "Title")["content"]["fill"] == [1.0, 0.0, 0.0, 1.0]
    assert layer(applied, "Back")["content"]["color"] == [1.0, 0.0, 0.0, 1.0]
    assert applied["footage"][0] == {"id": doc["footage"][0]["id"], **probed["/art/b.png"]}
    assert load_document(applied) == applied


def test_a_value_replaces_a_targets_keys_in_the_copy():
    doc = template()
    layer(doc, "Title")["content"]["text"] = {"keys": [{"time": 0, "value": "a",
                                                        "interpolation": "hold"}]}
    applied = apply_values(doc, {"title": "b"})
    assert layer(applied, "Title")["content"]["text"] == "b"


def test_a_target_whose_layer_is_gone_is_refused_by_name_when_applied():
    doc = template()
    doc["comps"][0]["layers"] = [layer(doc, "Back"), layer(doc, "Logo")]
    doc = load_document(doc)  # a project whose layer went still opens
    with pytest.raises(TargetError, match="param 'title' cannot be set: its layer layer"):
        apply_values(doc, {"title": "x"})
    with pytest.raises(TargetError, match="param 'title'"):
        check_row(doc, {"title": "x"})


def test_params_and_item_params_survive_saving_and_loading():
    doc = template()
    doc["renderQueue"].append({"id": "item99", "comp": doc["comps"][0]["id"],
                               "output": "/out/[param:title].mp4", "format": "h264",
                               "frames": None, "skipExisting": False, "codecOptions": {},
                               "status": "queued", "params": {"title": "Hi", "size": 3}})
    doc["nextId"] = 100
    assert loads(dumps(doc)) == doc
    assert load_document(doc)["params"][1]["default"] == [1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize("edit,place", [
    (lambda d: d["params"][0].__setitem__("name", "2fast"), "params[0]: a param name is"),
    (lambda d: d["params"][1].__setitem__("name", "title"), "params[1]: 'title' is the name"),
    (lambda d: d["params"][0].__setitem__("type", "rainbow"), "params[0]: type must be"),
    (lambda d: d["params"][1].__setitem__("default", "pink"), "params[1]: expected a color"),
    (lambda d: d["params"][0].__setitem__("targets", []), "params[0].targets: expected a non"),
    (lambda d: d["params"][3]["targets"].__setitem__(0, {"comp": "c"}),
     "params[3].targets[0]: a footage param's target"),
    (lambda d: d["params"][0].__setitem__("colour", 1), "params[0]: unknown key 'colour'"),
])
def test_a_bad_param_in_a_file_is_refused_naming_its_place(edit, place):
    doc = template()
    edit(doc)
    with pytest.raises(DocumentError) as caught:
        load_document(doc)
    assert str(caught.value).startswith(place)


def test_values_as_file_name_text():
    assert value_text("color", [1.0, 0.0, 0.5, 1.0]) == "ff0080"
    assert value_text("color", [1.0, 0.0, 0.0, 0.5]) == "ff000080"
    assert value_text("number", 0.5) == "0.5" and value_text("number", 100.0) == "100"
    assert value_text("vec2", [100, 20.5]) == "100x20.5"
    assert value_text("footage", "/art/acme logo.png") == "acme logo"
    assert value_text("boolean", True) == "true"


def test_output_fields_fill_params_and_rows_and_keep_a_slash_out():
    fields = {"title": "a/b", "lang": "fr"}
    assert expand_fields("/o/[compName]_[param:lang]/[param:title]_[row].mp4", "Card",
                         fields, 7) == "/o/Card_fr/a_b_7.mp4"
    assert expand_fields("/o/[row].mp4", "Card", fields) == "/o/1.mp4"
    assert unknown_fields("/o/[param:title]_[param:nope].mp4", fields) == ["nope"]


def test_two_items_naming_one_file_through_their_params_clash():
    doc = template()
    comp = doc["comps"][0]
    for number, title in ((1, "Same"), (2, "Same"), (3, "Other")):
        doc["renderQueue"].append({"id": f"item{90 + number}", "comp": comp["id"],
                                   "output": "/o/[param:title].mp4", "format": "h264",
                                   "frames": None, "skipExisting": False,
                                   "codecOptions": {}, "status": "queued",
                                   "params": {"title": title, "size": 1}})
    outputs = queue_outputs(doc)
    assert [planned.output for planned in outputs] == ["/o/Same.mp4", "/o/Same.mp4",
                                                       "/o/Other.mp4"]
    clash = find_clash(outputs)
    assert (clash.first, clash.second, clash.path) == ("item91", "item92", "/o/Same.mp4")
    plain = dict(doc["renderQueue"][0], params={})  # no value given: the default names it
    assert planned_output(plain, comp, {"title": "Hello"}).output == "/o/Hello.mp4"


def test_a_rows_copy_shares_only_what_its_values_leave_alone():
    doc = template()
    doc["comps"].append(copy.deepcopy(doc["comps"][0]) | {"id": "comp99", "name": "Other"})
    applied = apply_values(doc, {"title": "Row"})
    assert applied["comps"][1] is doc["comps"][1]  # untouched comp: shared
    assert layer(applied, "Back") is layer(doc, "Back")  # untouched layer: shared
    assert layer(applied, "Title") is not layer(doc, "Title")
    assert layer(doc, "Title")["content"]["text"] == "Hello"
    assert applied["footage"][0] is doc["footage"][0]
    pointed = apply_values(doc, {"logo": "/art/b.png"})
    assert pointed["footage"][0]["path"] == "/art/b.png"
    assert doc["footage"][0]["path"] == "/art/logo.png"
