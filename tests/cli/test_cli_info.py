"""`rendervisor info PROJECT [--json]`: a project's comps, footage and render queue, as an
operator planning farm tasks reads them; the project is never written."""

import json
import os

from tests.helpers.cli_projects import error_lines, plate_project, rendervisor, small_project


def test_info_json_lists_comps_footage_and_the_queue(tmp_path):
    project, plates = plate_project(tmp_path, frames=12)
    os.unlink(plates[0])  # the sequence's first frame: the footage counts as missing
    before = open(project).read()
    result = rendervisor("info", project, "--json")
    assert result.returncode == 0, result.stderr
    listing = json.loads(result.stdout)
    assert listing["project"] == project
    [comp] = listing["comps"]
    assert {key: comp[key] for key in ("name", "width", "height", "frameRate", "duration",
                                       "frameCount")} == {
        "name": "Main", "width": 16, "height": 16, "frameRate": 30, "duration": 0.4,
        "frameCount": 12}
    [footage] = listing["footage"]
    assert footage["kind"] == "sequence" and footage["missing"] is True
    [item] = listing["renderQueue"]
    assert (item["comp"], item["format"], item["frames"], item["frameCount"]) == (
        "Main", "png", None, 12)
    assert open(project).read() == before


def test_info_lists_for_people_and_counts_the_frames_an_item_renders(tmp_path):
    project = small_project(tmp_path / "s.rvproj", frames=12, queue=[
        {"output": "f_[####].png", "frames": "0-10x5", "startNumber": 1001}])
    listed = rendervisor("info", project)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert any("Main" in line and "64x36" in line and "30 fps" in line and "12 frames" in line
               for line in lines), lines
    [item] = [line for line in lines if line.strip().startswith("1. ")]
    assert "Main" in item and "0-10x5 (3 frames)" in item and "startNumber 1001" in item
    [item] = json.loads(rendervisor("info", project, "--json").stdout)["renderQueue"]
    assert (item["frameCount"], item["startNumber"]) == (3, 1001)
    (tmp_path / "footage").mkdir()
    project, plates = plate_project(tmp_path / "footage", frames=3)
    os.unlink(plates[0])
    assert "MISSING" in rendervisor("info", project).stdout


def test_info_of_a_file_that_is_not_a_project_is_one_line(tmp_path):
    (tmp_path / "x.rvproj").write_text("{not json")
    result = rendervisor("info", tmp_path / "x.rvproj")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    [line] = error_lines(result.stderr)
    assert line.startswith("rendervisor info: ")
