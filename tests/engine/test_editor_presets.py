"""The presets an editor keeps (growFrom, countUp, audioFadeIn, audioFadeOut, crossfade,
cascade), each evaluated against the formula docs/commands.md ("Presets") gives, drawn or
mixed where that is what it is for, and each one undo step."""

from __future__ import annotations

import numpy as np
import pytest

from supervisor.errors import CommandError
from tests.engine.test_presets import EASE_OUT, css_bezier
from tests.helpers.engine_projects import engine_with_comp
from tests.helpers.sound_files import write_wav
from workers.compositor import render_frame
from workers.mixer.comp_sound import CompMixer


def run(engine, command, **params):
    return engine.run(command, {"comp": "Main", **params})


def value(engine, layer, path, time):
    return run(engine, "prop.get", layer=layer, path=path, time=time)["value"]


def bar_chart():
    """Main (640x360) with a 40x200 white bar standing on y 300, centered at x 320."""
    engine = engine_with_comp(background="#000000")
    run(engine, "layer.add", type="shape", name="Bar", shape="rect", size=[40, 200],
        fill="#ffffff", position=[320, 200])
    return engine


def white_rows(pixels):
    rows = np.flatnonzero(pixels[:, 320, 0] > 127)
    return (rows[0], rows[-1]) if rows.size else None


def test_grow_from_keeps_the_bars_foot_and_grows_it_to_its_height():
    engine = bar_chart()
    before = render_frame(engine.doc, "Main", 2.0).pixels.copy()
    result = run(engine, "preset.apply", layer="Bar", preset="growFrom", time=0, duration=1)
    layer = engine.doc["comps"][0]["layers"][0]
    assert layer["transform"]["anchor"] == [20, 200]  # the bottom edge's middle
    assert layer["transform"]["position"] == [320, 300]
    assert [key["value"] for key in result["keys"]] == [[100, 0], [100, 100]]
    # At rest it covers exactly the pixels it did before the preset.
    assert np.array_equal(render_frame(engine.doc, "Main", 2.0).pixels, before)
    grown = css_bezier(*EASE_OUT, 0.5)
    assert value(engine, "Bar", "transform.scale", 0.5)[1] == pytest.approx(100 * grown)
    top, bottom = white_rows(render_frame(engine.doc, "Main", 0.5).pixels)
    assert bottom == 299, "the foot stays on y 300"
    assert top == pytest.approx(300 - 200 * grown, abs=1)


def test_grow_from_an_edge_of_a_rotated_scaled_layer_stays_in_place():
    engine = bar_chart()
    run(engine, "layer.set", layer="Bar", rotation=30, scale=[50, 150])
    before = render_frame(engine.doc, "Main", 2.0).pixels.copy()
    run(engine, "preset.apply", layer="Bar", preset="growFrom", params={"from": "left"})
    after = render_frame(engine.doc, "Main", 2.0).pixels
    assert np.abs(after.astype(int) - before).max() <= 1  # only rounding in the last bit


def test_count_up_counts_on_each_frame_and_lands_on_its_number():
    engine = engine_with_comp(frameRate=10)
    run(engine, "layer.add", type="text", name="Total", text="0")
    result = run(engine, "preset.apply", layer="Total", preset="countUp", time=1, duration=1,
                 params={"from": 0, "to": 1250000, "format": "$ {}"})
    assert result["keys"][-1] == {"path": "text", "time": 2.0, "value": "$ 1,250,000",
                                  "interpolation": "hold"}
    for frame in range(11):
        time = 1 + frame / 10
        shown = value(engine, "Total", "text", time + 0.01)
        expected = round(1250000 * css_bezier(*EASE_OUT, frame / 10))
        assert shown == f"$ {expected:,}", time
    assert value(engine, "Total", "text", 0.5) == "$ 0"
    decimals = run(engine, "preset.apply", layer="Total", preset="countUp", time=3,
                   params={"from": 2.5, "to": -1234.5, "decimals": 1, "separator": " ",
                           "format": "{} %"})
    assert decimals["keys"][0]["value"] == "2.5 %"
    assert decimals["keys"][-1]["value"] == "-1 234.5 %"


def test_count_up_is_for_text_layers_and_takes_a_whole_number_of_decimals():
    engine = bar_chart()
    with pytest.raises(CommandError, match="text layers"):
        run(engine, "preset.apply", layer="Bar", preset="countUp")
    run(engine, "layer.add", type="text", name="Total", text="0")
    with pytest.raises(CommandError, match="whole number"):
        run(engine, "preset.apply", layer="Total", preset="countUp", params={"decimals": 1.5})


def sound_engine(tmp_path, rate=8000):
    engine = engine_with_comp(duration=4, audioSampleRate=rate)
    path = write_wav(tmp_path / "flat.wav", np.stack([np.full(4 * rate, 0.5)] * 2), rate=rate)
    run(engine, "layer.add", type="audio", name="Music", path=path)
    return engine


def mixed(engine, rate=8000):
    mixer = CompMixer(engine.doc, rate)
    signal = mixer.mix(engine.doc["comps"][0]["id"], 0, 4 * rate)[0]
    mixer.close()
    return signal


def test_audio_fades_raise_and_lower_the_amplitude_along_a_straight_line(tmp_path):
    rate = 8000
    engine = sound_engine(tmp_path, rate)
    fade_in = run(engine, "preset.apply", layer="Music", preset="audioFadeIn")
    fade_out = run(engine, "preset.apply", layer="Music", preset="audioFadeOut")
    assert (fade_in["start"], fade_in["end"]) == (0, 1)
    assert (fade_out["start"], fade_out["end"]) == (3, 4)
    signal = mixed(engine, rate)
    steps = np.arange(9) / 8  # the keys: exact there
    assert np.allclose(signal[(steps * rate).astype(int)[:-1]], 0.5 * steps[:-1], atol=1e-4)
    assert np.allclose(signal[(3 * rate + steps * rate).astype(int)[:-1]],
                       0.5 * (1 - steps[:-1]), atol=1e-4)
    # Between keys the level runs straight in dB: within a few percent of the straight line.
    between = np.arange(rate // 8, rate)
    assert np.abs(signal[between] - 0.5 * between / rate).max() < 0.5 * 0.04
    assert np.allclose(signal[rate:3 * rate], 0.5)


def test_crossfade_fades_one_layer_out_and_the_other_in_as_one_step():
    engine = engine_with_comp(background="#000000")
    run(engine, "layer.add", type="solid", name="Old", color="#ff0000", outPoint=2)
    run(engine, "layer.add", type="solid", name="New", color="#0000ff", inPoint=1.5)
    result = run(engine, "preset.apply", layer="Old", preset="crossfade",
                 params={"to": "New"})
    assert (result["start"], result["end"]) == (1.5, 2.0)
    new_id = engine.doc["comps"][0]["layers"][0]["id"]
    assert [key.get("layer") for key in result["keys"]] == [None, None, new_id, new_id]
    assert value(engine, "Old", "transform.opacity", 1.75) == pytest.approx(50)
    assert value(engine, "New", "transform.opacity", 1.75) == pytest.approx(50)
    engine.undo()
    assert engine.doc["comps"][0]["layers"][0]["transform"]["opacity"] == 100
    assert engine.doc["comps"][0]["layers"][1]["transform"]["opacity"] == 100


def test_crossfade_keeps_both_layers_showing_over_the_fade():
    engine = engine_with_comp()
    run(engine, "layer.add", type="solid", name="Old", color="#ff0000", outPoint=1.2)
    run(engine, "layer.add", type="solid", name="New", color="#0000ff", inPoint=1.0)
    run(engine, "preset.apply", layer="Old", preset="crossfade", duration=1,
        params={"to": "New"})
    layers = {layer["name"]: layer for layer in engine.doc["comps"][0]["layers"]}
    assert layers["Old"]["outPoint"] == 2.0 and layers["New"]["inPoint"] == 1.0


def test_cascade_staggers_one_preset_over_several_layers_as_one_step():
    engine = bar_chart()
    for number in (2, 3):
        run(engine, "layer.add", type="shape", name=f"Bar {number}", shape="rect",
            size=[40, 100], fill="#ffffff", position=[320 + 60 * number, 250])
    result = run(engine, "preset.apply", layer="Bar", preset="cascade", time=0.5,
                 params={"layers": ["Bar 2", "Bar 3"], "preset": "growFrom", "stagger": 0.25})
    assert [(entry["start"], entry["end"]) for entry in result["layers"]] == \
        [(0.5, 1.3), (0.75, 1.55), (1.0, 1.8)]
    for name, start in (("Bar", 0.5), ("Bar 2", 0.75), ("Bar 3", 1.0)):
        assert value(engine, name, "transform.scale", start)[1] == 0
        assert value(engine, name, "transform.scale", start + 0.8)[1] == 100
    history = engine.history()["undo"]
    engine.undo()
    assert len(engine.history()["undo"]) == len(history) - 1
    assert all(not isinstance(layer["transform"]["scale"], dict)
               for layer in engine.doc["comps"][0]["layers"])


def test_cascade_names_a_layer_it_cannot_find():
    engine = bar_chart()
    with pytest.raises(CommandError, match="no layer 'Bar 9'"):
        run(engine, "preset.apply", layer="Bar", preset="cascade", params={"layers": ["Bar 9"]})
