"""`rendervisor export PROJECT --comp NAME --output FILE [--format F] [--render-graphics]`: a
saved project's comp handed to an editor or written as Lottie; the format from the extension;
warnings on stderr, the written files on stdout; bad usage one line and exit 2, nothing
written."""

import json
import os

import opentimelineio as otio

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import error_lines, rendervisor
from tests.helpers.interchange_projects import media


def titled_project(tmp_path) -> str:
    files = media(tmp_path)
    engine = Engine()
    engine.run("comp.new", {"name": "Cut", "width": 64, "height": 36, "frameRate": 24,
                            "duration": 1})
    engine.run("layer.add", {"comp": "Cut", "type": "video", "path": files["a"],
                             "name": "Shot"})
    engine.run("layer.add", {"comp": "Cut", "type": "text", "text": "Hi", "name": "Title",
                             "size": 12})
    path = str(tmp_path / "cut.rvproj")
    engine.run("project.save", {"path": path})
    return path


def test_export_writes_the_format_its_extension_names(tmp_path):
    project = titled_project(tmp_path)
    before = open(project).read()
    for name, adapter in (("cut.xml", "fcp_xml"), ("cut.edl", "cmx_3600")):
        result = rendervisor("export", project, "--comp", "Cut", "--output",
                             str(tmp_path / name), "--workers", "1")
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == str(tmp_path / name)
        assert "'Title'" in result.stderr and "--render-graphics" in result.stderr
        timeline = otio.adapters.read_from_file(str(tmp_path / name), adapter_name=adapter)
        assert "Shot" in [clip.name for clip in timeline.find_clips()]
    assert open(project).read() == before, "the project file is never changed"


def test_render_graphics_writes_the_graphics_beside_the_timeline(tmp_path):
    project = titled_project(tmp_path)
    result = rendervisor("export", project, "--comp", "Cut", "--output",
                         str(tmp_path / "cut.otio"), "--render-graphics", "--workers", "1")
    assert result.returncode == 0, result.stderr
    graphics, timeline = result.stdout.split()
    assert timeline == str(tmp_path / "cut.otio")
    assert graphics.startswith(str(tmp_path / "cut_graphics")) and os.path.isfile(graphics)
    # Each line: its time, then what the render has done (and its rate, once it has one).
    progress = [line.split(" ", 1)[1] for line in error_lines(result.stderr)]
    assert progress[-1].startswith("rendering: 24/24 frames (100%)"), progress
    assert all(line.startswith("rendering: ") for line in progress), progress


def test_export_writes_lottie_for_json(tmp_path):
    project = titled_project(tmp_path)
    result = rendervisor("export", project, "--comp", "Cut", "--output",
                         str(tmp_path / "cut.json"), "--workers", "1")
    assert result.returncode == 0, result.stderr
    animation = json.loads((tmp_path / "cut.json").read_text())
    assert [(layer["nm"], layer["ty"]) for layer in animation["layers"]] == [
        ("Title", 4), ("Shot", 3), ("Background", 4)], "the video a null, its picture left out"
    assert "video cannot be held in a Lottie file" in result.stderr


def test_bad_usage_is_one_line_and_exit_2_with_nothing_written(tmp_path):
    project = titled_project(tmp_path)
    for args, said in (
            (("--comp", "Nope", "--output", str(tmp_path / "a.otio")), "no comp 'Nope'"),
            (("--comp", "Cut", "--output", str(tmp_path / "a.mov")), "cannot tell the format"),
            (("--comp", "Cut", "--output", str(tmp_path / "a.json"), "--render-graphics"),
             "--render-graphics is for timelines")):
        result = rendervisor("export", project, *args)
        assert result.returncode == 2
        [line] = error_lines(result.stderr)
        assert said in line
    assert sorted(os.listdir(tmp_path)) == ["a.mp4", "b.mp4", "bed.wav", "cut.rvproj"]
