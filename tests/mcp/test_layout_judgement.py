"""layout_check that does not cry wolf, through the real server: quiet on a title fading in
halfway through its time, on a soft glow whose transparent edge runs past the canvas, and on
captions between their cues; and it finds what is really wrong: a stretch where almost nothing
shows between two parts, text on top of text, and a problem inside a scene of the comp."""

from __future__ import annotations

import pytest

from tests.mcp.test_layout_check import comp, findings, kinds


@pytest.fixture
def server(shared_server):
    """The module's one server on a new project (tests/conftest.py)."""
    return shared_server


def run(server, command: str, **params) -> dict:
    result = server.run("command_run", {"id": command, "params": params})
    assert result["isError"] is False, result
    return result["structuredContent"]


def test_a_title_fading_in_halfway_through_its_time_is_judged_once_it_has_settled(server):
    # White on #404040 reads at 10:1, but half faded in only at 4:1.
    comp(server, [{"type": "text", "name": "Title", "text": "Welcome", "size": 90,
                   "fill": "#ffffff"}], background="#404040")
    run(server, "preset.apply", comp="Main", layer="Title", preset="fadeIn", time=1.0,
        duration=1.0)
    assert findings(server) == []


def test_a_soft_glow_whose_transparent_edge_passes_the_canvas_is_not_off_it(server):
    # 1000 px across on a 720 px high comp, but seen (10% alpha or more) only 438 across.
    glow = {"type": "radial", "center": [500, 500], "radius": 500,
            "stops": [[0, "#ffcc66cc"], [0.5, "#ffcc6600"], [1, "#ffcc6600"]]}
    comp(server, [{"type": "shape", "name": "Glow", "shape": "ellipse", "size": [1000, 1000],
                   "fill": glow, "position": [640, 360]}])
    assert findings(server) == []
    # Where its visible middle does run off, it is found, measured by those pixels.
    run(server, "layer.set", comp="Main", layer="Glow", position=[1200, 360])
    (found,) = findings(server, time=1)
    assert found["kind"] == "offCanvas" and "right edge" in found["message"]
    assert "px past the right edge (x " in found["message"]


SRT = """1
00:00:00,500 --> 00:00:01,000
First words

2
00:00:02,500 --> 00:00:02,900
Last words
"""


def test_captions_are_checked_while_a_cue_shows_and_are_inside_title_safe(server, tmp_path):
    path = tmp_path / "talk.srt"
    path.write_text(SRT)
    comp(server, [{"type": "text", "name": "Speaker", "text": "Ada, engineer", "size": 60,
                   "position": [640, 200], "fill": "#ffffff"},
                  {"type": "solid", "name": "Plate", "color": "#203040"}])
    run(server, "captions.import", comp="Main", path=str(path))
    assert findings(server) == []
    # Between the cues nothing of the captions is drawn, so nothing is found then either.
    assert findings(server, times=[1.5, 2.0]) == []


def test_an_empty_stretch_between_two_parts_is_found(server):
    comp(server, [{"type": "text", "name": "One", "text": "Part one", "size": 80,
                   "fill": "#ffffff", "outPoint": 1.2},
                  {"type": "text", "name": "Two", "text": "Part two", "size": 80,
                   "fill": "#ffffff", "inPoint": 1.9}])
    for layer, preset in (("One", "fadeOut"), ("Two", "fadeIn")):
        run(server, "preset.apply", comp="Main", layer=layer, preset=preset, duration=0.3)
    (found,) = findings(server)
    assert found["kind"] == "emptyFrame" and found["layer"] is None
    assert 1.1 <= found["time"] <= 1.3 and 1.8 <= found["end"] <= 2.0
    assert "transition" in found["message"]


def test_text_on_top_of_text_is_found_once(server):
    comp(server, [{"type": "text", "name": "Price", "text": "$ 49", "size": 90,
                   "position": [640, 330], "fill": "#ffffff"},
                  {"type": "text", "name": "Label", "text": "Only today", "size": 90,
                   "position": [640, 360], "fill": "#ffffff"}])
    found = findings(server)
    assert [f["kind"] for f in found] == ["crowded"]
    ids = {layer["name"]: layer["id"] for layer in run(server, "layer.list",
                                                        comp="Main")["layers"]}
    assert (found[0]["layer"], found[0]["with"]) in (("Price", ids["Label"]),
                                                     ("Label", ids["Price"]))
    assert "overlaps the text of layer" in found[0]["message"]
    run(server, "layer.set", comp="Main", layer="Price", position=[640, 200])
    assert findings(server) == []


def scene_steps(title_position):
    steps = []
    for name, text, position in (("Intro", "Hello", [640, 360]),
                                 ("Outro", "Goodbye", title_position)):
        steps += [{"id": "comp.new", "params": {"name": name, "width": 1280, "height": 720,
                                                "duration": 2}},
                  {"id": "layer.add", "params": {"comp": name, "type": "text", "text": text,
                                                 "size": 90, "fill": "#ffffff",
                                                 "position": position}}]
    steps += [{"id": "comp.new", "params": {"name": "Main", "width": 1280, "height": 720}},
              {"id": "layer.add", "params": {"comp": "Main", "type": "solid",
                                             "color": "#203040"}},
              {"id": "scene.add", "params": {"comp": "Main", "source": "Intro"}},
              {"id": "scene.add", "params": {"comp": "Main", "source": "Outro"}},
              {"id": "transition.set", "params": {"comp": "Main", "scene": 2, "kind": "dip",
                                                  "duration": 1}}]
    return steps


def test_a_scene_is_checked_inside_the_comp_and_its_transition_is_no_empty_frame(server):
    result = server.run("command_batch", {"steps": scene_steps([640, 360])})
    assert result["structuredContent"]["failed"] == 0, result
    assert findings(server) == []
    moved = server.run("command_batch", {"steps": [{"id": "layer.set", "params": {
        "comp": "Outro", "layer": 1, "position": [640, 655]}}]})
    assert moved["structuredContent"]["failed"] == 0
    (found,) = findings(server)
    assert (found["scene"], found["layer"], found["kind"]) == ("Outro", "Goodbye", "unsafe")
    assert found["message"].startswith("In scene 'Outro': Layer 'Goodbye' is outside")
    assert found["time"] >= 2.0  # in the comp's time, after the dip into the scene
    assert kinds([found]) == [("Goodbye", "unsafe")]
