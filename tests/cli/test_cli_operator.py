"""What a farm operator reads and asks of `rendervisor render` and `info`: one queue item by
index or name, timed lines with a rate and the time left, a log file, Open Job Description
lines, a JSON `error` event before exit 2, inputs checked before anything renders, and the
template params and queue indices an operator plans tasks with."""

import json
import os
import re
import shutil

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import error_lines, plate_project, rendervisor, small_project
from tests.helpers.render_sessions import read_png

ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"


def two_item_project(tmp_path):
    return small_project(tmp_path / "two.rvproj", frames=4, queue=[
        {"output": "first_[##].png", "format": "png"},
        {"output": "second_[##].png", "format": "png", "frames": "0-1"}])


def test_item_renders_the_queue_items_it_names_by_index_id_or_comp(tmp_path):
    project = two_item_project(tmp_path)
    listing = json.loads(rendervisor("info", project, "--json").stdout)
    assert [item["index"] for item in listing["renderQueue"]] == [1, 2]
    second_id = listing["renderQueue"][1]["id"]
    result = rendervisor("render", project, "--item", "2", "--json")
    assert result.returncode == 0, result.stderr
    done = json.loads(result.stdout.splitlines()[-1])
    assert [entry["item"] for entry in done["items"]] == [second_id]
    assert sorted(os.listdir(tmp_path)) == ["second_00.png", "second_01.png", "two.rvproj"]
    again = rendervisor("render", project, "--item", second_id, "--item", "1", "--json")
    done = json.loads(again.stdout.splitlines()[-1])
    assert [entry["framesWritten"] for entry in done["items"]] == [4, 2]  # queue order
    by_comp = json.loads(rendervisor("render", project, "--item", "Main", "--json")
                         .stdout.splitlines()[-1])
    assert len(by_comp["items"]) == 2


def test_an_unknown_item_is_one_sentence_and_with_json_an_error_event(tmp_path):
    project = two_item_project(tmp_path)
    result = rendervisor("render", project, "--item", "9", "--json")
    assert result.returncode == 2
    [line] = error_lines(result.stderr)
    assert line.startswith("rendervisor render: --item 9: no queue item has that index, id or "
                           "comp; the queue has 1. ")
    [event] = [json.loads(line) for line in result.stdout.splitlines()]
    assert event == {"event": "error", "message": line}
    assert os.listdir(tmp_path) == ["two.rvproj"]


def test_json_says_an_unreadable_project_as_an_error_event(tmp_path):
    (tmp_path / "bad.rvproj").write_text("{not json")
    result = rendervisor("render", tmp_path / "bad.rvproj", "--json")
    assert result.returncode == 2
    [event] = [json.loads(line) for line in result.stdout.splitlines()]
    assert event["event"] == "error" and event["message"] == error_lines(result.stderr)[0]


def test_plain_lines_carry_the_time_a_rate_and_what_is_left_and_go_to_the_log(tmp_path):
    project = small_project(tmp_path / "p.rvproj", frames=12)
    log = tmp_path / "node.log"
    log.write_text("an earlier run's line\n")
    result = rendervisor("render", project, "--comp", "Main", "--format", "png", "--output",
                         tmp_path / "f_[##].png", "--log", log, "--workers", "1")
    assert result.returncode == 0, result.stderr
    progress = [line for line in error_lines(result.stderr) if "rendering:" in line]
    assert progress and all(re.match(f"^{ISO} rendering: \\d+/12 frames", line)
                            for line in progress), progress
    assert re.search(r"rendering: 12/12 frames \(100%\), [\d.]+ frames/s$", progress[-1])
    logged = log.read_text().splitlines()
    assert logged[0] == "an earlier run's line"  # appended, never truncated
    assert logged[1:len(progress) + 1] == progress
    assert re.match(f"^{ISO} done    Main  {re.escape(str(tmp_path))}/f_\\[##\\].png  12 frames "
                    "written", logged[-1]), logged
    failed = rendervisor("render", tmp_path / "missing.rvproj", "--log", log)
    assert failed.returncode == 2
    assert re.match(f"^{ISO} rendervisor render: ", log.read_text().splitlines()[-1])


def test_eta_is_said_while_frames_are_left():
    from supervisor.cli.display import Throughput, progress_line
    import time
    rate = Throughput()
    rate.update(0, 100)
    time.sleep(0.05)
    fps, eta = rate.update(10, 100)
    assert fps > 0 and eta == 90 / fps
    assert progress_line(10, 100, 5.0, 18.0) == ("rendering: 10/100 frames (10%), 5.0 "
                                                  "frames/s, ETA 0:00:18")
    assert progress_line(100, 100, 5.0, 0.0) == "rendering: 100/100 frames (100%), 5.0 frames/s"


def test_openjd_progress_lines_for_a_farm_runner(tmp_path):
    project = small_project(tmp_path / "p.rvproj", frames=6)
    result = rendervisor("render", project, "--comp", "Main", "--format", "png", "--output",
                         tmp_path / "f_[##].png", "--progress", "openjd")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    progress = [float(line.split(": ", 1)[1]) for line in lines
                if line.startswith("openjd_progress: ")]
    assert progress == sorted(progress) and progress[-1] == 100.0
    assert all(0 <= value <= 100 for value in progress)
    assert any(line.startswith("openjd_status: rendering: ") for line in lines)
    assert lines[-1] == "openjd_status: done: 1 of 1 items rendered"
    missing = rendervisor("render", tmp_path / "gone.rvproj", "--progress", "openjd")
    assert missing.returncode == 2
    assert missing.stdout == f"openjd_fail: {error_lines(missing.stderr)[0]}\n"


def test_missing_footage_and_font_files_are_named_before_anything_renders(tmp_path):
    project, plates = plate_project(tmp_path, frames=6)
    shutil.copy("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", tmp_path / "Brand.ttf")
    engine = Engine(project)
    engine.run("layer.add", {"comp": "Main", "type": "text", "text": "Hi",
                             "fontFile": str(tmp_path / "Brand.ttf")})
    engine.run("project.save", {})
    os.unlink(plates[3])
    os.unlink(tmp_path / "Brand.ttf")
    result = rendervisor("render", project)
    assert result.returncode == 2
    [line] = error_lines(result.stderr)
    assert line.startswith("rendervisor render: 2 files the render needs are missing or "
                           "cannot be read: ")
    assert f"{plates[3]} (footage 'p_[####].png'): it is missing" in line
    assert f"{tmp_path / 'Brand.ttf'} (text layer " in line
    assert line.endswith("or render with --allow-missing to draw missing footage as a "
                         "placeholder. Nothing was rendered.")
    assert not (tmp_path / "out").exists()


def test_allow_missing_draws_colour_bars_where_footage_is_gone_and_says_so(tmp_path):
    project, plates = plate_project(tmp_path, frames=6)
    os.unlink(plates[3])
    result = rendervisor("render", project, "--allow-missing", "--json")
    assert result.returncode == 0, result.stderr
    [item] = json.loads(result.stdout.splitlines()[-1])["items"]
    assert item["status"] == "done" and item["framesWritten"] == 6
    [warning] = item["warnings"]
    assert warning.startswith("rendered with colour bars in place of missing footage: ")
    assert str(plates[3]) in warning
    frames = [read_png(tmp_path / "out" / f"f_{number:02d}.png") for number in range(6)]
    assert tuple(frames[2][8, 8, :3]) == (16, 40, 200)  # the plate, as drawn
    # Frame 3: the first bar (75% white) at the left, the last (75% blue) at the right.
    assert tuple(frames[3][8, 0, :3]) == (191, 191, 191)
    assert tuple(frames[3][8, 15, :3]) == (0, 0, 191)
    # A font is not footage: without it the text cannot be set, so the render is refused.
    shutil.copy("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", tmp_path / "Brand.ttf")
    engine = Engine(project)
    engine.run("layer.add", {"comp": "Main", "type": "text", "text": "Hi",
                             "fontFile": str(tmp_path / "Brand.ttf")})
    engine.run("project.save", {})
    os.unlink(tmp_path / "Brand.ttf")
    refused = rendervisor("render", project, "--allow-missing")
    assert refused.returncode == 2
    [line] = error_lines(refused.stderr)
    assert f"{tmp_path / 'Brand.ttf'} (text layer " in line and str(plates[3]) not in line


def test_info_lists_template_params_with_their_types_defaults_and_what_is_required(tmp_path):
    project = small_project(tmp_path / "t.rvproj", frames=2)
    engine = Engine(project)
    layer = next(layer["id"] for layer in engine.doc["comps"][0]["layers"]
                 if layer["type"] == "solid")
    engine.run("template.addParam", {"name": "tint", "comp": "Main", "layer": layer,
                                     "path": "color", "default": "#ff0000"})
    engine.run("layer.add", {"comp": "Main", "type": "text", "name": "Title", "text": "x"})
    engine.run("template.addParam", {"name": "title", "comp": "Main", "layer": "Title",
                                     "path": "text"})
    engine.run("template.setParam", {"name": "title", "required": True})
    engine.run("project.save", {})
    listing = json.loads(rendervisor("info", project, "--json").stdout)
    assert [(p["name"], p["type"], p["required"]) for p in listing["params"]] == [
        ("tint", "color", False), ("title", "text", True)]
    assert listing["params"][0]["default"] == [1.0, 0.0, 0.0, 1.0]
    plain = rendervisor("info", project).stdout
    assert "params (2):" in plain and "  title  text  required" in plain
