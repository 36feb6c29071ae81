"""Encoder options that make an encoder open files (tests/helpers/encoder_option_attacks.py)
refused at the doors the attack corpus does not knock on: the command line's --codec-option, a
project file that stores them (given to `rendervisor render`, dropped in a watch folder, opened in a
confined session), with the files they aim at left as they were; and the options a render
needs still reaching the encoder. Real processes and encoders; after each, the footprint of
the folders outside (content, size, mtime, inode, listing) is compared with the one before.
"""

from __future__ import annotations

import json
import os

import av
import pytest

from tests.helpers.cli_projects import error_lines, rendervisor, small_project
from tests.helpers.confinement_world import Footprint, build_world, reply_text
from tests.helpers.encoder_option_attacks import ATTACKS, aimed, attack_ids, project_storing
from tests.helpers.mcp_process import McpProcess

DUMP_YUV = {"x264-params": "dump-yuv={outside}/canary.txt"}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return build_world(str(tmp_path_factory.mktemp("encoder-options")))


def footprint(world) -> Footprint:
    # The base folder is listed too: x264 writes some files into its working folder.
    return Footprint(world.outsides(), listed=(world.base,))


def one_error_line(result) -> str:
    lines = error_lines(result.stderr)
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def frame_count(path: str) -> int:
    with av.open(path) as container:
        return sum(1 for _ in container.decode(video=0))


@pytest.mark.parametrize("attack", ATTACKS, ids=attack_ids())
def test_the_command_line_refuses_an_option_that_opens_files_in_one_line(attack, world,
                                                                         tmp_path):
    _name, fmt, options, refused = attack
    project = small_project(tmp_path / "show.rvproj")
    flags = [part for key, value in aimed(options, world.outside).items()
             for part in ("--codec-option", f"{key}={value}")]
    before = footprint(world)
    result = rendervisor("render", project, "--comp", "Main", "--format", fmt,
                         "--output", tmp_path / "out.mp4", *flags, cwd=world.base)
    assert before.changes(footprint(world)) == [], "the encoder wrote outside"
    line = one_error_line(result)
    assert refused in line and "codecOptions" in line, line
    assert not (tmp_path / "out.mp4").exists()


def test_the_command_line_fails_the_item_of_a_project_that_stores_such_an_option(world,
                                                                                   tmp_path):
    project = project_storing(str(tmp_path / "stored.rvproj"), "h264",
                              aimed(DUMP_YUV, world.outside), "stored.mp4")
    before = footprint(world)
    result = rendervisor("render", project, "--json", cwd=world.base)
    assert before.changes(footprint(world)) == [], "the encoder wrote outside"
    assert result.returncode == 1, result.stderr
    done = json.loads(result.stdout.splitlines()[-1])
    [item] = done["items"]
    assert item["status"] == "failed" and item["item"] == "item3", item
    assert "dump-yuv" in item["error"] and "\n" not in item["error"], item
    assert not (tmp_path / "stored.mp4").exists()


def test_the_command_line_passes_the_options_a_render_needs(world, tmp_path):
    project = small_project(tmp_path / "show.rvproj")
    result = rendervisor("render", project, "--comp", "Main", "--output", tmp_path / "out.mp4",
                         "--codec-option", "preset=veryfast", "--codec-option", "crf=20",
                         "--codec-option", "x264-params=aq-mode=3:ref=2", cwd=world.base)
    assert result.returncode == 0, result.stderr
    assert frame_count(str(tmp_path / "out.mp4")) == 6


def test_watch_fails_the_item_of_a_project_that_stores_such_an_option(world, tmp_path):
    folder = tmp_path / "drop"
    folder.mkdir()
    project = project_storing(str(folder / "shot.rvproj"), "h264",
                              aimed(DUMP_YUV, world.outside), "shot.mp4")
    before = footprint(world)
    result = rendervisor("watch", folder, "--once", "--workers", "1", cwd=world.base)
    assert before.changes(footprint(world)) == [], "the encoder wrote outside"
    with open(project + ".status.json") as handle:
        status = json.load(handle)
    assert result.returncode == 1, result.stderr
    assert status["state"] == "failed", status
    [item] = status["items"]
    assert item["status"] == "failed" and "dump-yuv" in item["error"], item
    assert not (folder / "shot.mp4").exists()


def test_a_confined_session_opens_such_a_project_and_refuses_only_that_item(world):
    """The project opens (with a warning naming the item), the item fails at render with a
    sentence, and an item with the options a render needs renders beside it."""
    project = project_storing(os.path.join(world.read, "stored.rvproj"), "h264",
                              aimed(DUMP_YUV, world.outside),
                              os.path.join(world.write, "stored.mp4"))
    process = McpProcess("--read-root", world.read, "--write-root", world.write,
                         cwd=world.base)
    try:
        process.initialize()

        def command(command_id, **params):
            return process.run("command_run", {"id": command_id, "params": params},
                               timeout=120)

        before = footprint(world)
        opened = command("project.open", path=project)
        added = command("renderQueue.add", comp="Main",
                        output=os.path.join(world.write, "allowed.mp4"),
                        codecOptions={"preset": "veryfast", "crf": 20,
                                      "x264-params": "aq-mode=3:ref=2"})
        rendered = command("renderQueue.render")
        assert before.changes(footprint(world)) == [], "the encoder wrote outside"
    finally:
        process.stop()
    assert not opened.get("isError") and not added.get("isError"), reply_text(opened)
    [warning] = opened["structuredContent"]["warnings"]
    assert "item3" in warning and "dump-yuv" in warning and "\n" not in warning, warning
    assert rendered.get("isError"), reply_text(rendered)
    stored, allowed = rendered["structuredContent"]["items"]
    assert stored["status"] == "failed", stored
    assert "item3" in stored["error"] and "dump-yuv" in stored["error"], stored
    assert allowed["status"] == "done", allowed
    assert not os.path.exists(os.path.join(world.write, "stored.mp4"))
    assert frame_count(os.path.join(world.write, "allowed.mp4")) == 3
