"""Lottie animations as footage on lottie layers: imported with their size, rate and length;
frames the same as ThorVG's own for the same times, and close to rlottie's (an independent
Lottie renderer); the animation's frame rate mapped to comp time, timeRemap and loop applied;
sharp when enlarged; unsupported features and files it names listed in warnings; a malformed
file refused in one sentence."""

import io
import json
import math
import zipfile

import numpy as np
import pytest
import skia

from supervisor.errors import CommandError
from tests.helpers import lottie_players as players
from tests.helpers.engine_projects import engine_with_comp
from tests.helpers.lottie_documents import animation, moving_square, shape_layer
from workers.compositor import render_frame


def write(tmp_path, name, content) -> str:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    return str(path)


def shown(tmp_path, content, name="anim.json", comp_rate=30, width=320, height=180, **layer):
    engine = engine_with_comp(width=width, height=height, frameRate=comp_rate, duration=4)
    result = engine.run("layer.add", {"comp": "Main", "type": "lottie", "name": "Anim",
                                      "path": write(tmp_path, name, content), **layer})
    return engine, result


def thorvg_frame(path, frame, width, height) -> np.ndarray:
    """ThorVG drawing the file itself at `frame`, over black (premultiplied RGB is that)."""
    return players.thorvg_frame(path, frame, width, height)[..., :3]


def rlottie_frame(path, frame, width, height) -> np.ndarray:
    """rlottie, an independent renderer, drawing frame `frame` (counted from ip, as ThorVG)."""
    return players.rlottie_frame(path, frame, width, height)[..., :3]


def red_columns(pixels, row) -> tuple[int, int]:
    cols = np.flatnonzero(pixels[row, :, 0] > 127)
    return int(cols.min()), int(cols.max())


def test_a_lottie_file_imports_as_lottie_footage_with_its_size_rate_and_length(tmp_path):
    engine = engine_with_comp()
    result = engine.run("footage.import", {"path": write(tmp_path, "a.json", moving_square())})
    assert (result["kind"], result["width"], result["height"], result["frameRate"],
            result["duration"], result["frameCount"]) == ("lottie", 320, 180, 30, 2.0, 60)
    assert "warnings" not in result


def test_frames_match_thorvgs_own_frames_for_the_same_times(tmp_path):
    engine, _ = shown(tmp_path, moving_square())
    path = str(tmp_path / "anim.json")
    for time in (0.0, 0.5, 1.0, 1.95):
        ours = render_frame(engine.doc, "Main", time).pixels[..., :3]
        theirs = thorvg_frame(path, math.floor(time * 30), 320, 180)
        assert np.abs(ours.astype(int) - theirs.astype(int)).max() <= 1, time


def test_frames_are_close_to_an_independent_lottie_renderers(tmp_path):
    rich = animation([shape_layer(1, "el", (90, 60), (0.2, 0.6, 1), (60, 90), (260, 90),
                                  turn=180, stroke=(1, 1, 1)),
                      shape_layer(2, "rc", (50, 50), (1, 0.5, 0), (160, 40), (160, 140))])
    engine, _ = shown(tmp_path, rich)
    path = str(tmp_path / "anim.json")
    for frame in (0, 17, 45):
        ours = render_frame(engine.doc, "Main", frame / 30).pixels[..., :3].astype(int)
        theirs = rlottie_frame(path, frame, 320, 180).astype(int)
        difference = np.abs(ours - theirs).max(axis=2)
        assert (difference > 24).mean() < 0.002, frame  # anti-aliasing differs a little
        assert ours.sum() > 0 and abs(ours.sum() - theirs.sum()) / theirs.sum() < 0.01


def test_the_animations_frame_rate_is_mapped_to_comp_time(tmp_path):
    slow = moving_square(frame_rate=10, last=20)  # 2 s at 10 fps, 15 px a frame
    engine, _ = shown(tmp_path, slow, comp_rate=30, outPoint=4)
    path = str(tmp_path / "anim.json")
    for time, frame in ((0.25, 2), (0.29, 2), (1.0, 10), (3.5, 19)):  # past its end: its last
        ours = render_frame(engine.doc, "Main", time).pixels[..., :3]
        assert np.array_equal(ours, thorvg_frame(path, frame, 320, 180)), time


def test_an_animation_starting_at_a_later_frame_plays_from_its_first(tmp_path):
    late = moving_square(first=30, last=90)
    engine, _ = shown(tmp_path, late)
    assert red_columns(render_frame(engine.doc, "Main", 0.0).pixels, 90) == (0, 39)


def test_time_remap_and_loop_apply_to_a_lottie_layer(tmp_path):
    engine, _ = shown(tmp_path, moving_square(), loop=True, outPoint=4)
    at = lambda t: red_columns(render_frame(engine.doc, "Main", t).pixels, 90)  # noqa: E731
    assert at(2.5) == at(0.5)  # the 2 s animation starts over
    engine.run("prop.addKey", {"comp": "Main", "layer": "Anim", "path": "timeRemap",
                               "time": 0, "value": 1.0, "interpolation": "hold"})
    assert at(0.0) == at(3.0) == red_columns(
        thorvg_frame(str(tmp_path / "anim.json"), 30, 320, 180), 90)


def test_an_enlarged_animation_is_drawn_at_the_scale_it_is_shown(tmp_path):
    small = animation([shape_layer(1, "rc", (20, 10), (1, 1, 1), (16, 8), (16, 8))],
                      width=32, height=16)
    engine, _ = shown(tmp_path, small, scale=[400, 400])
    row = render_frame(engine.doc, "Main", 0.0).pixels[90, :, 0]
    soft = np.flatnonzero((row > 8) & (row < 247))
    # 80 px wide at 4x; a 32x16 raster enlarged 4x would ramp over about 4 px per edge.
    assert len(soft) <= 4 and (row > 127).sum() == pytest.approx(80, abs=2)


def test_unsupported_features_are_listed_in_a_warning_and_it_still_draws(tmp_path):
    fancy = moving_square()
    fancy["ddd"] = 1
    fancy["layers"][0]["ks"]["o"]["x"] = "loopOut('cycle')"
    fancy["layers"].append({"ddd": 1, "ind": 2, "ty": 13, "nm": "camera", "ip": 0, "op": 60,
                            "st": 0, "ks": {}})
    engine, result = shown(tmp_path, fancy)
    (warning,) = [w for w in result["warnings"] if "expression" in w]
    assert "anim.json" in warning and "1 expression" in warning
    assert any("3D layers" in w for w in result["warnings"])
    assert any("camera" in w for w in result["warnings"])
    assert render_frame(engine.doc, "Main", 0.5).pixels[..., 0].max() > 0


def test_an_image_the_animation_keeps_in_another_file_is_not_read(tmp_path):
    red = skia.Surface(40, 40)
    red.getCanvas().clear(skia.ColorRED)
    red.makeImageSnapshot().save(str(tmp_path / "outside.png"), skia.kPNG)
    linking = animation([{"ddd": 0, "ind": 1, "ty": 2, "refId": "img", "ip": 0, "op": 60,
                          "st": 0, "ks": {"o": {"a": 0, "k": 100}, "p": {"a": 0, "k": [0, 0]},
                                          "a": {"a": 0, "k": [0, 0]},
                                          "s": {"a": 0, "k": [100, 100]},
                                          "r": {"a": 0, "k": 0}}}],
                        assets=[{"id": "img", "w": 40, "h": 40, "u": f"{tmp_path}/",
                                 "p": "outside.png", "e": 0}])
    engine, result = shown(tmp_path, linking)
    assert any("outside.png" in w and "not drawn" in w for w in result["warnings"])
    frame = render_frame(engine.doc, "Main", 0.0)
    assert frame.pixels[..., 0].max() == 0 and frame.missing == []


def test_a_lottie_archive_draws_the_images_it_holds(tmp_path):
    blue = skia.Surface(40, 40)
    blue.getCanvas().clear(skia.ColorBLUE)
    png = blue.makeImageSnapshot().encodeToData().bytes()
    picture = animation([{"ddd": 0, "ind": 1, "ty": 2, "refId": "img", "ip": 0, "op": 60,
                          "st": 0, "ks": {"o": {"a": 0, "k": 100}, "p": {"a": 0, "k": [0, 0]},
                                          "a": {"a": 0, "k": [0, 0]},
                                          "s": {"a": 0, "k": [100, 100]},
                                          "r": {"a": 0, "k": 0}}}],
                        assets=[{"id": "img", "w": 40, "h": 40, "u": "/images/",
                                 "p": "blue.png", "e": 0}])
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("manifest.json", json.dumps({"animations": [{"id": "main"}]}))
        zipped.writestr("animations/main.json", json.dumps(picture))
        zipped.writestr("images/blue.png", png)
    engine, result = shown(tmp_path, archive.getvalue(), name="anim.lottie")
    assert "warnings" not in result
    pixels = render_frame(engine.doc, "Main", 0.0).pixels
    assert tuple(pixels[20, 20, :3]) == (0, 0, 255)


@pytest.mark.parametrize("name, content, words", [
    ("a.json", b'{"v": "5.7.0", "fr": 30', "is not valid JSON (line 1"),
    ("a.json", {"v": "5.7.0", "w": 10, "h": 10}, "it has no fr, ip, op, layers"),
    ("a.json", dict(moving_square(), op=0), "op after ip"),
    ("a.lottie", b"PK\x03\x04 not really a zip", "is not a readable .lottie archive"),
    ("a.json", b"\xff\xfe\x00binary", "neither JSON text nor a .lottie archive"),
])
def test_a_malformed_lottie_file_is_refused_in_one_sentence(tmp_path, name, content, words):
    engine = engine_with_comp()
    with pytest.raises(CommandError) as refused:
        engine.run("footage.import", {"path": write(tmp_path, name, content)})
    message = str(refused.value)
    assert words in message and message.endswith(".") and "Errno" not in message
    assert engine.doc["footage"] == []


def test_lottie_footage_belongs_on_lottie_layers(tmp_path):
    engine = engine_with_comp()
    engine.run("footage.import", {"path": write(tmp_path, "a.json", moving_square())})
    with pytest.raises(CommandError, match="is a lottie; show it with a lottie layer"):
        engine.run("layer.add", {"comp": "Main", "type": "image", "footage": "a.json"})
    layer = engine.run("layer.add", {"comp": "Main", "type": "lottie", "footage": "a.json"})
    stored = engine.run("layer.get", {"comp": "Main", "layer": layer["layer"]})
    assert stored["outPoint"] == 2.0  # ends with the animation, as a video layer does
    assert stored["transform"]["anchor"] == [160, 90]


def test_a_file_whose_expressions_all_evaluate_is_drawn_evaluated_and_one_with_any_that_fail_plays_its_keys(
        tmp_path):
    pinned = moving_square()
    pinned["layers"][0]["ks"]["p"]["x"] = "var $bm_rt;\n$bm_rt = [40, value[1]];"
    engine, _ = shown(tmp_path, pinned, name="pinned.json")
    red = np.flatnonzero((render_frame(engine.doc, "Main", 1.5).pixels[..., 0] > 200).any(axis=0))
    assert red.min() == pytest.approx(20, abs=2) and red.max() == pytest.approx(60, abs=2)

    # a layer's box, which the evaluation does not measure: nothing is evaluated
    pinned["layers"][0]["ks"]["o"]["x"] = "sourceRectAtTime().width"
    engine, _ = shown(tmp_path, pinned, name="half.json")
    red = np.flatnonzero((render_frame(engine.doc, "Main", 1.5).pixels[..., 0] > 200).any(axis=0))
    assert red.min() > 200  # moved right, as its keys say


def test_expressions_too_many_to_evaluate_leave_the_file_playing_its_keys(
        tmp_path, monkeypatch):
    """A file of very many expressions must not hold a render for each in turn: its
    evaluation for drawing has a bound, past which the file plays its keys."""
    from workers.compositor import lottie_layers

    monkeypatch.setattr(lottie_layers, "MAX_EVALUATIONS", 119)  # 2 expressions, 60 frames
    pinned = moving_square()
    pinned["layers"][0]["ks"]["p"]["x"] = "var $bm_rt;\n$bm_rt = [40, value[1]];"
    pinned["layers"][0]["ks"]["r"]["x"] = "value"
    engine, _ = shown(tmp_path, pinned, name="slow.json")
    red = np.flatnonzero((render_frame(engine.doc, "Main", 1.5).pixels[..., 0] > 200).any(axis=0))
    assert red.min() > 200  # moved right, as its keys say
