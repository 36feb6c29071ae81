"""`rendervisor collect`: a project and every file it reads gathered into one folder, which then
renders on its own, the originals gone, into the same bytes; `--check` lists what a node given
the project's folder alone would miss."""

import json
import os
import shutil

import skia

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import error_lines, plate_project, rendervisor

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def job_with_outside_files(tmp_path):
    """A plate sequence inside the job's folder; a logo and a font file outside it."""
    (tmp_path / "job").mkdir()
    project, _plates = plate_project(tmp_path / "job", frames=4)
    (tmp_path / "library").mkdir()
    shutil.copy(FONT, tmp_path / "library" / "Brand.ttf")
    surface = skia.Surface(8, 8)
    surface.getCanvas().clear(skia.ColorGREEN)
    surface.makeImageSnapshot().save(str(tmp_path / "library" / "logo.png"), skia.kPNG)
    engine = Engine(project)
    engine.run("layer.add", {"comp": "Main", "type": "image",
                             "path": str(tmp_path / "library" / "logo.png")})
    engine.run("layer.add", {"comp": "Main", "type": "text", "text": "Hi", "size": 8,
                             "fontFile": str(tmp_path / "library" / "Brand.ttf")})
    engine.run("renderQueue.add", {"comp": "Main", "output": "out/main.mp4"})
    engine.run("project.save", {})
    return project


def files(folder):
    return {name: (folder / name).read_bytes() for name in sorted(os.listdir(folder))}


def test_a_collected_project_renders_the_same_bytes_with_the_originals_gone(tmp_path):
    project = job_with_outside_files(tmp_path)
    original = rendervisor("render", project, "--quiet")
    assert original.returncode == 0, original.stderr
    collected = rendervisor("collect", project, tmp_path / "collected")
    assert collected.returncode == 0, collected.stderr
    assert sorted(os.listdir(tmp_path / "collected")) == ["fonts", "footage", "plate.rvproj"]
    saved = json.loads((tmp_path / "collected" / "plate.rvproj").read_text())
    assert sorted(footage["path"] for footage in saved["footage"]) == [
        "footage/logo.png", "footage/plate/p_[####].png"]
    # Shipped: a copy of the folder alone, everything it was collected from gone.
    shutil.copytree(tmp_path / "collected", tmp_path / "node")
    shutil.move(tmp_path / "job", tmp_path / "job-renders")
    shutil.rmtree(tmp_path / "library")
    shutil.rmtree(tmp_path / "collected")
    check = rendervisor("collect", tmp_path / "node" / "plate.rvproj", "--check")
    assert check.returncode == 0, check.stdout + check.stderr
    rendered = rendervisor("render", tmp_path / "node" / "plate.rvproj", "--quiet")
    assert rendered.returncode == 0, rendered.stderr
    made, reference = files(tmp_path / "node" / "out"), files(tmp_path / "job-renders" / "out")
    assert sorted(made) == ["f_00.png", "f_01.png", "f_02.png", "f_03.png", "main.mp4"]
    assert made == reference


def test_check_lists_what_a_node_given_the_projects_folder_would_miss(tmp_path):
    project = job_with_outside_files(tmp_path)
    os.unlink(tmp_path / "job" / "plate" / "p_0002.png")
    result = rendervisor("collect", project, "--check")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        f"missing  {tmp_path}/job/plate/p_0002.png (footage 'p_[####].png'): it is missing",
        f"outside  {tmp_path}/library/logo.png (footage 'logo.png'): outside the project's "
        f"folder {tmp_path}/job",
        f"outside  {tmp_path}/library/Brand.ttf (text layer 'Hi' of comp 'Main'): outside the "
        f"project's folder {tmp_path}/job"]
    assert lines[3].startswith("3 of the project's inputs would be missing on a node given ")
    # Nothing can be collected with a file gone: said for each, nothing copied.
    refused = rendervisor("collect", project, tmp_path / "out")
    assert refused.returncode == 2
    [line] = error_lines(refused.stderr)
    assert f"{tmp_path}/job/plate/p_0002.png (footage 'p_[####].png'): it is missing" in line
    assert not (tmp_path / "out").exists()


def test_collect_refuses_a_folder_that_is_not_empty(tmp_path):
    project = job_with_outside_files(tmp_path)
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "other.txt").write_text("someone else's")
    result = rendervisor("collect", project, tmp_path / "busy")
    assert result.returncode == 2
    assert error_lines(result.stderr) == [
        f"rendervisor collect: {tmp_path}/busy is not empty; collect into a new or empty "
        "folder, so nothing there is overwritten or mistaken for part of the job."]
    assert os.listdir(tmp_path / "busy") == ["other.txt"]
