"""Expressions through real workers: evaluated in the render workers inside the render plan
(the same frames from 1, 2 or 3 workers, to the byte), failing an item with their sentence,
stopped when they run away in a render worker and in the preview worker alike, tried by
expression.check on the preview worker, and driven by a template param."""

import numpy as np
import pytest

from supervisor.mcp.tools.preview_tool import render_preview
from supervisor.mcp.tools.registry import CallContext, ToolError
from tests.helpers.render_sessions import read_png, render_session
from workers.expressions.sandbox import TIME_LIMIT

FRAMES = 12


def expressive_comp(engine, name="Main"):
    """A 64x36 comp of three layers each moved by an expression: wiggle, seeded random, a
    cycled loop reading another layer."""
    engine.run("comp.new", {"name": name, "width": 64, "height": 36, "frameRate": 24,
                            "duration": FRAMES / 24, "background": [0.1, 0.1, 0.2, 1]})
    for layer, color in (("Wiggler", "#f0c020"), ("Jumper", "#20c0f0"), ("Follower", "#f02080")):
        engine.run("layer.add", {"comp": name, "type": "solid", "name": layer, "color": color,
                                 "width": 10, "height": 10})
    expressions = {
        "Wiggler": ("transform.position", "wiggle(6, 12)"),
        "Jumper": ("transform.rotation", "random(0, 360)"),
        "Follower": ("transform.position",
                     "add(thisComp.layer('Wiggler').transform.position, [8, 8])"),
    }
    for layer, (path, expression) in expressions.items():
        engine.run("prop.setExpression", {"comp": name, "layer": layer, "path": path,
                                          "expression": expression})
    engine.run("prop.addKey", {"comp": name, "layer": "Jumper", "path": "transform.scale",
                               "time": 0, "value": [50, 50]})
    engine.run("prop.addKey", {"comp": name, "layer": "Jumper", "path": "transform.scale",
                               "time": 0.25, "value": [150, 150]})
    engine.run("prop.setExpression", {"comp": name, "layer": "Jumper",
                                      "path": "transform.scale", "expression": "loopOut()"})
    return name


def render_frames(tmp_path, workers, tag):
    with render_session(workers=workers) as session:
        expressive_comp(session.engine)
        session.engine.run("renderQueue.add", {"comp": "Main", "format": "png",
                                               "output": str(tmp_path / tag / "f_[##].png")})
        report = session.engine.run("renderQueue.render", {})
    assert report["completed"] == 1 and report["failed"] == 0, report
    return [read_png(str(tmp_path / tag / f"f_{number:02d}.png")) for number in range(FRAMES)]


def test_frames_are_the_same_bytes_from_one_two_or_three_render_workers(tmp_path):
    one = render_frames(tmp_path, 1, "one")
    # The expressions move things: the frames differ from one another.
    assert len({frame.tobytes() for frame in one}) == FRAMES
    for workers in (2, 3):
        frames = render_frames(tmp_path, workers, f"w{workers}")
        assert all(np.array_equal(a, b) for a, b in zip(one, frames)), workers


@pytest.fixture
def session():
    with render_session(workers=1) as made:
        expressive_comp(made.engine)
        yield made


def set_expression(session, layer, path, expression):
    session.engine.run("prop.setExpression", {"comp": "Main", "layer": layer, "path": path,
                                              "expression": expression})


def test_an_expression_that_fails_at_render_time_fails_its_item_with_the_sentence(session,
                                                                                   tmp_path):
    set_expression(session, "Jumper", "transform.rotation", "if (time > 0.2) missing(); 0")
    session.engine.run("renderQueue.add", {"comp": "Main", "format": "png",
                                           "output": str(tmp_path / "f_[##].png")})
    report = session.engine.run("renderQueue.render", {})
    assert report["failed"] == 1
    error = report["items"][0]["error"]
    assert "The expression on transform.rotation of layer 'Jumper' in comp 'Main' failed at " \
           "0.208333 s (frame 5): ReferenceError: missing is not defined (line 1, column 17)" \
           in error
    assert "Traceback" not in error


def test_a_runaway_expression_is_stopped_in_a_render_worker_and_in_the_preview_worker(
        session, tmp_path):
    set_expression(session, "Wiggler", "transform.position", "while (true) {}")
    session.engine.run("renderQueue.add", {"comp": "Main", "format": "png",
                                           "output": str(tmp_path / "f_[##].png")})
    report = session.engine.run("renderQueue.render", {})
    assert report["failed"] == 1
    sentence = f"it ran longer than the {TIME_LIMIT:g} s an evaluation may take"
    assert sentence in report["items"][0]["error"]
    with pytest.raises(ToolError, match=sentence):
        render_preview({"comp": "Main", "time": 0.1}, CallContext(session=session))
    set_expression(session, "Wiggler", "transform.position", "'x'.repeat(100 * 1024 * 1024)")
    with pytest.raises(ToolError, match="it used more than the 64 MiB expressions may hold"):
        render_preview({"comp": "Main", "time": 0.1}, CallContext(session=session))
    # The preview worker that stopped them draws the next frame.
    set_expression(session, "Wiggler", "transform.position", "[20, 20]")
    result = render_preview({"comp": "Main", "time": 0.1}, CallContext(session=session))
    assert result.content[0]["type"] == "image"


def test_expression_check_tries_an_expression_on_the_preview_worker(session):
    engine = session.engine
    base = {"comp": "Main", "layer": "Jumper", "path": "transform.rotation"}
    checked = engine.run("expression.check", {**base, "expression": "time * 24"})
    assert checked["ok"] is True
    assert [value["value"] for value in checked["values"]] == \
        pytest.approx([value["time"] * 24 for value in checked["values"]])
    assert [value["time"] for value in checked["values"]][0] == 0 and \
        len(checked["values"]) == 5
    stored = engine.run("expression.check", base)  # the one it has: random(0, 360)
    assert stored["ok"] and all(0 <= value["value"] < 360 for value in stored["values"])
    broken = engine.run("expression.check", {**base, "expression": "var a = 1;\na +* 2"})
    assert broken["ok"] is False and "(line 2, column 4)" in broken["error"] and \
        "SyntaxError" in broken["error"]
    runaway = engine.run("expression.check", {**base, "expression": "for (;;) {}"})
    assert runaway["ok"] is False and "it ran longer than" in runaway["error"]
    # The project is unchanged by any of it.
    assert engine.run("layer.get", {"comp": "Main", "layer": "Jumper"})["expressions"][
        "transform.rotation"] == "random(0, 360)"


def test_a_template_param_drives_an_expression(session, tmp_path):
    engine = session.engine
    engine.run("layer.add", {"comp": "Main", "type": "null", "name": "Controls"})
    engine.run("template.addParam", {"name": "spin", "comp": "Main", "layer": "Controls",
                                     "path": "transform.rotation", "type": "number",
                                     "default": 0})
    set_expression(session, "Jumper", "transform.rotation",
                   "thisComp.layer('Controls').transform.rotation")
    set_expression(session, "Jumper", "transform.scale", "[300, 300]")
    for spin in (0, 45):
        engine.run("renderQueue.add", {"comp": "Main", "format": "png", "frames": "0",
                                       "params": {"spin": spin},
                                       "output": str(tmp_path / f"spin{spin}_[#].png")})
    report = engine.run("renderQueue.render", {})
    assert report["completed"] == 2, report
    square, turned = (read_png(str(tmp_path / f"spin{spin}_0.png")) for spin in (0, 45))
    # Jumper is a 30x30 square about the center: turned 45 degrees its corners reach past it.
    cyan = np.array([0x20, 0xc0, 0xf0])

    def cyan_at(frame, x, y):
        return np.abs(frame[y, x, :3].astype(int) - cyan).max() < 8

    assert cyan_at(square, 32 - 13, 18) and not cyan_at(turned, 32 - 13, 18 - 13)
    assert cyan_at(turned, 32, 1) and not cyan_at(square, 32, 1)


def test_a_time_remap_expression_that_fails_fails_its_item_with_the_sentence(session, tmp_path):
    engine = session.engine
    engine.run("comp.new", {"name": "Inner", "width": 64, "height": 36, "duration": 1})
    engine.run("layer.add", {"comp": "Main", "type": "precomp", "source": "Inner",
                             "name": "Nested"})
    engine.run("prop.set", {"comp": "Main", "layer": "Nested", "path": "timeRemap", "value": 0})
    set_expression(session, "Nested", "timeRemap", "time * undefinedSpeed")
    engine.run("renderQueue.add", {"comp": "Main", "format": "png",
                                   "output": str(tmp_path / "f_[##].png")})
    report = engine.run("renderQueue.render", {})
    assert report["failed"] == 1
    assert "The expression on timeRemap of layer 'Nested' in comp 'Main' failed at 0 s " \
           "(frame 0): ReferenceError: undefinedSpeed is not defined" in report["items"][0]["error"]
