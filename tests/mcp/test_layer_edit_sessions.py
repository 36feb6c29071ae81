"""Edits that could lose work, through a real `rendervisor mcp`: sliding a layer in time moves
its in and out points (and its keys) with it, so a one-second sound still plays once moved;
an edit that leaves a layer with nothing to show or play says so; and layer.set on an
animated property says that its keys are gone and how to keep an animation."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.sound_files import tone, write_wav


@pytest.fixture
def session(shared_server):
    """The module's one server on a new project (tests/conftest.py)."""
    return shared_server


def run(process, command: str, **params) -> dict:
    result = process.run("command_run", {"id": command, "params": params})
    assert result.get("isError") is not True, result
    return result["structuredContent"]


def spot_with_sound(process, tmp_path) -> None:
    """Spot (3 s) with a one-second tone from 0 s."""
    beep = write_wav(tmp_path / "beep.wav", np.stack([tone(1.0, 440, 0.5)] * 2))
    run(process, "comp.new", name="Spot", width=64, height=36, duration=3, frameRate=24)
    run(process, "layer.add", comp="Spot", type="audio", name="Beep", path=beep)


def loud_windows(process) -> list[float]:
    measured = process.run("audio_levels", {"comp": "Spot"})["structuredContent"]
    return [entry["time"] for entry in measured["levels"]
            if entry["peak"] is not None and entry["peak"] > -20]


def test_setting_start_time_slides_the_layer_and_its_sound(session, tmp_path):
    spot_with_sound(session, tmp_path)
    result = run(session, "layer.set", comp="Spot", layer="Beep", startTime=1.0)
    assert (result["inPoint"], result["outPoint"], result["startTime"]) == (1.0, 2.0, 1.0)
    assert "warnings" not in result
    heard = loud_windows(session)
    assert heard[0] == pytest.approx(1.0) and heard[-1] == pytest.approx(1.9)
    assert len(heard) == 10


def test_sliding_moves_the_layers_keys_with_it(session, tmp_path):
    run(session, "comp.new", name="Spot", width=64, height=36, duration=3, frameRate=24)
    run(session, "layer.add", comp="Spot", type="solid", name="Plate", color="#ffffff",
        outPoint=1.0)
    run(session, "preset.apply", comp="Spot", layer="Plate", preset="fadeIn")
    run(session, "layer.set", comp="Spot", layer="Plate", startTime=1.5)
    layer = run(session, "layer.get", comp="Spot", layer="Plate")
    assert (layer["inPoint"], layer["outPoint"]) == (1.5, 2.5)
    assert [key["time"] for key in layer["transform"]["opacity"]["keys"]] == [1.5, 2.0]


def test_in_and_out_points_are_still_set_on_their_own(session, tmp_path):
    spot_with_sound(session, tmp_path)
    result = run(session, "layer.set", comp="Spot", layer="Beep", outPoint=0.5)
    assert (result["inPoint"], result["outPoint"], result.get("startTime", 0.0)) == \
        (0.0, 0.5, 0.0)
    both = run(session, "layer.set", comp="Spot", layer="Beep", startTime=2.0, inPoint=2.25)
    assert (both["inPoint"], both["outPoint"], both["startTime"]) == (2.25, 2.5, 2.0)


def test_a_change_that_leaves_nothing_to_play_says_so(session, tmp_path):
    spot_with_sound(session, tmp_path)
    result = run(session, "layer.set", comp="Spot", layer="Beep", inPoint=1.5, outPoint=2.5)
    assert len(result["warnings"]) == 1
    warning = result["warnings"][0]
    assert "Beep" in warning and "nothing" in warning and "startTime" in warning
    past_the_end = run(session, "layer.set", comp="Spot", layer="Beep", startTime=5.0)
    assert any("after the comp ends" in warning for warning in past_the_end["warnings"])


def test_setting_an_animated_property_says_its_keys_are_gone(session, tmp_path):
    run(session, "comp.new", name="Spot", width=640, height=360, duration=3)
    run(session, "layer.add", comp="Spot", type="text", name="Title", text="Hello")
    run(session, "preset.apply", comp="Spot", layer="Title", preset="slideIn")
    result = run(session, "layer.set", comp="Spot", layer="Title", position=[320, 100],
                 text="Hello there")
    assert len(result["warnings"]) == 1
    warning = result["warnings"][0]
    assert "position" in warning and "2 keys" in warning and "prop.addKey" in warning
    layer = run(session, "layer.get", comp="Spot", layer="Title")
    assert layer["transform"]["position"] == [320, 100]
    again = run(session, "layer.set", comp="Spot", layer="Title", position=[320, 120])
    assert "warnings" not in again
