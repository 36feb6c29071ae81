"""The vector features through a real, confined `rendervisor mcp`: a logo reveal built in one
batch (a curved path with an animated trim, a feathered mask, a spring, a marker time, an SVG
and a Lottie animation), previewed; SVG and Lottie footage read inside the roots, while a
Lottie file that names an image outside them neither reads nor draws it."""

from __future__ import annotations

import json

import numpy as np
import pytest
import skia

from tests.helpers.lottie_documents import animation, moving_square
from tests.helpers.mcp_images import decode_png

LOGO = (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="60" height="30">'
        b'<rect width="60" height="30" rx="6" fill="#33aaff"/></svg>')


@pytest.fixture
def session(module_confined_server, confined_folder, tmp_path):
    return module_confined_server, confined_folder, tmp_path  # tmp_path: outside the roots


def structured(result: dict) -> dict:
    assert result.get("isError") is not True, result
    return result["structuredContent"]


def preview(process, time: float) -> np.ndarray:
    result = process.run("render_preview", {"comp": "Reveal", "time": time, "max_side": 0})
    assert result.get("isError") is not True, result
    image = next(part for part in result["content"] if part["type"] == "image")
    return decode_png(image["data"])


def test_a_logo_reveal_with_every_vector_feature_builds_in_one_batch_and_previews(session):
    process, inside, _ = session
    (inside / "logo.svg").write_bytes(LOGO)
    (inside / "burst.json").write_text(json.dumps(moving_square(width=80, height=40)))
    arch = {"points": [[0, 60], [200, 60]], "outTangents": [[60, -80], [0, 0]],
            "inTangents": [[0, 0], [-60, -80]], "closed": False}
    steps = [
        {"id": "comp.new", "params": {"name": "Reveal", "width": 320, "height": 180,
                                      "duration": 2, "background": "#000000"}},
        {"id": "marker.add", "params": {"comp": "Reveal", "time": 1.0, "name": "drawn"}},
        {"id": "layer.add", "params": {"comp": "Reveal", "type": "shape", "shape": "path",
                                       "name": "Stroke", "size": [200, 60], "fill": None,
                                       "stroke": "#ffffff", "strokeWidth": 6,
                                       "strokeCap": "round", **arch}},
        {"id": "prop.addKey", "params": {"comp": "Reveal", "layer": "Stroke",
                                         "path": "trimEnd", "time": 0, "value": 0,
                                         "interpolation": "easyEase"}},
        {"id": "prop.addKey", "params": {"comp": "Reveal", "layer": "Stroke",
                                         "path": "trimEnd", "time": "marker:drawn",
                                         "value": 100}},
        {"id": "mask.add", "params": {"comp": "Reveal", "layer": "Stroke", "shape": "rect",
                                      "mode": "add", "size": [100, 60], "position": [50, 30],
                                      "feather": 8}},
        {"id": "layer.add", "params": {"comp": "Reveal", "type": "image", "name": "Logo",
                                       "path": str(inside / "logo.svg"),
                                       "position": [260, 40]}},
        {"id": "prop.addKey", "params": {"comp": "Reveal", "layer": "Logo",
                                         "path": "transform.scale", "time": 0,
                                         "value": [0, 0], "interpolation": "spring"}},
        {"id": "prop.addKey", "params": {"comp": "Reveal", "layer": "Logo",
                                         "path": "transform.scale", "time": 1.5,
                                         "value": [100, 100]}},
        {"id": "layer.add", "params": {"comp": "Reveal", "type": "lottie", "name": "Burst",
                                       "path": str(inside / "burst.json"),
                                       "position": [60, 150], "loop": True, "outPoint": 2}},
    ]
    report = structured(process.run("command_batch", {"steps": steps}))
    assert report["completed"] == len(steps), report
    early, drawn = preview(process, 0.25), preview(process, 1.0)
    stroke_box = (slice(60, 150), slice(60, 260))
    assert 0 < early[stroke_box][..., 0].astype(int).sum() < drawn[stroke_box][..., 0].sum()
    assert drawn[30:50, 240:280, 2].min() > 200  # the logo, sprung to full size
    assert drawn[140:160, 20:100, 0].max() > 200  # the Lottie square
    masks = structured(process.run("command_run", {"id": "mask.list", "params": {
        "comp": "Reveal", "layer": "Stroke"}}))["masks"]
    assert masks[0]["feather"] == 8


def test_lottie_naming_an_image_outside_the_roots_neither_reads_nor_draws_it(session):
    process, inside, outside = session
    red = skia.Surface(40, 40)
    red.getCanvas().clear(skia.ColorRED)
    red.makeImageSnapshot().save(str(outside / "secret.png"), skia.kPNG)
    layer = {"ddd": 0, "ind": 1, "ty": 2, "refId": "img", "ip": 0, "op": 60, "st": 0,
             "ks": {"o": {"a": 0, "k": 100}, "p": {"a": 0, "k": [0, 0]},
                    "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
                    "r": {"a": 0, "k": 0}}}
    linking = animation([layer], width=40, height=40,
                        assets=[{"id": "img", "w": 40, "h": 40, "u": f"{outside}/",
                                 "p": "secret.png", "e": 0}])
    (inside / "linking.json").write_text(json.dumps(linking))
    structured(process.run("command_run", {"id": "comp.new", "params": {
        "name": "Reveal", "width": 40, "height": 40, "duration": 1}}))
    added = structured(process.run("command_run", {"id": "layer.add", "params": {
        "comp": "Reveal", "type": "lottie", "path": str(inside / "linking.json")}}))
    assert any("secret.png" in warning for warning in added["warnings"])
    assert preview(process, 0.0)[..., 0].max() == 0


def test_svg_footage_in_a_confined_session_is_not_taken_for_a_playlist(session):
    process, inside, outside = session
    (inside / "logo.svg").write_bytes(LOGO)  # starts with markup, as DASH manifests do
    result = structured(process.run("command_run", {"id": "footage.import", "params": {
        "path": str(inside / "logo.svg")}}))
    assert (result["kind"], result["width"], result["height"]) == ("vector", 60, 30)
    refused = process.run("command_run", {"id": "footage.import", "params": {
        "path": str(outside / "logo.svg")}})
    assert refused["isError"] is True and "outside the read roots" in \
        refused["content"][0]["text"]
