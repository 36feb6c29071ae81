"""Text through the front doors: every script in a preview (the real `rendervisor mcp`), a still
and an H.264 render (the real CLI, decoded by PyAV); font.list, fallback warnings, doc_inspect,
and font files under confinement."""

import json
import os
import shutil

import av
import numpy as np
import pytest
import rendercv_fonts

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import rendervisor
from tests.helpers.mcp_process import McpProcess
from tests.helpers.render_sessions import decode_png
from tests.compositor.test_text_scripts import SCRIPTS

CELL_W, CELL_H, COLUMNS = 320, 80, 4
NAMES = sorted(SCRIPTS)
ROWS = (len(NAMES) + COLUMNS - 1) // COLUMNS
LATO = os.path.join(os.path.dirname(rendercv_fonts.__file__), "Lato", "Lato-Regular.ttf")


def script_steps(comp="Scripts", duration=0.2) -> list[dict]:
    """A comp with one text layer per script, each centered in its own cell of a grid."""
    steps = [{"id": "comp.new", "params": {"name": comp, "width": CELL_W * COLUMNS,
                                           "height": CELL_H * ROWS, "frameRate": 10,
                                           "duration": duration, "background": "#000000"}}]
    for index, name in enumerate(NAMES):
        row, column = divmod(index, COLUMNS)
        steps.append({"id": "layer.add", "params": {
            "comp": comp, "type": "text", "name": name, "text": SCRIPTS[name], "size": 36,
            "font": "Roboto", "position": [column * CELL_W + CELL_W / 2,
                                           row * CELL_H + CELL_H / 2]}})
    return steps


def assert_every_cell_has_ink(pixels: np.ndarray, threshold: int = 60) -> None:
    for index, name in enumerate(NAMES):
        row, column = divmod(index, COLUMNS)
        cell = pixels[row * CELL_H:(row + 1) * CELL_H, column * CELL_W:(column + 1) * CELL_W]
        lit = (cell[..., :3].max(axis=2) > threshold).sum()
        assert lit > 150, f"{name}: {lit} lit pixels"


def saved_scripts_project(folder) -> str:
    engine = Engine()
    for step in script_steps():
        engine.run(step["id"], step["params"])
    path = os.path.join(str(folder), "scripts.rvproj")
    engine.run("project.save", {"path": path})
    return path


def test_every_script_previews_with_ink_through_mcp(server):
    result = server.run("command_batch", {"steps": script_steps()})
    assert result["structuredContent"]["failed"] == 0, result
    preview = server.run("render_preview", {"comp": "Scripts", "max_side": 0})
    assert not preview.get("isError"), preview
    assert_every_cell_has_ink(decode_png(preview["content"][0]["data"]))


def test_every_script_renders_to_a_still_and_h264(tmp_path):
    project = saved_scripts_project(tmp_path)
    still = tmp_path / "still.png"
    done = rendervisor("preview", project, "--comp", "Scripts", "--output", still)
    assert done.returncode == 0, done.stderr
    with av.open(str(still)) as container:
        assert_every_cell_has_ink(next(container.decode(video=0)).to_ndarray(format="rgb24"))
    video = tmp_path / "scripts.mp4"
    done = rendervisor("render", project, "--comp", "Scripts", "--output", video, "--quiet",
                       "--workers", "1")
    assert done.returncode == 0, done.stderr
    with av.open(str(video)) as container:
        frames = [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]
    assert len(frames) == 2
    for frame in frames:
        assert_every_cell_has_ink(frame, threshold=90)


def test_render_quiet_of_a_text_project_leaves_stderr_empty(tmp_path):
    # Skia's fontconfig used to print a "reset-dirs" warning on every text render.
    engine = Engine()
    engine.run("comp.new", {"name": "Title", "width": 160, "height": 90, "duration": 0.2,
                            "frameRate": 10})
    engine.run("layer.add", {"comp": "Title", "type": "text", "text": "Quiet", "size": 30})
    project = str(tmp_path / "quiet.rvproj")
    engine.run("project.save", {"path": project})
    done = rendervisor("render", project, "--comp", "Title", "--output",
                       tmp_path / "quiet.mp4", "--quiet", "--workers", "1")
    assert done.returncode == 0
    assert done.stderr == ""
    assert (tmp_path / "quiet.mp4").stat().st_size > 0


def test_font_list_names_bundled_families_with_their_styles(server):
    fonts = server.run("command_run", {"id": "font.list", "params": {}})["structuredContent"]
    by_family = {entry["family"]: entry for entry in fonts["fonts"]}
    assert by_family["Lato"]["source"] == "bundled"
    assert {"Regular", "Bold", "Italic", "Bold Italic"} <= set(by_family["Lato"]["styles"])
    for script_family in ("Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Thai",
                          "Noto Sans Devanagari", "Noto Sans SC", "Noto Color Emoji"):
        assert by_family[script_family]["source"] == "bundled"
    filtered = server.run("command_run", {"id": "font.list", "params": {"filter": "noto sans a"}})
    assert {e["family"] for e in filtered["structuredContent"]["fonts"]
            if e["source"] == "bundled"} == {"Noto Sans Arabic", "Noto Sans Armenian"}
    assert all("noto sans a" in e["family"].lower()
               for e in filtered["structuredContent"]["fonts"])


def test_a_family_that_is_not_installed_is_a_warning_and_listed_by_doc_inspect(server):
    steps = [{"id": "comp.new", "params": {"name": "M"}},
             {"id": "layer.add", "params": {"comp": "M", "type": "text", "text": "Hello",
                                            "font": "Helvetica Neue Ultra"}},
             {"id": "layer.add", "params": {"comp": "M", "type": "text", "text": "Fine",
                                            "font": "Lato"}}]
    result = server.run("command_batch", {"steps": steps})["structuredContent"]
    warned, fine = result["results"][1]["result"], result["results"][2]["result"]
    assert "Helvetica Neue Ultra" in warned["warnings"][0] and "Roboto" in warned["warnings"][0]
    assert "warnings" not in fine
    overview = server.run("doc_inspect")["structuredContent"]
    assert [entry["name"] for entry in overview["fontFallbacks"]] == ["Hello"]


def test_a_font_file_is_listed_as_a_file_font_and_used(server, tmp_path):
    copy = tmp_path / "MyLato.ttf"
    shutil.copy(LATO, copy)
    steps = [{"id": "comp.new", "params": {"name": "M", "width": 200, "height": 100}},
             {"id": "layer.add", "params": {"comp": "M", "type": "text", "text": "File",
                                            "fontFile": str(copy), "size": 40}}]
    result = server.run("command_batch", {"steps": steps})["structuredContent"]
    assert result["failed"] == 0 and "warnings" not in result["results"][1]["result"]
    fonts = server.run("command_run", {"id": "font.list", "params": {"filter": "lato"}})
    files = [e for e in fonts["structuredContent"]["fonts"] if e["source"] == "file"]
    assert files == [{"family": "Lato", "source": "file", "path": str(copy),
                      "styles": ["Regular"]}]


def test_a_file_that_is_not_a_font_is_refused_in_one_sentence(server, tmp_path):
    fake = tmp_path / "fake.ttf"
    fake.write_bytes(b"this is not a font at all" * 40)
    server.run("command_run", {"id": "comp.new", "params": {"name": "M"}})
    result = server.run("command_run", {"id": "layer.add", "params": {
        "comp": "M", "type": "text", "text": "x", "fontFile": str(fake)}})
    assert result["isError"]
    message = result["content"][0]["text"]
    assert message == (f"fontFile {fake} is not a font (Skia reads no face from it); give a "
                       ".ttf, .otf, .ttc, .woff or .woff2 file.")
    assert "Traceback" not in message


def test_a_font_file_outside_the_read_roots_is_refused(tmp_path):
    inside, outside = tmp_path / "in", tmp_path / "out"
    inside.mkdir()
    outside.mkdir()
    shutil.copy(LATO, outside / "Lato.ttf")
    shutil.copy(LATO, inside / "Lato.ttf")
    os.symlink(outside / "Lato.ttf", inside / "link.ttf")
    server = McpProcess("--read-root", str(inside), "--write-root", str(inside))
    server.initialize()
    try:
        server.run("command_run", {"id": "comp.new", "params": {"name": "M"}})
        for path in (outside / "Lato.ttf", inside / "link.ttf"):
            result = server.run("command_run", {"id": "layer.add", "params": {
                "comp": "M", "type": "text", "text": "x", "fontFile": str(path)}})
            assert result["isError"], path
            assert "outside the read roots" in result["content"][0]["text"]
        allowed = server.run("command_run", {"id": "layer.add", "params": {
            "comp": "M", "type": "text", "text": "x", "fontFile": str(inside / "Lato.ttf")}})
        assert not allowed["isError"], allowed
    finally:
        server.stop()


def test_a_project_whose_font_file_is_outside_the_roots_does_not_draw(tmp_path):
    inside, outside = tmp_path / "in", tmp_path / "out"
    inside.mkdir()
    outside.mkdir()
    shutil.copy(LATO, outside / "Lato.ttf")
    engine = Engine()
    engine.run("comp.new", {"name": "M", "width": 100, "height": 50})
    engine.run("layer.add", {"comp": "M", "type": "text", "text": "x",
                             "fontFile": str(outside / "Lato.ttf")})
    project = inside / "p.rvproj"
    engine.run("project.save", {"path": str(project)})
    server = McpProcess("--project", str(project), "--read-root", str(inside),
                        "--write-root", str(inside))
    server.initialize()
    try:
        preview = server.run("render_preview", {"comp": "M"})
        assert preview["isError"]
        text = preview["content"][0]["text"]
        assert "fontFile" in text and "outside the read roots" in text
    finally:
        server.stop()


def test_a_saved_font_file_inside_the_project_folder_is_stored_relative(tmp_path):
    shutil.copy(LATO, tmp_path / "Lato.ttf")
    engine = Engine()
    engine.run("comp.new", {"name": "M"})
    engine.run("layer.add", {"comp": "M", "type": "text", "text": "x",
                             "fontFile": str(tmp_path / "Lato.ttf")})
    engine.run("project.save", {"path": str(tmp_path / "p.rvproj")})
    saved = json.loads((tmp_path / "p.rvproj").read_text())
    assert saved["comps"][0]["layers"][0]["content"]["fontFile"] == "Lato.ttf"
    reopened = Engine(str(tmp_path / "p.rvproj"))
    assert reopened.doc["comps"][0]["layers"][0]["content"]["fontFile"] == \
        str(tmp_path / "Lato.ttf")


@pytest.mark.parametrize("bad, words", [({"weight": 50}, "weight"),
                                        ({"box": [0, 10]}, "box"),
                                        ({"align": "middle"}, "align"),
                                        ({"fontFile": "relative.ttf"}, "absolute")])
def test_bad_text_params_are_one_sentence(bad, words):
    engine = Engine()
    engine.run("comp.new", {"name": "M"})
    from supervisor.errors import CommandError
    with pytest.raises(CommandError, match=words) as caught:
        engine.run("layer.add", {"comp": "M", "type": "text", "text": "x", **bad})
    assert str(caught.value).endswith(".") and "\n" not in str(caught.value)
