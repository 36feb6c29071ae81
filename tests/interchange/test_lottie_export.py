"""lottie.export: files valid against the Lottie specification's schema (lottie-specs), played by
ThorVG and rlottie as rendervisor draws the comp, for comps that between them use every feature
the export writes; what Lottie cannot hold listed in warnings; the examples export.

The pixel rule, per file, at 4 times: over the RGB channels, the mean difference from
rendervisor's own frame is at most 2 levels of 255 and at most 1% of pixels differ by more than
40 (anti-aliased edges land a little differently). Text has a looser rule: Skia draws glyphs
through masks with its text contrast, so its text differs from its own glyph outlines filled
(which is what a Lottie file holds) by about that much on every glyph edge: mean at most 5, at
most 5% of pixels past 40."""

import glob
import json
import os

import jsonschema
import lottie_specs
import numpy as np
import opentimelineio as otio
import pytest

from tests.helpers import lottie_feature_comps as features
from tests.helpers.interchange_projects import media
from tests.helpers.lottie_players import PLAYERS, thorvg_frame
from tests.helpers.render_sessions import render_session
from workers.compositor import render_frame

TIMES = (0, 11, 29, 47)  # frames of the 2 s comps at 24 fps
SHAPE_RULE = (2.0, 0.01)
TEXT_RULE = (5.0, 0.05)
EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")
VALIDATOR = jsonschema.Draft202012Validator(lottie_specs.load_specs())


@pytest.fixture(scope="module")
def session():
    with render_session(workers=1) as session:
        yield session


def schema_errors(animation: dict) -> list[str]:
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message[:200]}"
            for error in VALIDATOR.iter_errors(animation)]


def exported(session, tmp_path, build):
    engine = session.engine
    engine.run("project.new", {})
    name = build(engine)
    path = str(tmp_path / f"{name}.json")
    result = engine.run("lottie.export", {"comp": name, "path": path})
    with open(path) as handle:
        return engine, name, path, result, json.load(handle)


CASES = {
    "shapes": (features.shapes, ("thorvg", "rlottie"), SHAPE_RULE),
    "motion": (features.motion, ("thorvg", "rlottie"), SHAPE_RULE),
    "text": (features.text, ("thorvg", "rlottie"), TEXT_RULE),
    "nesting": (None, ("thorvg", "rlottie"), SHAPE_RULE),
    "blending": (features.blending, ("thorvg",), SHAPE_RULE),
}


@pytest.mark.parametrize("case", list(CASES))
def test_exported_files_are_valid_and_play_as_rendervisor_draws_them(session, tmp_path, case):
    build, players, (mean_limit, share_limit) = CASES[case]
    if build is None:
        image = features.write_image(tmp_path / "photo.png")
        build = lambda engine: features.nesting(engine, image)  # noqa: E731
    engine, name, path, result, animation = exported(session, tmp_path, build)
    assert result["warnings"] == []
    assert schema_errors(animation) == []
    _, document = engine.snapshot()
    comp = next(c for c in document["comps"] if c["name"] == name)
    for frame in TIMES:
        ours = render_frame(document, comp["id"], frame / features.RATE).pixels[..., :3]
        for player in players:
            theirs = PLAYERS[player](path, frame, features.W, features.H)[..., :3]
            difference = np.abs(ours.astype(int) - theirs.astype(int)).max(axis=2)
            assert difference.mean() <= mean_limit, (player, frame, difference.mean())
            assert (difference > 40).mean() <= share_limit, (player, frame)
        if frame:  # the frame shown is that frame, not a neighbour or the first held
            earlier = render_frame(document, comp["id"], 0).pixels[..., :3]
            if np.abs(earlier.astype(int) - ours.astype(int)).max() > 40:
                first = thorvg_frame(path, 0, features.W, features.H)[..., :3]
                assert np.abs(first.astype(int) - theirs.astype(int)).max() > 40


def test_the_schema_check_catches_a_broken_file(session, tmp_path):
    _, _, _, _, animation = exported(session, tmp_path, features.shapes)
    assert schema_errors(animation) == []
    broken = json.loads(json.dumps(animation))
    broken["layers"][0]["ks"]["o"] = {"a": 0, "k": "opaque"}
    del broken["fr"]
    assert len(schema_errors(broken)) >= 2


def test_what_lottie_cannot_hold_is_listed_in_warnings(session, tmp_path):
    clip = media(tmp_path)["b"]

    def build(engine):
        features.shapes(engine)
        engine.run("effect.add", {"comp": "Shapes", "layer": "Box", "effect": "gaussianBlur"})
        engine.run("mask.add", {"comp": "Shapes", "layer": "Round", "shape": "ellipse",
                                "mode": "add", "feather": 4})
        engine.run("layer.add", {"comp": "Shapes", "type": "video", "path": clip,
                                 "name": "Clip", "index": 2})
        engine.run("layer.set", {"comp": "Shapes", "layer": "Box", "parent": "Clip"})
        # Leaf, Clip, Hex, Star, ...: Hex's matte is the clip, Star's is Hex.
        engine.run("layer.set", {"comp": "Shapes", "layer": "Hex", "trackMatte": "alpha"})
        engine.run("layer.set", {"comp": "Shapes", "layer": "Star", "trackMatte": "alpha"})
        return "Shapes"

    _, _, _, result, animation = exported(session, tmp_path, build)
    warnings = " ".join(result["warnings"])
    assert "'Box'" in warnings and "gaussianBlur" in warnings
    assert "'Round'" in warnings and "feather" in warnings
    assert "'Clip'" in warnings and "video cannot be held" in warnings
    layers = {layer["nm"]: layer for layer in animation["layers"]}
    assert layers["Clip"]["ty"] == 3, "a null in its place, so what it parents still moves"
    assert layers["Box"]["parent"] == layers["Clip"]["ind"]
    assert [layer["nm"] for layer in animation["layers"]][:4] == ["Leaf", "Clip", "Hex", "Star"]
    assert layers["Star"]["tt"] == 1 and layers["Hex"]["td"] == 1
    assert "tt" not in layers["Hex"] and "td" not in layers["Clip"]
    assert "'Hex'" in warnings and "without its track matte" in warnings
    assert schema_errors(animation) == []


def test_spring_and_bounce_are_baked_to_a_key_a_frame(session, tmp_path):
    _, _, _, _, animation = exported(session, tmp_path, features.motion)
    bar = next(layer for layer in animation["layers"] if layer["nm"] == "Bar")
    keys = bar["ks"]["r"]["k"]
    assert [key["t"] for key in keys] == list(range(0, 37)), "every frame of the bounce"
    ball = next(layer for layer in animation["layers"] if layer["nm"] == "Ball")
    position = ball["ks"]["p"]["k"]
    assert position[0]["o"] == {"x": [0.2], "y": [0.8]} and position[0]["to"] == [40, -70]


@pytest.mark.parametrize("project", sorted(glob.glob(os.path.join(EXAMPLES, "*.rvproj"))),
                         ids=os.path.basename)
def test_the_examples_export(session, tmp_path, project):
    engine = session.engine
    engine.run("project.open", {"path": os.path.abspath(project)})
    for comp in engine.doc["comps"]:
        timeline = str(tmp_path / f"{comp['id']}.otio")
        engine.run("timeline.export", {"comp": comp["id"], "path": timeline})
        assert otio.adapters.read_from_file(timeline).name == comp["name"]
        path = str(tmp_path / f"{comp['id']}.json")
        result = engine.run("lottie.export", {"comp": comp["id"], "path": path})
        with open(path) as handle:
            animation = json.load(handle)
        assert schema_errors(animation) == [], (comp["name"], result["warnings"])
        frame = thorvg_frame(path, 0, 64, 36)
        assert frame[..., 3].max() > 0, f"{comp['name']} draws something"
