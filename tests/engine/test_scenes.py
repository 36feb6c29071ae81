"""Scenes through the engine's commands: placed end to end, a transition overlapping two,
retiming a scene moving the ones after it, reordering, removing, the comp's length following
them, the refusals (each one sentence, nothing changed), and the scenes' sound crossfading
over a transition."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from protocol.model.document import load_document
from supervisor.engine.engine import Engine
from supervisor.errors import CommandError
from tests.helpers.sound_files import write_wav
from workers.mixer.comp_sound import CompMixer


def story(*seconds: float) -> Engine:
    """Shots S1, S2, ... (64x36, each `seconds` long), and Main with a Backdrop running over
    its whole 10 s, no scenes yet."""
    engine = Engine()
    for number, length in enumerate(seconds, start=1):
        engine.run("comp.new", {"name": f"S{number}", "width": 64, "height": 36,
                                "duration": length})
    engine.run("comp.new", {"name": "Main", "width": 64, "height": 36})
    engine.run("layer.add", {"comp": "Main", "type": "solid", "name": "Backdrop",
                             "color": "#102030"})
    return engine


def times(engine) -> list[tuple]:
    listed = engine.run("scene.list", {"comp": "Main"})
    return [(scene["name"], scene["start"], scene["end"]) for scene in listed["scenes"]]


def main(engine) -> dict:
    return next(comp for comp in engine.doc["comps"] if comp["name"] == "Main")


def test_scenes_play_end_to_end_and_the_comp_lasts_as_long_as_they_do():
    engine = story(2, 3, 1.5)
    for number in (1, 2, 3):
        added = engine.run("scene.add", {"comp": "Main", "source": f"S{number}"})
    assert added["compDuration"] == 6.5
    assert times(engine) == [("S1", 0, 2), ("S2", 2, 5), ("S3", 5, 6.5)]
    comp = main(engine)
    assert comp["duration"] == 6.5
    backdrop = next(layer for layer in comp["layers"] if layer["name"] == "Backdrop")
    assert backdrop["outPoint"] == 6.5, "a layer that ran to the comp's end still does"
    # The first scene went on top; the later ones beside it, each above the one before.
    assert [layer["name"] for layer in comp["layers"]] == ["S3", "S2", "S1", "Backdrop"]
    timing = {layer["name"]: (layer["inPoint"], layer["outPoint"], layer["startTime"])
              for layer in comp["layers"]}
    assert timing["S2"] == (2, 5, 2)
    load_document(engine.doc)


def test_a_transition_overlaps_two_scenes_and_moves_the_later_ones_earlier():
    engine = story(2, 3, 1.5)
    for number in (1, 2, 3):
        engine.run("scene.add", {"comp": "Main", "source": f"S{number}"})
    result = engine.run("transition.set", {"comp": "Main", "scene": "S2", "kind": "push",
                                           "duration": 0.5, "direction": "fromRight"})
    assert result["transition"] == {"kind": "push", "duration": 0.5, "easing": "easyEase",
                                    "direction": "fromRight"}
    assert times(engine) == [("S1", 0, 2), ("S2", 1.5, 4.5), ("S3", 4.5, 6)]
    assert main(engine)["duration"] == 6
    engine.run("transition.set", {"comp": "Main", "scene": 2, "kind": "none"})
    assert times(engine) == [("S1", 0, 2), ("S2", 2, 5), ("S3", 5, 6.5)]


def test_retiming_a_scene_moves_the_ones_after_it():
    engine = story(2, 3, 1.5)
    for number in (1, 2, 3):
        engine.run("scene.add", {"comp": "Main", "source": f"S{number}"})
    engine.run("transition.set", {"comp": "Main", "scene": 3, "kind": "crossfade",
                                  "duration": 1})
    engine.run("scene.set", {"comp": "Main", "scene": 1, "duration": 4})
    assert times(engine) == [("S1", 0, 4), ("S2", 4, 7), ("S3", 6, 7.5)]
    assert main(engine)["duration"] == 7.5
    engine.undo()
    assert times(engine) == [("S1", 0, 2), ("S2", 2, 5), ("S3", 4, 5.5)]


def test_reordering_moves_the_layers_and_the_front_scene_loses_its_transition():
    engine = story(2, 3, 1.5)
    for number in (1, 2, 3):
        engine.run("scene.add", {"comp": "Main", "source": f"S{number}"})
    engine.run("transition.set", {"comp": "Main", "scene": 3, "kind": "wipe", "duration": 1})
    moved = engine.run("scene.set", {"comp": "Main", "scene": "S3", "index": 1})
    assert moved["transition"] is None and "wipe" in moved["warnings"][0]
    assert times(engine) == [("S3", 0, 1.5), ("S1", 1.5, 3.5), ("S2", 3.5, 6.5)]
    assert [layer["name"] for layer in main(engine)["layers"]] == ["S2", "S1", "S3",
                                                                   "Backdrop"]


def test_removing_a_scene_moves_the_later_ones_up():
    engine = story(2, 3, 1.5)
    for number in (1, 2, 3):
        engine.run("scene.add", {"comp": "Main", "source": f"S{number}"})
    removed = engine.run("scene.remove", {"comp": "Main", "scene": 2})
    assert removed["name"] == "S2" and removed["compDuration"] == 3.5
    assert times(engine) == [("S1", 0, 2), ("S3", 2, 3.5)]
    assert "S2" not in [layer["name"] for layer in main(engine)["layers"]]


def test_a_scene_added_in_front_and_a_scene_given_a_duration():
    engine = story(2, 3)
    engine.run("scene.add", {"comp": "Main", "source": "S1"})
    engine.run("scene.add", {"comp": "Main", "source": "S2", "index": 1, "duration": 1.25})
    assert times(engine) == [("S2", 0, 1.25), ("S1", 1.25, 3.25)]


@pytest.mark.parametrize("command,params,words", [
    ("transition.set", {"scene": 1, "kind": "crossfade", "duration": 1}, "first scene"),
    ("transition.set", {"scene": 2, "kind": "crossfade", "duration": 2.5}, "lasts 2 s"),
    ("transition.set", {"scene": 2, "kind": "crossfade"}, "needs 'duration'"),
    ("transition.set", {"scene": 2, "kind": "push", "duration": 1, "direction": "up"},
     "fromLeft, fromRight"),
    ("transition.set", {"scene": 2, "kind": "crossfade", "duration": 1, "direction": "in"},
     "does not take direction"),
    ("transition.set", {"scene": 2, "kind": "crossfade", "duration": 1, "easing": "hold"},
     "not an easing"),
    ("scene.set", {"scene": 4, "duration": 1}, "no scene number 4"),
    ("scene.set", {"scene": 1, "duration": 0}, "above 0"),
    ("scene.add", {"source": "Main"}, "cannot show itself"),
    # Shorter than one frame of Main (30 fps), a scene would show in no frame at all.
    ("scene.add", {"source": "S1", "duration": 1e-9}, "shorter than one frame"),
    ("scene.set", {"scene": 1, "duration": 0.01}, "shorter than one frame"),
])
def test_refusals_are_one_sentence_and_change_nothing(command, params, words):
    engine = story(2, 3)
    for number in (1, 2):
        engine.run("scene.add", {"comp": "Main", "source": f"S{number}"})
    before = copy.deepcopy(engine.doc)
    with pytest.raises(CommandError) as refused:
        engine.run(command, {"comp": "Main", **params})
    assert words in str(refused.value)
    assert engine.doc == before


def test_a_scene_layers_time_follows_its_scene():
    engine = story(2)
    engine.run("scene.add", {"comp": "Main", "source": "S1"})
    with pytest.raises(CommandError, match="scene.set"):
        engine.run("layer.set", {"comp": "Main", "layer": "S1", "startTime": 1})
    with pytest.raises(CommandError, match="scene.remove"):
        engine.run("layer.remove", {"comp": "Main", "layer": "S1"})
    engine.run("layer.set", {"comp": "Main", "layer": "S1", "opacity": 50})  # the rest is free


def test_a_duplicated_comp_has_scenes_of_its_own_layers():
    engine = story(2, 3)
    for number in (1, 2):
        engine.run("scene.add", {"comp": "Main", "source": f"S{number}"})
    copy = engine.run("comp.duplicate", {"comp": "Main", "name": "Copy"})
    duplicate = next(comp for comp in engine.doc["comps"] if comp["id"] == copy["comp"])
    layer_ids = {layer["id"] for layer in duplicate["layers"]}
    assert all(scene["layer"] in layer_ids for scene in duplicate["scenes"])
    assert not {scene["id"] for scene in duplicate["scenes"]} & \
        {scene["id"] for scene in main(engine)["scenes"]}
    load_document(engine.doc)


def test_the_scenes_sound_crossfades_over_a_transition(tmp_path):
    rate = 8000
    engine = Engine()
    for name, frequency in (("S1", 440), ("S2", 660)):
        engine.run("comp.new", {"name": name, "width": 64, "height": 36, "duration": 2,
                                "audioSampleRate": rate})
        path = write_wav(tmp_path / f"{name}.wav",
                         np.stack([np.full(2 * rate, 0.5)] * 2), rate=rate)
        engine.run("layer.add", {"comp": name, "type": "audio", "path": path})
    engine.run("comp.new", {"name": "Main", "width": 64, "height": 36,
                            "audioSampleRate": rate})
    for name in ("S1", "S2"):
        engine.run("scene.add", {"comp": "Main", "source": name})
    engine.run("transition.set", {"comp": "Main", "scene": 2, "kind": "dip",
                                  "duration": 1})
    mixer = CompMixer(engine.doc, rate)
    heard = mixer.mix(main(engine)["id"], 0, 3 * rate)[0]
    mixer.close()
    # A constant 0.5 in each scene: 0.5 before, 0.5 x (1 - f) + 0.5 x f = 0.5 across the
    # window (neither louder nor quieter), 0.5 after; and S1 alone ends at 1 s in, S2 at 3 s.
    assert np.allclose(heard, 0.5, atol=1e-3)
    engine.run("layer.set", {"comp": "S2", "layer": 1, "enabled": False})  # S1 alone
    mixer = CompMixer(engine.doc, rate)
    fading = mixer.mix(main(engine)["id"], rate, rate)[0]  # the window, [1, 2) s
    mixer.close()
    assert np.allclose(fading, 0.5 * (1 - np.arange(rate) / rate), atol=1e-3)
