"""What `rendervisor render` reports: per item the frames written, skipped and failed (a frame
spec to render again) and the seconds taken; a run that found everything rendered says so; a
--comp render is named by its comp; errors speak of the command line and the project."""

import json
import os

import skia

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import error_lines, plate_project, rendervisor, small_project


def done_event(result) -> dict:
    event = json.loads(result.stdout.splitlines()[-1])
    assert event["event"] == "done", event
    return event


def test_done_items_carry_frames_written_skipped_and_failed_and_seconds(tmp_path):
    project, plates = plate_project(tmp_path)
    plates[20].write_bytes(b"not a png")
    failed = done_event(rendervisor("render", project, "--json", "--chunk-size", "10"))
    [item] = failed["items"]
    assert item["status"] == "failed"
    assert (item["framesWritten"], item["framesSkipped"], item["failedFrames"]) == (20, 0,
                                                                                    "20-29")
    assert item["seconds"] > 0 and failed["seconds"] >= item["seconds"]
    (tmp_path / "out" / "f_03.png").unlink()
    skia.Surface(16, 16).makeImageSnapshot().save(str(plates[20]), skia.kPNG)
    again = done_event(rendervisor("render", project, "--json", "--skip-existing",
                                   "--frames", "0-24"))
    [item] = again["items"]
    assert item["status"] == "done"
    assert (item["framesWritten"], item["framesSkipped"], item["failedFrames"]) == (6, 19, None)


def test_a_run_that_finds_every_frame_rendered_says_so(tmp_path):
    project = small_project(tmp_path / "s.rvproj",
                            queue=[{"output": "f_[##].png", "format": "png"}])
    assert rendervisor("render", project, "--quiet").returncode == 0
    result = rendervisor("render", project, "--skip-existing")
    assert result.returncode == 0, result.stderr
    assert "all 6 frames exist; nothing was written" in result.stdout
    [item] = done_event(rendervisor("render", project, "--skip-existing", "--json"))["items"]
    assert (item["framesWritten"], item["framesSkipped"]) == (0, 6)


def test_a_comp_render_is_reported_by_the_comp_name(tmp_path):
    project = small_project(tmp_path / "s.rvproj")
    result = rendervisor("render", project, "--comp", "Main", "--output", tmp_path / "m.mp4",
                         "--json")
    assert result.returncode == 0, result.stderr
    [item] = done_event(result)["items"]
    assert item["item"] == "Main" and item["framesWritten"] == 6
    messages = [json.loads(line).get("message") or "" for line in result.stdout.splitlines()]
    assert not any("item" in message for message in messages), messages


def test_missing_footage_names_the_file_and_the_project_in_command_line_words(tmp_path):
    picture = tmp_path / "logo.png"
    skia.Surface(8, 8).makeImageSnapshot().save(str(picture), skia.kPNG)
    engine = Engine()
    engine.run("comp.new", {"name": "Logo", "width": 16, "height": 16, "duration": 0.1})
    engine.run("layer.add", {"comp": "Logo", "type": "image", "path": str(picture)})
    engine.run("project.save", {"path": str(tmp_path / "logo.rvproj")})
    os.unlink(picture)
    result = rendervisor("render", tmp_path / "logo.rvproj", "--output", tmp_path / "l.mp4")
    assert result.returncode == 2, result.stderr  # found before anything renders
    [line] = error_lines(result.stderr)
    assert str(picture) in line and str(tmp_path / "logo.rvproj") in line
    assert "footage.replace" not in result.stdout + result.stderr
    assert not (tmp_path / "l.mp4").exists()


def progress_events(result) -> list[dict]:
    return [event for event in map(json.loads, result.stdout.splitlines())
            if event["event"] == "progress"]


def test_the_last_progress_event_is_at_the_total(tmp_path):
    project, plates = plate_project(tmp_path)
    plates[20].write_bytes(b"not a png")
    failed = rendervisor("render", project, "--json", "--chunk-size", "10")
    last = progress_events(failed)[-1]
    assert last["done"] == last["total"] == 30 and last["fraction"] == 1.0, last
    skia.Surface(16, 16).makeImageSnapshot().save(str(plates[20]), skia.kPNG)
    assert rendervisor("render", project, "--quiet", "--skip-existing").returncode == 0
    nothing_left = progress_events(rendervisor("render", project, "--json", "--skip-existing"))
    assert nothing_left and nothing_left[-1]["done"] == nothing_left[-1]["total"] == 0
