"""Text animators and presets: per-unit amounts, what each property does to the pixels, the
range as animatable properties, and the presets' reveals (reading order, right to left)."""

import numpy as np
import pytest

from protocol.model.document import load_document
from protocol.model.text_animators import amounts
from supervisor.engine.engine import Engine
from supervisor.errors import CommandError
from workers.compositor import render_frame

WIDTH, HEIGHT = 640, 160


def engine_with_text(words="Hello animated world", **content) -> Engine:
    engine = Engine()
    engine.run("comp.new", {"name": "M", "width": WIDTH, "height": HEIGHT, "duration": 4,
                            "background": "#000000"})
    engine.run("layer.add", {"comp": "M", "type": "text", "name": "T", "text": words,
                             "size": 48, "font": "Roboto", **content})
    return engine


def frame(engine, time=0.0) -> np.ndarray:
    return render_frame(engine.snapshot()[1], "M", time).pixels


def ink(pixels: np.ndarray, threshold: int = 0) -> np.ndarray:
    return pixels[..., :3].max(axis=2) > threshold


def extent(mask):
    ys, xs = np.nonzero(mask)
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def test_square_amounts_are_the_share_of_each_unit_inside_the_range():
    assert amounts(4, 0, 50, 0, "square", 100, "linear") == [1, 1, 0, 0]
    assert amounts(4, 0, 37.5, 0, "square", 100, "linear") == [1, 0.5, 0, 0]
    assert amounts(4, 0, 40, 0, "square", 0, "linear") == [1, 1, 0, 0]  # by the middle
    assert amounts(4, 0, 35, 0, "square", 0, "linear") == [1, 0, 0, 0]
    assert amounts(4, 0, 50, 25, "square", 100, "linear") == [0, 1, 1, 0]  # offset moves it


def test_ramp_triangle_and_round_shapes():
    up = amounts(5, 0, 100, 0, "rampUp", 100, "linear")
    assert up == pytest.approx([0.1, 0.3, 0.5, 0.7, 0.9])
    assert amounts(5, 0, 100, 0, "rampDown", 100, "linear") == pytest.approx(up[::-1])
    assert amounts(2, 50, 100, 0, "rampUp", 100, "linear") == [0.0, 0.5]
    triangle = amounts(5, 0, 100, 0, "triangle", 100, "linear")
    assert triangle == pytest.approx([0.2, 0.6, 1.0, 0.6, 0.2])
    assert amounts(5, 0, 100, 0, "round", 100, "linear")[2] == pytest.approx(1.0)
    assert amounts(3, 0, 100, 0, "smooth", 100, "linear")[1] == pytest.approx(1.0)
    eased = amounts(5, 0, 100, 0, "rampUp", 100, "easeIn")
    assert all(e < u for e, u in zip(eased, up))


def test_a_position_animator_at_full_amount_moves_every_glyph():
    engine = engine_with_text()
    still = extent(ink(frame(engine)))
    result = engine.run("text.addAnimator", {"comp": "M", "layer": "T",
                                             "properties": {"position": [0, 30]}})
    assert result["animator"].startswith("anim")
    assert f"animators.{result['animator']}.range.offset" in result["paths"]
    moved = extent(ink(frame(engine)))
    assert moved[1] - still[1] == pytest.approx(30, abs=1)
    assert moved[0] == pytest.approx(still[0], abs=1)


def test_the_range_selects_which_words_an_animator_colors():
    engine = engine_with_text(fill="#ffffff")
    engine.run("text.addAnimator", {"comp": "M", "layer": "T", "unit": "word",
                                    "properties": {"fill": "#ff0000"},
                                    "range": {"start": 0, "end": 34}})
    pixels = frame(engine)
    red = (pixels[..., 0] > 200) & (pixels[..., 1] < 60)
    white = (pixels[..., 1] > 200)
    assert red.sum() > 100 and white.sum() > 100
    assert extent(red)[2] < extent(white)[0]  # the first word red, the others white


def test_range_offset_animates_with_prop_add_key():
    engine = engine_with_text()
    animator = engine.run("text.addAnimator", {"comp": "M", "layer": "T",
                                               "properties": {"opacity": 0},
                                               "range": {"start": 0, "end": 100}})["animator"]
    path = f"animators.{animator}.range.offset"
    engine.run("prop.addKey", {"comp": "M", "layer": "T", "path": path, "time": 0, "value": 0})
    engine.run("prop.addKey", {"comp": "M", "layer": "T", "path": path, "time": 2,
                               "value": 100})
    assert engine.run("prop.get", {"comp": "M", "layer": "T", "path": path,
                                   "time": 1})["value"] == 50
    assert not ink(frame(engine, 0.0)).any()  # every unit inside the range: invisible
    half = ink(frame(engine, 1.0))
    full = ink(frame(engine, 2.0))
    assert 0 < half.sum() < full.sum()
    assert extent(half)[2] < extent(full)[2]  # the first half is shown, the second not yet


def test_scale_and_rotation_turn_glyphs_about_their_middles():
    engine = engine_with_text("IIII")
    still = extent(ink(frame(engine)))
    engine.run("text.addAnimator", {"comp": "M", "layer": "T",
                                    "properties": {"rotation": 90}})
    turned = extent(ink(frame(engine)))
    # Each upright I lies down: the run gets shorter in height, its centre stays.
    assert (turned[3] - turned[1]) < (still[3] - still[1]) / 2
    assert abs((turned[0] + turned[2]) - (still[0] + still[2])) <= 4


def test_animated_tracking_spreads_a_centered_line_about_its_center():
    engine = engine_with_text("spread")
    still = extent(ink(frame(engine)))
    engine.run("text.addAnimator", {"comp": "M", "layer": "T", "properties": {"tracking": 20}})
    spread = extent(ink(frame(engine)))
    assert (spread[2] - spread[0]) - (still[2] - still[0]) == pytest.approx(100, abs=2)
    assert abs((spread[0] + spread[2]) - (still[0] + still[2])) <= 2


def test_blur_softens_the_glyphs():
    engine = engine_with_text("Blur")
    sharp = frame(engine)
    engine.run("text.addAnimator", {"comp": "M", "layer": "T", "properties": {"blur": 8}})
    blurred = frame(engine)
    assert ink(blurred, 8).sum() > ink(sharp, 8).sum()
    assert blurred[..., :3].max() < 250


def test_removing_the_animator_draws_the_text_as_before():
    engine = engine_with_text()
    still = frame(engine)
    animator = engine.run("text.addAnimator", {"comp": "M", "layer": "T",
                                               "properties": {"opacity": 20}})["animator"]
    assert not (frame(engine) == still).all()
    assert engine.run("text.removeAnimator", {"comp": "M", "layer": "T",
                                              "animator": animator}) == {"removed": animator}
    assert (frame(engine) == still).all()
    assert "animators" not in engine.doc["comps"][0]["layers"][0]["content"]


def test_animators_survive_a_save_and_the_schema_check(tmp_path):
    engine = engine_with_text()
    engine.run("text.animate", {"comp": "M", "layer": "T", "preset": "pop"})
    engine.run("project.save", {"path": str(tmp_path / "p.rvproj")})
    reopened = Engine(str(tmp_path / "p.rvproj"))
    assert reopened.doc == load_document(engine.doc)
    assert (frame(reopened, 0.3) == frame(engine, 0.3)).all()


@pytest.mark.parametrize("params, words", [
    ({"properties": {"wobble": 3}}, "wobble"),
    ({"properties": {}}, "at least one property"),
    ({"properties": {"opacity": 0}, "unit": "letter"}, "unit"),
    ({"properties": {"opacity": 0}, "range": {"shape": "zigzag"}}, "shape"),
    ({"properties": {"opacity": 0}, "range": {"ease": "hold"}}, "hold is not an ease"),
    ({"properties": {"position": 5}}, r"\[x, y\]"),
])
def test_a_bad_animator_is_refused_in_one_sentence(params, words):
    engine = engine_with_text()
    with pytest.raises(CommandError, match=words) as caught:
        engine.run("text.addAnimator", {"comp": "M", "layer": "T", **params})
    assert "\n" not in str(caught.value)
    assert "animators" not in engine.doc["comps"][0]["layers"][0]["content"]


def test_animators_go_on_text_layers_only():
    engine = engine_with_text()
    engine.run("layer.add", {"comp": "M", "type": "solid", "name": "S", "color": "#ffffff"})
    with pytest.raises(CommandError, match="text animators go on text layers"):
        engine.run("text.addAnimator", {"comp": "M", "layer": "S",
                                        "properties": {"opacity": 0}})


def reveal_frames(words, preset="typewriter", **content):
    engine = engine_with_text(words, **content)
    result = engine.run("text.animate", {"comp": "M", "layer": "T", "preset": preset,
                                         "start": 0.5, "duration": 2.0})
    times = [0.5 + 2.0 * i / 20 for i in range(21)] + [2.6]
    return result, [ink(frame(engine, t)) for t in times]


def test_a_typewriter_reveal_is_monotonic_and_in_reading_order():
    result, masks = reveal_frames("Type it out")
    assert result["unit"] == "character" and result["units"] == len("Type it out")
    assert not masks[0].any() and masks[-1].sum() > 500
    rights = []
    for before, after in zip(masks, masks[1:]):
        assert not (before & ~after).any()  # nothing shown is ever hidden again
        if after.any():
            rights.append(extent(after)[2])
    assert rights == sorted(rights) and rights[0] < rights[-1]
    lefts = [extent(m)[0] for m in masks if m.any()]
    assert max(lefts) - min(lefts) <= 1  # it grows from the left edge


def test_a_right_to_left_typewriter_reveals_from_the_right():
    _, masks = reveal_frames("שלום עולם", font="Roboto")
    shown = [m for m in masks if m.any()]
    assert len(shown) >= 5
    for before, after in zip(shown, shown[1:]):
        assert not (before & ~after).any()
    lefts = [extent(m)[0] for m in shown]
    rights = [extent(m)[2] for m in shown]
    assert lefts == sorted(lefts, reverse=True) and lefts[0] > lefts[-1]
    assert max(rights) - min(rights) <= 1  # anchored at the right


def test_word_by_word_shows_whole_words():
    result, masks = reveal_frames("one two three", preset="wordByWord")
    assert result["unit"] == "word" and result["units"] == 3
    distinct = {m.tobytes() for m in masks}
    assert len(distinct) == 4  # nothing, one, two, three words


@pytest.mark.parametrize("preset", ["fadeIn", "slideUp", "pop", "blurIn"])
def test_sweep_presets_start_hidden_and_end_as_the_still_text(preset):
    engine = engine_with_text("Sweep in")
    still = frame(engine)
    result = engine.run("text.animate", {"comp": "M", "layer": "T", "preset": preset,
                                         "start": 1.0, "duration": 1.5})
    assert result["end"] == pytest.approx(2.5)
    assert not ink(frame(engine, 1.0)).any()
    middle = frame(engine, 1.75)
    assert ink(middle).any() and not (middle == still).all()
    assert (frame(engine, 2.5) == still).all()


def test_a_stagger_spaces_the_units_starts():
    engine = engine_with_text("abcd")
    result = engine.run("text.animate", {"comp": "M", "layer": "T", "preset": "typewriter",
                                         "stagger": 0.25})
    assert result["end"] == pytest.approx(1.0)  # 4 characters, 0.25 s apart


@pytest.mark.parametrize("command", ["layer.duplicate", "comp.duplicate"])
def test_a_duplicated_text_gets_animators_of_its_own(tmp_path, command):
    engine = engine_with_text()
    engine.run("text.animate", {"comp": "M", "layer": "T", "preset": "fadeIn"})
    engine.run(command, {"comp": "M", "layer": "T"} if command == "layer.duplicate"
               else {"comp": "M"})
    ids = [animator["id"] for comp in engine.doc["comps"] for layer in comp["layers"]
           for animator in layer["content"].get("animators", [])]
    assert len(ids) == 2 and len(set(ids)) == 2
    engine.run("project.save", {"path": str(tmp_path / "p.rvproj")})
    Engine(str(tmp_path / "p.rvproj"))  # opens: ids are unique
