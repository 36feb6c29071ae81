"""command_batch semantics, through Engine.batch."""

import copy

import pytest

from protocol.cancel import Cancelled
from supervisor.work import Work

from supervisor.engine.engine import literal
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp, engine_with_layers


def test_dollar_references_use_earlier_results_including_nested_paths():
    engine = engine_with_comp()
    report = engine.batch([
        {"id": "comp.new", "params": {"name": "Inner", "width": 100, "height": 100}},
        {"id": "layer.add", "params": {"comp": "$0.comp", "type": "solid", "color": "#ffffff"}},
        {"id": "layer.add", "params": {"comp": "Main", "type": "precomp",
                                       "source": "$0.comp"}},
        {"id": "prop.set", "params": {"comp": "Main", "layer": "$2.layer",
                                      "path": "transform.position", "value": [1, 2]}},
        {"id": "renderQueue.add", "params": {"comp": "$0.name", "output": "/o/in.mp4"}},
        {"id": "renderQueue.list"},
        {"id": "renderQueue.set", "params": {"item": "$5.items.0.id", "frames": "0"}},
    ])
    assert (report["completed"], report["failed"]) == (7, 0)
    inner, main = engine.doc["comps"][1], engine.doc["comps"][0]
    assert inner["layers"][0]["id"] == report["results"][1]["result"]["layer"]
    assert main["layers"][0]["content"]["source"] == inner["id"]
    assert main["layers"][0]["transform"]["position"] == [1, 2]
    assert engine.doc["renderQueue"][0]["frames"] == "0"
    # not atomic: each step is its own undo step
    assert len(engine.history()["undo"]) == 1 + 6


def test_a_failed_step_is_reported_per_step_and_the_rest_skipped():
    engine = engine_with_comp()
    report = engine.batch([
        {"id": "layer.add", "params": {"comp": "Main", "type": "null"}},
        {"id": "layer.add", "params": {"comp": "Nope", "type": "null"}},
        {"id": "layer.add", "params": {"comp": "Main", "type": "null"}},
    ])
    assert (report["completed"], report["failed"]) == (1, 1)
    assert [r["status"] for r in report["results"]] == ["done", "failed", "skipped"]
    assert "there is no comp 'Nope'" in report["results"][1]["error"]
    assert len(engine.doc["comps"][0]["layers"]) == 1


def test_stop_on_error_false_runs_the_rest():
    engine = engine_with_comp()
    report = engine.batch([
        {"id": "layer.add", "params": {"comp": "Nope", "type": "null"}},
        {"id": "layer.add", "params": {"comp": "Main", "type": "null"}},
        {"id": "layer.set", "params": {"comp": "Main", "layer": "$0.layer", "name": "x"}},
    ], stop_on_error=False)
    assert [r["status"] for r in report["results"]] == ["failed", "done", "failed"]
    assert "$0.layer refers to step 0, which failed" in report["results"][2]["error"]


def test_atomic_batch_rolls_everything_back_on_failure():
    engine = engine_with_layers()
    before, history = copy.deepcopy(engine.doc), engine.history()["undo"]
    report = engine.batch([
        {"id": "layer.remove", "params": {"comp": "Main", "layer": "Red"}},
        {"id": "comp.new", "params": {"name": "Extra"}},
        {"id": "layer.set", "params": {"comp": "Main", "layer": "Red", "name": "gone"}},
        {"id": "comp.new", "params": {"name": "Never"}},
    ], atomic=True)
    assert (report["completed"], report["failed"], report["rolledBack"]) == (0, 1, True)
    assert [r["status"] for r in report["results"]] == ["rolledBack", "rolledBack", "failed",
                                                        "skipped"]
    assert {k: v for k, v in engine.doc.items() if k != "nextId"} == \
        {k: v for k, v in before.items() if k != "nextId"}
    assert engine.history()["undo"] == history


def test_atomic_batch_is_one_undo_step():
    engine = engine_with_layers()
    before = copy.deepcopy(engine.doc)
    report = engine.batch([
        {"id": "layer.add", "params": {"comp": "Main", "type": "null"}},
        {"id": "layer.set", "params": {"comp": "Main", "layer": "$0.layer", "parent": "Red"}},
        {"id": "comp.set", "params": {"comp": "Main", "duration": 2}},
    ], atomic=True)
    assert (report["completed"], report["failed"], report["rolledBack"]) == (3, 0, False)
    assert engine.history()["undo"][0] == "batch (layer.add, layer.set, comp.set)"
    engine.run("edit.undo", {})
    assert engine.doc["comps"] == before["comps"]


@pytest.mark.parametrize("steps,message", [
    ([], "steps must be a non-empty list"),
    ([{"params": {}}], "step 0 must be an object"),
    ([{"id": "comp.list", "args": {}}], "step 0 has 'args'; a step takes only id and params"),
    ([{"id": "comp.list", "params": [1]}], "step 0's params must be an object"),
])
def test_malformed_batches_are_refused_before_anything_runs(steps, message):
    with pytest.raises(CommandError, match=message):
        engine_with_comp().batch(steps)


def test_references_to_later_steps_and_missing_keys_fail_the_step():
    engine = engine_with_comp()
    report = engine.batch([
        {"id": "comp.list", "params": {}},
        {"id": "comp.set", "params": {"comp": "$2.comp"}},
    ], stop_on_error=False)
    assert "refers to step 2, which has not run" in report["results"][1]["error"]
    report = engine.batch([
        {"id": "comp.new", "params": {}},
        {"id": "comp.set", "params": {"comp": "$0.layer"}},
    ])
    assert "step 0's result has no 'layer' (it has comp, name)" in report["results"][1]["error"]


def test_a_cancelled_atomic_batch_rolls_back_and_a_cancelled_batch_stops_between_steps():
    engine = engine_with_layers()
    before = copy.deepcopy(engine.doc)
    seen = []

    def progress(done, total, message):
        seen.append((done, total, message))
        if done == 1:
            work.cancel.cancel()  # the client cancels while step 0 has run

    work = Work(report_progress=progress)
    steps = [{"id": "comp.new", "params": {}}, {"id": "comp.new", "params": {}}]
    with pytest.raises(Cancelled):
        engine.batch(steps, atomic=True, work=work)
    assert engine.doc["comps"] == before["comps"]
    assert seen == [(0, 2, "comp.new"), (1, 2, "comp.new")]
    work = Work(report_progress=progress)
    seen.clear()
    with pytest.raises(Cancelled):
        engine.batch(steps, work=work)
    assert len(engine.doc["comps"]) == 2  # not atomic: the step that ran stays


def test_a_doubled_dollar_is_a_literal_text_that_looks_like_a_reference():
    """A price such as "$49" in a batch is a reference to step 49; "$$49" writes it as text."""
    engine = engine_with_comp()
    report = engine.batch([
        {"id": "layer.add", "params": {"comp": "Main", "type": "text", "text": "$$49"}},
        {"id": "layer.set", "params": {"comp": "Main", "layer": "$0.layer", "text": "$$$0.layer",
                                       "name": "$$ off"}},
    ])
    assert report["failed"] == 0, report
    content = engine.doc["comps"][0]["layers"][0]
    assert content["content"]["text"] == "$$0.layer" and content["name"] == "$$ off"
    first = engine.batch([{"id": "layer.add", "params": {"comp": "Main", "type": "text",
                                                         "text": "$$49"}}])
    assert first["results"][0]["status"] == "done"
    assert engine.doc["comps"][0]["layers"][0]["content"]["text"] == "$49"


@pytest.mark.parametrize("text", ["$49", "$$49", "$3.layer", "$", "$ 5", "plain"])
def test_literal_texts_survive_a_batch_as_they_are(text):
    engine = engine_with_comp()
    report = engine.batch([{"id": "layer.add", "params": {"comp": "Main", "type": "text",
                                                          "text": literal(text)}}])
    assert report["failed"] == 0
    assert engine.doc["comps"][0]["layers"][0]["content"]["text"] == text
