"""lottie.bake: a Lottie file's expressions, which its player does not run, evaluated into keys
on the preview worker (the file is parsed there, never in the supervisor), written beside it,
and the footage pointed at the baked file as one undo step; a layer showing it then plays the
expressions' motion."""

import json

import numpy as np
import pytest
import skia

from supervisor.errors import CommandError
from tests.helpers.lottie_documents import moving_square
from tests.helpers.render_sessions import render_session
from workers.compositor import render_frame


def written(tmp_path, animation, name="anim.json"):
    path = tmp_path / name
    path.write_text(json.dumps(animation))
    return str(path)


@pytest.fixture
def session():
    with render_session(workers=1) as made:
        yield made


def square_with_expressions():
    """The moving red square (320x180, 60 frames), held still by its expressions: its position
    is pinned to the left, and it turns 90 degrees a second, written as bodymovin writes."""
    square = moving_square()
    transform = square["layers"][0]["ks"]
    transform["p"]["x"] = "var $bm_rt;\n$bm_rt = [40, value[1]];"
    transform["r"]["x"] = "var $bm_rt;\n$bm_rt = $bm_mul(time, 90);"
    # a layer's box, which a bake does not measure: keeps its keys
    transform["o"]["x"] = "sourceRectAtTime().width"
    return square


def red_columns(pixels):
    return np.flatnonzero((pixels[..., 0] > 200).any(axis=0))


def test_baking_writes_keys_points_the_footage_at_them_and_is_one_undo_step(session, tmp_path):
    engine = session.engine
    source = written(tmp_path, square_with_expressions())
    engine.run("comp.new", {"name": "Main", "width": 320, "height": 180, "frameRate": 30,
                            "duration": 2})
    imported = engine.run("footage.import", {"path": source})
    assert any("lottie.bake evaluates them into keys" in w for w in imported["warnings"])
    engine.run("layer.add", {"comp": "Main", "type": "lottie", "footage": imported["footage"]})
    before = render_frame(engine.doc, "Main", 1.5).pixels
    assert red_columns(before).min() > 200  # unbaked, it has moved right as its keys say

    result = engine.run("lottie.bake", {"footage": imported["footage"]})
    output = str(tmp_path / "anim_baked.json")
    assert result["output"] == output and result["expressions"] == 3 and result["baked"] == 2
    (failure,) = result["failed"]
    assert "transform.opacity of layer 'shape 1'" in failure and "sourceRectAtTime is not " \
        "available when baking" in failure and "it keeps its keys" in failure
    baked = json.loads(open(output).read())["layers"][0]["ks"]
    assert "x" not in baked["p"] and "x" not in baked["r"] and "x" in baked["o"]
    assert [key["s"] for key in baked["r"]["k"][:3]] == [[0], [3], [6]]
    assert engine.doc["footage"][0]["path"] == output

    after = render_frame(engine.doc, "Main", 1.5).pixels
    columns = red_columns(after)
    # Pinned at x = 40 and turned 135 degrees: the 40 px square (corners rounded 8 px) reaches
    # (20 - 8) sqrt(2) + 8 = 25 px each side of that center along its diagonal.
    assert columns.min() == pytest.approx(40 - 25, abs=2) and columns.max() == \
        pytest.approx(40 + 25, abs=2)
    engine.run("edit.undo", {})
    assert engine.doc["footage"][0]["path"] == source
    assert json.loads(open(source).read()) == square_with_expressions()  # the original is kept


def test_a_file_without_expressions_or_not_lottie_is_refused_with_a_sentence(session, tmp_path):
    engine = session.engine
    plain = engine.run("footage.import", {"path": written(tmp_path, moving_square())})
    with pytest.raises(CommandError, match="has no expressions to bake; it plays as it is"):
        engine.run("lottie.bake", {"footage": plain["footage"]})
    image = tmp_path / "still.png"
    skia.Image.fromarray(np.zeros((4, 4, 4), np.uint8)).save(str(image), skia.kPNG)
    still = engine.run("footage.import", {"path": str(image)})
    with pytest.raises(CommandError, match="is image footage; lottie.bake bakes a Lottie"):
        engine.run("lottie.bake", {"footage": still["footage"]})


def test_an_expression_on_a_keyed_path_bakes_the_path_s_own_keys_point_by_point():
    from workers.expressions.lottie_bake import bake

    def square(left):
        corners = [[left, 0], [left + 10, 0], [left + 10, 10], [left, 10]]
        return {"c": True, "v": corners, "i": [[0, 0]] * 4, "o": [[0, 0]] * 4}

    animation = moving_square()
    path = {"ty": "sh", "ks": {"a": 1, "x": "var $bm_rt;\n$bm_rt = value;",
                               "k": [{"t": 0, "s": [square(0)], "i": {"x": 1, "y": 1},
                                      "o": {"x": 0, "y": 0}},
                                     {"t": 10, "s": [square(100)]}]}}
    animation["layers"][0]["shapes"][0]["it"][0] = path
    baked, report = bake(animation)
    assert report["failed"] == [] and report["baked"] == 1
    keys = baked["layers"][0]["shapes"][0]["it"][0]["ks"]["k"]
    halfway = next(key for key in keys if key["t"] == 5)["s"]
    halfway = halfway[0] if isinstance(halfway, list) else halfway
    assert [round(x) for x, _ in halfway["v"]] == [50, 60, 60, 50]


def test_a_baked_file_is_kept_as_lottie_web_reads_it_and_rewritten_for_thorvg_only_when_drawn(
        tmp_path):
    from types import SimpleNamespace

    from workers.expression_tasks import lottie_bake

    animation = square_with_expressions()
    star = {"ty": "sr", "sy": 1, "d": 1, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0},
            "pt": {"a": 0, "k": 5}, "ir": {"a": 0, "k": 10}, "is": {"a": 0, "k": 0},
            "or": {"a": 0, "k": 20}, "os": {"a": 0, "k": 100}}
    animation["layers"][0]["shapes"][0]["it"][0] = star
    result = lottie_bake(SimpleNamespace(payload={"path": written(tmp_path, animation)}))
    kept = json.loads(result["data"])["layers"][0]["shapes"][0]["it"][0]
    # ThorVG's copy scales a star's roundness to lottie-web's; the file kept must not carry
    # that, or drawing it would scale it twice.
    assert kept["ty"] == "sr" and kept["os"]["k"] == 100
