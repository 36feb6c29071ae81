"""An image sequence item whose output has no frame number field, as a project file written by
hand or by another tool can hold: opened, it is given one and says so; rendered without one
(one file for several frames, each overwriting the last), it is refused (docs/outputs.md,
"Image sequences"). Real processes, real files."""

import json
import os

from tests.helpers.cli_projects import error_lines, rendervisor, small_project
from tests.helpers.mcp_process import McpProcess


def hand_edited(tmp_path, output: str, frames=None) -> str:
    """small_project's 6-frame comp, its png item's output rewritten in the file itself."""
    project = small_project(tmp_path / "p.rvproj", queue=[{"output": "x_[#].png"}])
    with open(project) as handle:
        document = json.load(handle)
    document["renderQueue"][0].update(output=output, frames=frames)
    with open(project, "w") as handle:
        json.dump(document, handle)
    return project


def test_a_rendered_project_gives_the_item_a_frame_field_and_warns(tmp_path):
    project = hand_edited(tmp_path, str(tmp_path / "d2out.png"))
    result = rendervisor("render", project, "--json")
    assert result.returncode == 0, result.stderr
    assert sorted(name for name in os.listdir(tmp_path) if name.endswith(".png")) == [
        f"d2out_{n:05d}.png" for n in range(6)]
    done = json.loads(result.stdout.splitlines()[-1])
    assert done["items"][0]["framesWritten"] == 6
    warnings = [line for line in error_lines(result.stderr) if "d2out" in line]
    assert len(warnings) == 1 and "frame number field" in warnings[0], result.stderr


def test_a_one_frame_item_keeps_its_name(tmp_path):
    project = hand_edited(tmp_path, str(tmp_path / "poster.png"), frames="3")
    result = rendervisor("render", project, "--quiet")
    assert result.returncode == 0, result.stderr
    assert "poster" not in result.stderr
    assert sorted(name for name in os.listdir(tmp_path) if name.endswith(".png")) == [
        "poster.png"]


def test_mcp_open_warns_and_a_render_refuses_an_item_grown_past_one_frame(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    sequence = hand_edited(tmp_path / "a", str(tmp_path / "a" / "d2out.png"))
    still = str(tmp_path / "b" / "still.png")
    poster = hand_edited(tmp_path / "b", still, frames="2")
    server = McpProcess("--workers", "1")
    try:
        server.initialize()
        opened = server.run("command_run", {"id": "project.open", "params": {"path": sequence}})
        info = opened["structuredContent"]
        assert any("d2out.png" in warning and "[#####]" in warning
                   for warning in info["warnings"]), info
        listed = server.run("command_run", {"id": "renderQueue.list"})["structuredContent"]
        assert listed["items"][0]["output"] == str(tmp_path / "a" / "d2out_[#####].png")

        # A one-frame still named without a field opens as it is; given more frames, the
        # render refuses it rather than write four frames over one another.
        opened = server.run("command_run", {"id": "project.open", "params": {"path": poster}})
        assert "warnings" not in opened["structuredContent"], opened
        item = server.run("command_run", {"id": "renderQueue.list"})[
            "structuredContent"]["items"][0]
        assert item["output"] == still
        changed = server.run("command_run", {"id": "renderQueue.set", "params": {
            "item": item["id"], "frames": "0-3"}})
        assert not changed["isError"], changed
        rendered = server.run("command_run", {"id": "renderQueue.render"}, timeout=120)
        report = rendered["structuredContent"]
        assert rendered["isError"] and report["failed"] == 1, report
        error = report["items"][0]["error"]
        assert "still.png" in error and "frame number field" in error, error
        assert not os.path.exists(still)
    finally:
        server.stop()
