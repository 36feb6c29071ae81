"""preset.list and preset.apply: every preset's keys evaluated as docs/commands.md ("Presets")
gives them, a wipe and a slide drawn by the compositor, and one undo step per preset."""

import json
import math

import numpy as np
import pytest

from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp
from workers.compositor import render_frame

PRESET_NAMES = {"fadeIn", "fadeOut", "slideIn", "slideOut", "pop", "wipe", "typewriter",
                "kenBurns", "shake"}


def css_bezier(x1, y1, x2, y2, x):
    """CSS cubic-bezier by bisection on the curve's parameter: an implementation of its own,
    not the evaluator's Newton iteration."""
    low, high = 0.0, 1.0
    for _ in range(80):
        s = (low + high) / 2
        if 3 * x1 * (1 - s) ** 2 * s + 3 * x2 * (1 - s) * s * s + s ** 3 < x:
            low = s
        else:
            high = s
    s = (low + high) / 2
    return 3 * y1 * (1 - s) ** 2 * s + 3 * y2 * (1 - s) * s * s + s ** 3


EASE_OUT = (0, 0, 0.58, 1)
EASE_IN = (0.42, 0, 1, 1)


def project():
    """Main, 640x360, 30 fps, 10 s, black; Card: a 100x50 red solid at the comp's center,
    visible from 1 s to 5 s."""
    engine = engine_with_comp(background="#000000")
    engine.run("layer.add", {"comp": "Main", "type": "solid", "name": "Card", "color": "#ff0000",
                             "width": 100, "height": 50, "inPoint": 1, "outPoint": 5})
    return engine


def apply(engine, preset, layer="Card", **params):
    return engine.run("preset.apply", {"comp": "Main", "layer": layer, "preset": preset,
                                       **params})


def value(engine, path, time, layer="Card"):
    return engine.run("prop.get", {"comp": "Main", "layer": layer, "path": path,
                                   "time": time})["value"]


def test_preset_list_names_every_preset_with_its_params_and_defaults():
    presets = {entry["name"]: entry for entry in
               engine_with_comp().run("preset.list")["presets"]}
    assert PRESET_NAMES <= set(presets)
    slide = presets["slideIn"]
    assert slide["params"]["from"] == {"type": "string", "default": "left", "enum": [
        "left", "right", "top", "bottom"], "description": "the edge it comes in from"}
    assert slide["duration"] == 0.6 and slide["starts"] == "in"
    assert presets["fadeOut"]["starts"] == "out" and presets["kenBurns"]["starts"] == "span"
    assert presets["typewriter"]["layerTypes"] == ["text"]
    assert all(entry["description"] for entry in presets.values())


def test_fade_in_keys_opacity_from_zero_at_the_in_point_to_the_layers_own_linearly():
    engine = project()
    engine.run("layer.set", {"comp": "Main", "layer": "Card", "opacity": 80})
    result = apply(engine, "fadeIn")
    assert (result["start"], result["end"]) == (1.0, 1.5)
    assert [(k["path"], k["time"], k["value"], k["interpolation"]) for k in result["keys"]] == [
        ("transform.opacity", 1.0, 0, "linear"), ("transform.opacity", 1.5, 80, "linear")]
    assert value(engine, "transform.opacity", 1.25) == pytest.approx(40)
    assert value(engine, "transform.opacity", 3) == 80


def test_fade_out_ends_at_the_out_point():
    engine = project()
    result = apply(engine, "fadeOut", duration=1)
    assert (result["start"], result["end"]) == (4.0, 5.0)
    assert value(engine, "transform.opacity", 4) == 100
    assert value(engine, "transform.opacity", 4.5) == pytest.approx(50)
    assert value(engine, "transform.opacity", 5) == 0


@pytest.mark.parametrize("edge, start", [("left", [-50, 180]), ("right", [690, 180]),
                                         ("top", [320, -25]), ("bottom", [320, 385])])
def test_slide_in_starts_just_off_its_edge_and_eases_out_into_place(edge, start):
    """The card spans x 270..370, y 155..205 at rest: from the left its right edge starts at
    x 0, from the right its left edge at x 640, and so on."""
    engine = project()
    result = apply(engine, "slideIn", params={"from": edge})
    assert result["keys"][0]["value"] == start and result["keys"][0]["interpolation"] == \
        "easeOut"
    assert value(engine, "transform.position", 1.0) == start
    assert value(engine, "transform.position", 1.6) == [320, 180]
    fraction = css_bezier(*EASE_OUT, 0.5)
    middle = value(engine, "transform.position", 1.3)
    assert middle == pytest.approx([s + (r - s) * fraction for s, r in zip(start, [320, 180])])


def test_slide_in_by_a_distance_and_slide_out_by_an_edge():
    engine = project()
    apply(engine, "slideIn", params={"from": "top", "distance": 100})
    assert value(engine, "transform.position", 1.0) == [320, 80]
    result = apply(engine, "slideOut", params={"to": "right"})
    assert (result["start"], result["end"]) == (pytest.approx(4.4), 5.0)
    assert value(engine, "transform.position", 4.4) == [320, 180]
    assert value(engine, "transform.position", 5.0) == [690, 180]
    fraction = css_bezier(*EASE_IN, 0.5)
    assert value(engine, "transform.position", 4.7)[0] == pytest.approx(320 + 370 * fraction)
    # The slide in's keys are still there: the slide out replaced keys in its own span only.
    assert value(engine, "transform.position", 1.0) == [320, 80]


def test_a_slide_is_drawn_where_its_keys_put_it():
    engine = project()
    apply(engine, "slideIn", params={"from": "left"})
    document = engine.doc
    at_start = render_frame(document, "Main", 1.0).pixels
    assert not at_start[..., 0].any()  # wholly off the comp: nothing red
    at_rest = render_frame(document, "Main", 1.6).pixels
    assert (at_rest[155:205, 270:370, 0] == 255).all()


def test_pop_scales_from_zero_through_a_back_ease_past_full_size():
    engine = project()
    result = apply(engine, "pop")
    assert result["keys"][0]["interpolation"] == {"back": {"overshoot": 1.70158}}
    assert value(engine, "transform.scale", 1.0) == [0, 0]
    assert value(engine, "transform.scale", 1.5) == [100, 100]
    s = 1.70158
    for p in (0.25, 0.5, 0.8):
        f = 1 + (s + 1) * (p - 1) ** 3 + s * (p - 1) ** 2
        assert value(engine, "transform.scale", 1.0 + 0.5 * p) == pytest.approx([100 * f] * 2)
    assert max(value(engine, "transform.scale", 1.0 + 0.5 * p / 100)[0]
               for p in range(101)) == pytest.approx(110, abs=0.1)


def test_wipe_adds_a_mask_that_opens_from_its_edge_over_the_content():
    engine = project()
    result = apply(engine, "wipe", params={"from": "left", "feather": 4})
    mask_id = result["mask"]
    (mask,) = engine.run("mask.list", {"comp": "Main", "layer": "Card"})["masks"]
    assert (mask["id"], mask["mode"], mask["feather"]) == (mask_id, "add", 4)
    path = f"masks.{mask_id}.path"
    assert value(engine, path, 1.0)["points"] == [[-2, -2], [-2, -2], [-2, 52], [-2, 52]]
    assert value(engine, path, 1.6)["points"] == [[-2, -2], [102, -2], [102, 52], [-2, 52]]
    right = -2 + 104 * css_bezier(*EASE_OUT, 0.5)
    assert value(engine, path, 1.3)["points"][1][0] == pytest.approx(right)


def test_a_wipe_is_drawn_half_open_half_way():
    engine = project()
    apply(engine, "wipe", params={"from": "right"})
    pixels = render_frame(engine.doc, "Main", 1.3).pixels
    edge = 372 - 104 * css_bezier(*EASE_OUT, 0.5)  # the mask's left edge in the comp
    assert (pixels[160:200, math.ceil(edge) + 3:368, 0] == 255).all()
    assert not pixels[160:200, 272:math.floor(edge) - 3, 0].any()
    done = render_frame(engine.doc, "Main", 1.6).pixels
    assert (done[155:205, 270:370, 0] == 255).all()


def test_typewriter_plays_text_animates_preset_on_a_text_layer_only():
    engine = project()
    engine.run("layer.add", {"comp": "Main", "type": "text", "name": "Title", "text": "Hello",
                             "size": 40})
    result = apply(engine, "typewriter", layer="Title", time=2, duration=1)
    assert result["animator"].startswith("anim") and result["units"] == 5
    assert (result["start"], result["end"]) == (2.0, 3.0)
    start = f"animators.{result['animator']}.range.start"
    assert value(engine, start, 2.5, layer="Title") == pytest.approx(50)
    with pytest.raises(CommandError, match="typewriter is for text layers; layer 'Card' is a "
                                           "solid layer"):
        apply(engine, "typewriter")


def test_ken_burns_zooms_linearly_over_the_layers_time_and_pans_when_asked():
    engine = project()
    result = apply(engine, "kenBurns")
    assert (result["start"], result["end"]) == (1.0, 5.0)
    assert {key["path"] for key in result["keys"]} == {"transform.scale"}
    assert value(engine, "transform.scale", 1) == [100, 100]
    assert value(engine, "transform.scale", 3) == pytest.approx([107.5, 107.5])
    assert value(engine, "transform.scale", 5) == pytest.approx([115, 115])
    apply(engine, "kenBurns", params={"startScale": 110, "endScale": 130, "pan": [-40, 20]})
    assert value(engine, "transform.scale", 1) == pytest.approx([110, 110])
    assert value(engine, "transform.position", 3) == pytest.approx([300, 190])
    assert value(engine, "transform.position", 5) == pytest.approx([280, 200])


def test_shake_jolts_along_the_golden_angle_dying_away_and_returns_to_rest():
    engine = project()
    result = apply(engine, "shake", time=2, params={"amplitude": 10, "frequency": 8})
    keys = result["keys"]
    count = 4  # round(0.5 s x 8)
    assert [key["time"] for key in keys] == pytest.approx([2 + k * 0.125 for k in range(5)])
    for k, key in enumerate(keys):
        reach = 0 if k in (0, count) else 10 * (1 - k / count)
        angle = math.radians(k * 137.5)
        assert key["value"] == pytest.approx([320 + reach * math.cos(angle),
                                              180 + reach * math.sin(angle)])
    assert value(engine, "transform.position", 2.5) == [320, 180]


def test_a_preset_replaces_keys_within_its_span_and_keeps_the_others():
    engine = project()
    for time, opacity in ((1.2, 30), (3, 60)):
        engine.run("prop.addKey", {"comp": "Main", "layer": "Card", "path": "transform.opacity",
                                   "time": time, "value": opacity})
    apply(engine, "fadeIn")
    keys = engine.run("prop.get", {"comp": "Main", "layer": "Card",
                                   "path": "transform.opacity"})["keys"]
    # 1.2 was inside 1.0..1.5 and is gone; the fade ends at the opacity the layer had at 1.5.
    assert [(key["time"], key["value"]) for key in keys] == [
        (1.0, 0), (1.5, pytest.approx(30 + 30 * 0.3 / 1.8)), (3, 60)]


def without_next_id(engine) -> dict:
    """The document but its id counter, which undo leaves where it was (ids never recur)."""
    document = json.loads(engine.document_text())
    del document["nextId"]
    return document


def test_each_preset_is_one_undo_step_that_undoes_whole():
    engine = project()
    engine.run("layer.add", {"comp": "Main", "type": "text", "name": "Title", "text": "Hi"})
    for preset, layer in (("fadeIn", "Card"), ("slideIn", "Card"), ("pop", "Card"),
                          ("wipe", "Card"), ("typewriter", "Title"), ("kenBurns", "Card"),
                          ("shake", "Card"), ("slideOut", "Card"), ("fadeOut", "Card")):
        before = without_next_id(engine)
        depth = len(engine.run("edit.history")["undo"])
        apply(engine, preset, layer=layer)
        history = engine.run("edit.history")["undo"]
        assert len(history) == depth + 1 and history[0] == "Apply an animation preset"
        engine.run("edit.undo")
        assert without_next_id(engine) == before, preset
        engine.run("edit.redo")


@pytest.mark.parametrize("params, message", [
    ({"preset": "slideIn", "params": {"to": "left"}},
     "slideIn does not take 'to'; it takes from, distance."),
    ({"preset": "slideIn", "params": {"from": "up"}},
     "slideIn's from is one of left, right, top, bottom, got 'up'."),
    ({"preset": "shake", "params": {"frequency": 100}},
     "shake's frequency must be at most 60, got 100."),
    ({"preset": "fadeIn", "duration": 0},
     "preset.apply: duration must be above 0 seconds, got 0."),
    ({"preset": "spin"}, "preset.apply: preset must be one of"),
])
def test_bad_preset_params_are_one_sentence_and_change_nothing(params, message):
    engine = project()
    before = engine.document_text()
    with pytest.raises(CommandError) as failure:
        engine.run("preset.apply", {"comp": "Main", "layer": "Card", **params})
    assert str(failure.value).startswith(message)
    assert engine.document_text() == before


def test_presets_run_from_a_batch_naming_the_layer_by_reference():
    engine = engine_with_comp()
    result = engine.batch([
        {"id": "layer.add", "params": {"comp": "Main", "type": "shape", "shape": "rect",
                                       "size": [40, 40]}},
        {"id": "preset.apply", "params": {"comp": "Main", "layer": "$0.layer",
                                          "preset": "pop"}}], atomic=True)
    assert result["failed"] == 0
    assert np.allclose(result["results"][1]["result"]["keys"][-1]["value"], [100, 100])
