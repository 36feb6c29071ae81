"""Undo and redo: N edits then N undos give back the original document, compared whole."""

import copy

import pytest

from supervisor.engine.engine import Engine
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_layers

EDITS = [
    ("comp.new", {"name": "Second", "width": 320, "height": 240}),
    ("layer.add", {"comp": "Main", "type": "shape", "shape": "star", "size": [50, 50]}),
    ("layer.set", {"comp": "Main", "layer": "Red", "color": "#00ff00", "position": [1, 2]}),
    ("prop.addKey", {"comp": "Main", "layer": "Box", "path": "transform.rotation", "time": 0,
                     "value": 0}),
    ("prop.addKey", {"comp": "Main", "layer": "Box", "path": "transform.rotation", "time": 2,
                     "value": 360, "interpolation": "easyEase"}),
    ("effect.add", {"comp": "Main", "layer": "Title", "effect": "dropShadow"}),
    ("layer.move", {"comp": "Main", "layer": "Red", "index": 1}),
    ("layer.duplicate", {"comp": "Main", "layer": "Box"}),
    ("layer.remove", {"comp": "Main", "layer": "Title"}),
    ("comp.set", {"comp": "Main", "duration": 2.5}),
    ("renderQueue.add", {"comp": "Main", "output": "/out/x.mp4"}),
    ("comp.duplicate", {"comp": "Main"}),
]


def test_n_edits_then_n_undos_give_back_the_original_document():
    engine = engine_with_layers()
    original = copy.deepcopy(engine.doc)
    states = []
    for command, params in EDITS:
        engine.run(command, params)
        states.append(copy.deepcopy(engine.doc))
    for expected in reversed([original] + states[:-1]):
        engine.run("edit.undo", {})
        assert _without_next_id(engine.doc) == _without_next_id(expected)
    assert _without_next_id(engine.doc) == _without_next_id(original)
    # and redo walks forward through exactly the same documents
    for expected in states:
        engine.run("edit.redo", {})
        assert _without_next_id(engine.doc) == _without_next_id(expected)
    assert engine.doc == states[-1]


def _without_next_id(doc):
    return {key: value for key, value in doc.items() if key != "nextId"}


def test_undo_several_steps_at_once_and_history_labels():
    engine = engine_with_layers()
    engine.run("comp.set", {"comp": "Main", "duration": 3})
    result = engine.run("edit.undo", {"steps": 2})
    assert result["undone"] == ["Change a composition", "Add a layer"]
    assert engine.run("edit.history", {})["redo"] == ["Add a layer", "Change a composition"]
    assert [l["name"] for l in engine.doc["comps"][0]["layers"]] == ["Box", "Red"]


def test_ids_are_never_reused_after_undo():
    engine = engine_with_layers()
    added = engine.run("layer.add", {"comp": "Main", "type": "null"})["layer"]
    engine.run("edit.undo", {})
    again = engine.run("layer.add", {"comp": "Main", "type": "null"})["layer"]
    assert again != added


def test_a_new_edit_clears_redo():
    engine = engine_with_layers()
    engine.run("edit.undo", {})
    engine.run("comp.set", {"comp": "Main", "duration": 1})
    with pytest.raises(CommandError, match="only 0 steps to go back through"):
        engine.run("edit.redo", {})


def test_undo_past_the_start_and_bad_steps_are_refused():
    engine = Engine()
    with pytest.raises(CommandError, match="there are only 0 steps to go back through, not 1"):
        engine.run("edit.undo", {})
    engine.run("comp.new", {})
    with pytest.raises(CommandError, match="there is only 1 step to go back through, not 3"):
        engine.run("edit.undo", {"steps": 3})
    with pytest.raises(CommandError, match="steps must be 1 or more"):
        engine.run("edit.undo", {"steps": 0})


def test_a_failed_command_changes_nothing_and_is_no_undo_step():
    engine = engine_with_layers()
    before, revision = copy.deepcopy(engine.doc), engine.revision
    history = engine.history()
    with pytest.raises(CommandError):
        engine.run("layer.add", {"comp": "Main", "type": "solid", "color": "nope"})
    assert engine.doc == before and engine.revision == revision
    assert engine.history() == history


def test_every_edit_bumps_the_revision_and_reads_do_not():
    engine = engine_with_layers()
    revision = engine.revision
    engine.run("layer.list", {"comp": "Main"})
    engine.run("prop.get", {"comp": "Main", "layer": 1, "path": "transform.position"})
    assert engine.revision == revision
    engine.run("layer.set", {"comp": "Main", "layer": 1, "name": "T"})
    engine.run("edit.undo", {})
    assert engine.revision == revision + 2


def test_a_snapshot_is_independent_of_later_edits():
    engine = engine_with_layers()
    snapshot_id, snapshot = engine.snapshot()
    engine.run("layer.remove", {"comp": "Main", "layer": 1})
    assert len(snapshot["comps"][0]["layers"]) == 3 and snapshot_id != engine.snapshot()[0]


def test_project_new_starts_a_fresh_history():
    engine = engine_with_layers()
    engine.run("project.new", {"name": "Fresh"})
    assert engine.doc["name"] == "Fresh" and engine.doc["comps"] == []
    assert engine.history()["undo"] == []
