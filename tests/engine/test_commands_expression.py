"""prop.setExpression and how a layer keeps its expressions: shown by layer.get, prop.get and
doc_inspect, saved and opened, undone, kept on a duplicate's own effects, dropped with the
effect or mask they drive. Nothing here runs an expression: the supervisor never does."""

import pytest

from protocol.model.document import DocumentError, load_document
from supervisor.engine.commands.overview import document_overview
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_layers


def run(engine, command, **params):
    return engine.run(command, {"comp": "Main", "layer": "Red", **params})


def test_set_shows_in_layer_get_prop_get_and_doc_inspect_and_null_removes_it():
    engine = engine_with_layers()
    result = run(engine, "prop.setExpression", path="transform.position",
                 expression="wiggle(2, 30)")
    assert result == {"path": "transform.position", "expression": "wiggle(2, 30)",
                      "expressions": ["transform.position"]}
    layer = run(engine, "layer.get")
    assert layer["expressions"] == {"transform.position": "wiggle(2, 30)"}
    got = run(engine, "prop.get", path="transform.position", time=1)
    assert got["expression"] == "wiggle(2, 30)" and got["value"] == [320, 180]
    summary = next(item for item in document_overview(engine)["comps"][0]["layers"]
                   if item["name"] == "Red")
    assert summary["expressions"] == {"transform.position": "wiggle(2, 30)"}
    run(engine, "prop.setExpression", path="transform.position", expression=None)
    assert "expressions" not in run(engine, "layer.get")
    assert "expression" not in run(engine, "prop.get", path="transform.position")


def test_an_effect_param_is_stored_by_the_effect_s_id_and_goes_with_the_effect():
    engine = engine_with_layers()
    run(engine, "effect.add", effect="gaussianBlur")
    effect_id = run(engine, "layer.get")["effects"][0]["id"]
    result = run(engine, "prop.setExpression", path="effects.1.radius", expression="time * 4")
    assert result["path"] == f"effects.{effect_id}.radius"
    run(engine, "prop.setExpression", path="transform.rotation", expression="time * 90")
    run(engine, "effect.remove", effect=effect_id)
    assert run(engine, "layer.get")["expressions"] == {"transform.rotation": "time * 90"}


def test_a_mask_s_expression_goes_with_the_mask():
    engine = engine_with_layers()
    mask = run(engine, "mask.add", shape="rect", mode="add")["mask"]
    run(engine, "prop.setExpression", path=f"masks.{mask}.feather", expression="time * 10")
    run(engine, "mask.remove", mask=mask)
    assert "expressions" not in run(engine, "layer.get")


def test_a_duplicate_keeps_its_expressions_on_its_own_effects():
    engine = engine_with_layers()
    run(engine, "effect.add", effect="glow")
    run(engine, "prop.setExpression", path="effects.1.radius", expression="20 + time")
    copy = run(engine, "layer.duplicate")["layer"]
    duplicate = engine.run("layer.get", {"comp": "Main", "layer": copy})
    assert duplicate["expressions"] == {f"effects.{duplicate['effects'][0]['id']}.radius":
                                        "20 + time"}


def test_saved_and_opened_and_undone(tmp_path):
    engine = engine_with_layers()
    run(engine, "prop.setExpression", path="color", expression="[1, time / 10, 0, 1]")
    engine.run("project.save", {"path": str(tmp_path / "p.rvproj")})
    engine.run("project.open", {"path": str(tmp_path / "p.rvproj")})
    assert run(engine, "layer.get")["expressions"] == {"color": "[1, time / 10, 0, 1]"}
    run(engine, "prop.setExpression", path="color", expression="[0, 0, 1, 1]")
    engine.run("edit.undo", {})
    assert run(engine, "layer.get")["expressions"] == {"color": "[1, time / 10, 0, 1]"}


@pytest.mark.parametrize("path, expression, message", [
    ("transform.position", "", "the expression is empty; give null to remove an expression"),
    ("transform.position", "x" * 70000, "the expression is 70,000 characters, over the limit "
                                        "of 65,536"),
    ("nothing", "1", "layer 'Red' has no property 'nothing'"),
    ("effects.1.radius", "1", "layer 'Red' has no effect '1'"),
])
def test_refusals_are_sentences(path, expression, message):
    engine = engine_with_layers()
    with pytest.raises(CommandError, match=message):
        run(engine, "prop.setExpression", path=path, expression=expression)


def test_structural_and_sound_properties_take_no_expression():
    engine = engine_with_layers()
    with pytest.raises(CommandError, match="align cannot carry an expression: it is not "
                                           "animatable"):
        engine.run("prop.setExpression", {"comp": "Main", "layer": "Title", "path": "align",
                                          "expression": "'left'"})
    engine.run("comp.new", {"name": "Inner"})
    engine.run("layer.add", {"comp": "Main", "type": "precomp", "source": "Inner",
                             "name": "Nested"})
    with pytest.raises(CommandError, match="audio.level cannot carry an expression: a layer's "
                                           "sound is mixed once"):
        engine.run("prop.setExpression", {"comp": "Main", "layer": "Nested",
                                          "path": "audio.level", "expression": "0"})


def test_a_loaded_expression_must_name_a_property_by_its_canonical_path():
    engine = engine_with_layers()
    run(engine, "effect.add", effect="gaussianBlur")
    run(engine, "prop.setExpression", path="effects.1.radius", expression="4")
    _, document = engine.snapshot()
    load_document(document)  # as saved: fine
    layer = document["comps"][0]["layers"][2]
    layer["expressions"] = {"effects.1.radius": "4"}
    with pytest.raises(DocumentError, match=r"expressions.effects.1.radius: an expression is "
                                            r"stored by its property's canonical path"):
        load_document(document)
    layer["expressions"] = {"effects.fx999.radius": "4"}
    with pytest.raises(DocumentError, match="has no effect 'fx999'"):
        load_document(document)
