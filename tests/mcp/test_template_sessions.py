"""Templates through a real `rendervisor mcp`: an agent binds params in one batch, queues an
item with params and renders it (the project itself unchanged), and previews a row with
template.preview as render_preview shows a frame."""

from __future__ import annotations

import pytest

from tests.helpers.mcp_images import decode_png
from tests.helpers.render_sessions import read_png
from tests.helpers.template_projects import BACKGROUND_AT, LOGO_AT, logo_png, pixel


@pytest.fixture
def session(module_confined_server, confined_folder):
    return module_confined_server, confined_folder


def structured(result: dict) -> dict:
    assert result.get("isError") is not True, result
    return result["structuredContent"]


def command(process, command_id, **params):
    return process.run("command_run", {"id": command_id, "params": params}, timeout=120)


def build(process, folder) -> None:
    logo = logo_png(folder / "logo.png", (255, 255, 255))
    steps = [
        {"id": "comp.new", "params": {"name": "Card", "width": 96, "height": 54,
                                      "duration": 0.2, "frameRate": 10}},
        {"id": "layer.add", "params": {"comp": "Card", "type": "solid", "name": "Back",
                                       "color": "#000000"}},
        {"id": "layer.add", "params": {"comp": "Card", "type": "image", "name": "Logo",
                                       "path": logo, "position": [16, 16]}},
        {"id": "layer.add", "params": {"comp": "Card", "type": "text", "name": "Title",
                                       "text": "x", "size": 14, "position": [60, 30]}},
        {"id": "template.addParam", "params": {"name": "accent", "comp": "Card",
                                               "layer": "Back", "path": "color",
                                               "default": "#203040"}},
        {"id": "template.addParam", "params": {"name": "title", "comp": "Card",
                                               "layer": "Title", "path": "text"}},
        {"id": "template.addParam", "params": {"name": "logo", "comp": "Card",
                                               "layer": "Logo", "path": "footage"}},
        {"id": "project.save", "params": {"path": str(folder / "card.rvproj")}},
    ]
    report = structured(process.run("command_batch", {"steps": steps, "atomic": False}))
    assert report["failed"] == 0, report


def test_a_queue_item_with_params_renders_its_values_and_leaves_the_project(session):
    process, folder = session
    build(process, folder)
    red = logo_png(folder / "red.png", (255, 0, 0))
    before = structured(command(process, "template.list"))
    added = structured(command(process, "renderQueue.add", comp="Card", format="png",
                               frames="0", output="out/[param:title]_[#].png",
                               params={"title": "Ada", "accent": "#00ff00", "logo": red}))
    assert added["output"] == str(folder / "out" / "[param:title]_[#].png")
    report = structured(command(process, "renderQueue.render"))
    assert report["completed"] == 1, report
    assert report["items"][0]["output"] == str(folder / "out" / "Ada_[#].png")
    frame = read_png(str(folder / "out" / "Ada_0.png"))
    assert pixel(frame, BACKGROUND_AT) == (0, 255, 0) and pixel(frame, LOGO_AT) == (255, 0, 0)
    assert structured(command(process, "template.list")) == before
    plain = process.run("render_preview", {"comp": "Card", "max_side": 0})
    shown = decode_png(next(part for part in plain["content"] if part["type"] == "image")["data"])
    assert pixel(shown, BACKGROUND_AT) == (0x20, 0x30, 0x40)  # the default, as saved
    refused = command(process, "renderQueue.add", comp="Card", output="x.mp4",
                      params={"accent": "#00ff00"})
    assert refused["isError"] and "param 'title': has no default" in refused["content"][0][
        "text"]


def test_template_preview_is_a_png_of_the_row(session):
    process, folder = session
    build(process, folder)
    result = command(process, "template.preview", comp="Card", maxSide=0, time=0.1,
                     params={"title": "Bo", "accent": "#ff0000"})
    assert result.get("isError") is not True, result
    image, text = result["content"]
    assert image["type"] == "image" and image["mimeType"] == "image/png"
    info = result["structuredContent"]
    assert (info["comp"], info["frame"], info["width"], info["height"]) == ("Card", 1, 96, 54)
    assert "image" not in info and info["params"]["title"] == "Bo"
    pixels = decode_png(image["data"])
    assert pixel(pixels, BACKGROUND_AT) == (255, 0, 0)
    assert pixel(pixels, LOGO_AT) == (255, 255, 255)
    other = decode_png(command(process, "template.preview", comp="Card", maxSide=0, time=0.1,
                               params={"title": "Cy", "accent": "#ff0000"})["content"][0][
        "data"])
    assert (other != pixels).any()  # another title: another picture, never the cached one
    bad = command(process, "template.preview", params={"title": "x", "accent": "red"})
    assert bad["isError"] and "param 'accent': expected a color" in bad["content"][0]["text"]
