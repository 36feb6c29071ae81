"""`rendervisor studio PROJECT` in a real browser: the layers of an example project, the viewer's
frame against `rendervisor preview`'s, a render followed to 100%, and a change on disk."""

from __future__ import annotations

import json
import shutil

import av
import numpy as np

from supervisor.engine.engine import Engine
from tests.helpers.browser import png_pixels, shown_pixels
from tests.helpers.cli_projects import ROOT, rendervisor, small_project
from tests.helpers.studio_process import StudioProcess

# Generous bounds for what the page shows: each needs well under a second on an idle machine,
# and the machine running the tests may be busy.
SHOWN_WITHIN_MS = 30_000


def example_copy(folder) -> str:
    """examples/lower_third.rvproj and its footage, copied so nothing is written beside the
    repository's own."""
    for name in ("lower_third.rvproj", "lower_third_clip.mp4", "lower_third_bed.wav"):
        shutil.copy(f"{ROOT}/examples/{name}", folder / name)
    return str(folder / "lower_third.rvproj")


def scrub_to(page, frame: int) -> None:
    page.locator("#scrub").evaluate(
        "(el, frame) => { el.value = frame; el.dispatchEvent(new Event('input')); }", frame)
    page.wait_for_selector(f"#frame[data-frame='{frame}']", timeout=SHOWN_WITHIN_MS)


def test_the_studio_shows_an_examples_layers_and_the_frame_preview_draws(page, tmp_path):
    project = example_copy(tmp_path)
    layers = [layer["name"] for layer in json.load(open(project))["comps"][0]["layers"]]
    studio = StudioProcess(project)
    try:
        page.goto(studio.url)
        page.wait_for_selector(".layer-name", timeout=SHOWN_WITHIN_MS)
        assert page.locator(".layer-name").all_inner_texts() == layers
        # The Plate's four position keys, the Role's two opacity keys, the Bed's four levels.
        assert page.locator(".row[data-layer=layer4] .key").count() == 4
        assert page.locator(".row[data-layer=layer7] .key").count() == 2

        scrub_to(page, 45)
        assert page.locator("#time").inner_text() == "frame 45 · 1.50 s"
        image = page.locator("#frame")
        side = int(image.get_attribute("data-side"))
        shown = shown_pixels(image)
        early = shown_pixels_at(page, 3)

        png = tmp_path / "preview.png"
        done = rendervisor("preview", project, "--time", "1.5", "--max-side", side,
                           "--output", png)
        assert done.returncode == 0, done.stderr
        expected = png_pixels(png.read_bytes())
        assert shown.shape == expected.shape and max(shown.shape[:2]) == side
        assert np.abs(shown.astype(int) - expected.astype(int)).max() <= 2
        # The comparison can fail: the title slides in, so frame 3 differs from frame 45.
        assert np.abs(early.astype(int) - expected.astype(int)).max() > 50
    finally:
        assert studio.stop() == 0


def shown_pixels_at(page, frame: int):
    scrub_to(page, frame)
    return shown_pixels(page.locator("#frame"))


def test_a_render_started_from_the_page_is_followed_to_100_percent(page, tmp_path):
    output = tmp_path / "main.mp4"
    project = small_project(tmp_path / "p.rvproj", frames=24,
                            queue=[{"output": str(output), "format": "h264"}])
    studio = StudioProcess(project)
    try:
        page.goto(studio.url)
        item = page.locator("li.render-item")
        item.wait_for(timeout=SHOWN_WITHIN_MS)
        assert item.get_attribute("data-status") == "queued"
        page.click("#render")
        page.wait_for_selector("li.render-item[data-status=done]", timeout=SHOWN_WITHIN_MS)
        assert item.get_attribute("data-progress") == "1"
        assert item.locator(".percent").inner_text() == "100%"
        with av.open(str(output)) as video:
            assert sum(1 for _ in video.decode(video=0)) == 24
    finally:
        assert studio.stop() == 0


def test_the_page_shows_the_project_again_when_its_file_changes(page, tmp_path):
    project = small_project(tmp_path / "p.rvproj")
    studio = StudioProcess(project)
    try:
        page.goto(studio.url)
        page.wait_for_selector(".layer-name", timeout=SHOWN_WITHIN_MS)
        names = page.locator(".layer-name").all_inner_texts()
        engine = Engine(project)  # another program saves the project
        engine.run("layer.add", {"comp": "Main", "type": "text", "text": "Hello",
                                 "name": "Saved elsewhere"})
        engine.run("project.save", {})
        page.wait_for_selector(".layer-name:text-is('Saved elsewhere')",
                               timeout=SHOWN_WITHIN_MS)
        assert page.locator(".layer-name").all_inner_texts() == ["Saved elsewhere", *names]
        # A file caught half-written is said, and the project stays as last read.
        with open(project, "w") as half:
            half.write('{"version": 2, "comps": [')
        page.wait_for_selector("#problem:not([hidden])", timeout=SHOWN_WITHIN_MS)
        assert "could not be opened" in page.locator("#problem").inner_text()
        assert page.locator(".layer-name").count() == len(names) + 1
    finally:
        assert studio.stop() == 0
