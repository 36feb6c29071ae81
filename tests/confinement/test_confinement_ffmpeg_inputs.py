"""Footage whose one name makes FFmpeg open other files, drawn in confined sessions: an FFmpeg
frame pattern (`img/f%d.ppm`, a real file by that name) beside `img/f1.ppm`, a link planted to
an outside picture that FFmpeg's image2 demuxer would open instead; and a DASH manifest named
like a video, its `<MPD` behind a comment. Real `rendervisor mcp` processes and real links;
what is checked is the pixels a preview returns and a saved frame holds (never the outside
picture's), the one-sentence refusal, and the outside folders' footprint. Unconfined, the name
is not refused, and FFmpeg still opens only the file named.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests.helpers.confinement_world import (INSIDE_RGB, OUTSIDE_RGB, Footprint, build_world,
                                     reply_text, write_crafted_project)
from tests.helpers.mcp_process import McpProcess
from tests.helpers.render_sessions import decode_png, read_png
from tests.confinement.test_confinement_sessions import command, confined, one_call_on


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return build_world(str(tmp_path_factory.mktemp("ffmpeg_inputs")))


def pattern(world) -> str:
    return os.path.join(world.read, "img", "f%d.ppm")


def pixels_of(pixels: np.ndarray, rgb: tuple[int, int, int]) -> int:
    """How many pixels show colour `rgb` (give or take the encoders)."""
    return int(np.sum(np.all(np.abs(pixels[..., :3].astype(int) - rgb) < 40, axis=-1)))


def outside_pixels(pixels: np.ndarray) -> int:
    return pixels_of(pixels, OUTSIDE_RGB)


def inside_pixels(pixels: np.ndarray) -> int:
    return pixels_of(pixels, INSIDE_RGB)


def preview_pixels(result: dict) -> np.ndarray | None:
    images = [block for block in result.get("content", []) if block.get("type") == "image"]
    return decode_png(images[0]["data"]) if images else None


def assert_one_sentence(result: dict, *fragments: str) -> None:
    text = reply_text(result)
    assert result.get("isError"), f"not refused: {text[:300]}"
    assert "\n" not in text.strip(), text
    for fragment in fragments:
        assert fragment in text, f"{fragment!r} not in {text!r}"


def test_ffmpeg_pattern_footage_never_shows_the_picture_a_planted_link_points_at(world):
    still = os.path.join(world.write, "pattern_still.png")
    before = Footprint(world.outsides(), listed=(world.base,))
    process = confined(world)
    try:
        command(process, "comp.new", name="Leak", width=16, height=16, frameRate=10,
                duration=0.1)
        added = command(process, "layer.add", comp="Leak", type="video", path=pattern(world))
        preview = process.run("render_preview", {"comp": "Leak"}, timeout=120)
        command(process, "comp.saveFrameAs", comp="Leak", path=still)
    finally:
        process.stop()
    pixels = preview_pixels(preview)
    assert pixels is not None and outside_pixels(pixels) == 0, "the preview shows the outside"
    assert not os.path.exists(still) or outside_pixels(read_png(still)) == 0, \
        "the saved frame shows the outside picture"
    assert_one_sentence(added, pattern(world), "%d", "FFmpeg", "[####]")
    assert Footprint(world.outsides(), listed=(world.base,)).changes(before) == []


@pytest.mark.parametrize("footage,fragments", [
    ("img/f%d.ppm", ["f%d.ppm", "%d", "FFmpeg"]),
    ("manifest.mp4", ["manifest.mp4", "DASH"]),
], ids=["ffmpeg-pattern", "dash-manifest-behind-a-comment"])
@pytest.mark.parametrize("call", ["preview", "still"])
def test_a_crafted_project_whose_footage_makes_ffmpeg_open_other_files_is_never_drawn(
        world, footage, fragments, call):
    """The project opens (it is inside the roots); every drawing of it is refused by the
    snapshot check, with a sentence naming the footage, its file and what to do."""
    name = footage.replace("/", "_").replace("%", "_")
    project = os.path.join(world.write, f"crafted_{name}_{call}.rvproj")
    write_crafted_project(world, project, os.path.join(world.read, footage))
    still = os.path.join(world.write, f"crafted_{name}_{call}.png")
    before = Footprint(world.outsides(), listed=(world.base,))
    if call == "preview":
        result = one_call_on(world, project, "render_preview", {"comp": "Leak"})
        pixels = preview_pixels(result)
        assert pixels is None or outside_pixels(pixels) == 0, "the preview shows the outside"
    else:
        result = one_call_on(world, project, "command_run", {
            "id": "comp.saveFrameAs", "params": {"comp": "Leak", "path": still}})
        assert not os.path.exists(still) or outside_pixels(read_png(still)) == 0, \
            "the saved frame shows the outside picture"
    assert_one_sentence(result, "footage", *fragments, "footage.replace")
    assert not os.path.exists(still)
    assert Footprint(world.outsides(), listed=(world.base,)).changes(before) == []


def test_an_unconfined_session_draws_a_file_named_like_an_ffmpeg_pattern_as_that_file(world,
                                                                                      tmp_path):
    """Unconfined, nothing refuses the name: the worker's FFmpeg opens `f%d.ppm` itself (the
    inside picture, 8x8), never the f1.ppm beside it, in the preview and in a saved frame."""
    still = str(tmp_path / "still.png")
    process = McpProcess(cwd=str(tmp_path))
    process.initialize()
    try:
        command(process, "comp.new", name="Leak", width=16, height=16, frameRate=10,
                duration=0.1)
        command(process, "layer.add", comp="Leak", type="video", path=pattern(world))
        footage = command(process, "footage.list")["structuredContent"]["footage"][0]
        preview = process.run("render_preview", {"comp": "Leak"}, timeout=120)
        command(process, "comp.saveFrameAs", comp="Leak", path=still)
    finally:
        process.stop()
    assert (footage["width"], footage["height"]) == (8, 8)
    for pixels in (preview_pixels(preview), read_png(still)):
        assert outside_pixels(pixels) == 0, "FFmpeg opened the file a link beside it points at"
        assert inside_pixels(pixels) > 0


def test_a_crafted_project_opened_by_project_open_is_checked_at_its_first_preview(world):
    project = os.path.join(world.write, "crafted_opened.rvproj")
    write_crafted_project(world, project, pattern(world))
    process = confined(world)
    try:
        opened = command(process, "project.open", path=project)
        preview = process.run("render_preview", {"comp": "Leak"}, timeout=120)
    finally:
        process.stop()
    assert not opened.get("isError"), reply_text(opened)
    pixels = preview_pixels(preview)
    assert pixels is None or outside_pixels(pixels) == 0, "the preview shows the outside"
    assert_one_sentence(preview, "footage", "f%d.ppm", "FFmpeg", "footage.replace")
