"""Sound through a real, confined `rendervisor mcp`: a music bed and a voice built in one batch,
seen in doc_inspect and layer.get, measured with audio_levels (where the voice comes in, that
the bed sits under it, that a doubled bed clips), and rendered into an mp4 whose sound is
decoded again."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.sound_files import RATE, decode_sound, onset, tone, write_wav


@pytest.fixture
def session(module_confined_server):
    """The module's one confined server (tests/conftest.py); each test builds in its own
    confined_folder, in a new project."""
    return module_confined_server


def structured(result: dict) -> dict:
    assert result.get("isError") is not True, result
    return result["structuredContent"]


def build(process, tmp_path):
    bed = write_wav(tmp_path / "bed.wav", np.stack([tone(3.0, 220, 0.1)] * 2))
    voice = write_wav(tmp_path / "voice.wav", np.stack([tone(1.0, 660, 0.5)] * 2))
    steps = [
        {"id": "comp.new", "params": {"name": "Spot", "width": 64, "height": 36,
                                      "duration": 3, "frameRate": 24}},
        {"id": "layer.add", "params": {"comp": "Spot", "type": "solid", "color": "#223344"}},
        {"id": "layer.add", "params": {"comp": "Spot", "type": "audio", "name": "Bed",
                                       "path": bed}},
        {"id": "layer.add", "params": {"comp": "Spot", "type": "audio", "name": "Voice",
                                       "path": voice, "startTime": 1.0, "inPoint": 1.0}},
        {"id": "prop.addKey", "params": {"comp": "Spot", "layer": "Bed", "path": "audio.level",
                                         "time": 0, "value": -96}},
        {"id": "prop.addKey", "params": {"comp": "Spot", "layer": "Bed", "path": "audio.level",
                                         "time": 0.5, "value": 0}},
    ]
    assert structured(process.run("command_batch", {"steps": steps}))["failed"] == 0


def test_sound_layers_show_in_doc_inspect_and_layer_get(session, confined_folder):
    build(session, confined_folder)
    overview = structured(session.run("doc_inspect"))
    spot = overview["comps"][0]
    assert spot["sound"] is True
    voice = next(layer for layer in spot["layers"] if layer["name"] == "Voice")
    assert (voice["type"], voice["audio"], voice["startTime"]) == \
        ("audio", {"level": 0, "muted": False}, 1.0)
    bed = next(layer for layer in spot["layers"] if layer["name"] == "Bed")
    assert bed["audio"]["level"] == {"animated": 2, "first": -96}
    assert {f["kind"] for f in overview["footage"]} == {"audio"}
    got = structured(session.run("command_run", {"id": "layer.get", "params": {
        "comp": "Spot", "layer": "Bed"}}))
    assert got["audio"]["level"]["keys"][1] == {"time": 0.5, "value": 0,
                                                 "interpolation": "linear"}


def test_audio_levels_say_when_the_voice_comes_in_and_that_nothing_clips(session,
                                                                         confined_folder):
    build(session, confined_folder)
    measured = structured(session.run("audio_levels", {"comp": "Spot"}))
    assert (measured["window"], measured["sampleRate"], len(measured["levels"])) == \
        (0.1, RATE, 30)
    assert measured["clipped"] is False
    levels = {round(entry["time"], 1): entry for entry in measured["levels"]}
    assert levels[0.0]["peak"] < -40, "the bed fades in from silence"
    assert levels[0.6]["rms"] == pytest.approx(-23.0, abs=0.3)  # 0.1 amplitude: the bed alone
    # From 1.0 s the voice (0.5 amplitude) is over the bed: the sum's RMS, sqrt(0.1²+0.5²)/√2.
    assert levels[1.0]["rms"] == pytest.approx(20 * np.log10(np.sqrt(0.26 / 2)), abs=0.3)
    assert levels[0.9]["rms"] < levels[1.0]["rms"] - 10
    part = structured(session.run("audio_levels", {"comp": "Spot", "start": 2.0, "end": 2.5}))
    assert [entry["time"] for entry in part["levels"]] == pytest.approx([2.0, 2.1, 2.2, 2.3,
                                                                        2.4])
    assert all(entry["rms"] == pytest.approx(-23.0, abs=0.3) for entry in part["levels"])


def test_audio_levels_say_a_mix_clips_and_refuse_a_time_outside_the_comp(session,
                                                                         confined_folder):
    build(session, confined_folder)
    loud = write_wav(confined_folder / "loud.wav", np.stack([tone(3.0, 300, 0.8)] * 2))
    for name in ("A", "B"):
        structured(session.run("command_run", {"id": "layer.add", "params": {
            "comp": "Spot", "type": "audio", "name": name, "path": loud}}))
    measured = structured(session.run("audio_levels", {"comp": "Spot"}))
    assert measured["clipped"] is True and measured["peak"] > 3
    refused = session.run("audio_levels", {"comp": "Spot", "start": 2, "end": 9})
    assert refused["isError"] is True
    assert "0 <= start < end <= 3" in refused["content"][0]["text"]


def test_a_render_through_mcp_carries_the_mix(session, confined_folder):
    build(session, confined_folder)
    structured(session.run("command_run", {"id": "renderQueue.add", "params": {
        "comp": "Spot", "output": str(confined_folder / "spot.mp4"),
        "codecOptions": {"preset": "veryfast"}}}))
    report = structured(session.run("command_run", {"id": "renderQueue.render"},
                                    timeout=120))
    assert report["completed"] == 1, report
    sound, rate = decode_sound(confined_folder / "spot.mp4")
    assert rate == RATE and sound.shape[1] >= 3 * RATE
    voice_in = onset(sound[:, RATE // 2:], 0.3) + RATE // 2  # past the bed's 0.1
    assert abs(voice_in - RATE) <= 1024
