"""Confined sessions as a whole: roots validated at start; a project from before confinement
(opened with --project) whose queue writes, or whose footage reads, outside the roots; a comp
name that would carry an output out of its folder; a session with no write root; and an
unconfined session, which keeps its defaults. Real `rendervisor mcp` processes, real renders,
and the outside folders' footprint checked after each.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from supervisor.engine.engine import Engine
from supervisor.errors import CommandError
from tests.helpers.confinement_world import (SECRET, Footprint, build_world, reply_text, write_clip,
                                     write_crafted_project)
from tests.helpers.mcp_process import McpProcess

WRITE_RULE = "outside the write roots"
READ_RULE = "outside the read roots"
SMALL = {"width": 32, "height": 32, "frameRate": 10, "duration": 0.2}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return build_world(str(tmp_path_factory.mktemp("sessions")))


def confined(world, *extra: str) -> McpProcess:
    process = McpProcess("--read-root", world.read, "--write-root", world.write, *extra,
                         cwd=world.base)
    process.initialize()
    return process


def command(process, command_id, **params) -> dict:
    return process.run("command_run", {"id": command_id, "params": params}, timeout=120)


def one_call_on(world, project: str, tool: str, arguments: dict) -> dict:
    """Open `project` in a confined session, make one call, end the session."""
    process = confined(world, "--project", project)
    try:
        return process.run(tool, arguments, timeout=120)
    finally:
        process.stop()


def start_fails(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "supervisor.cli", "mcp", *args],
                          input=b"", capture_output=True, timeout=60)


# -- start ------------------------------------------------------------------------------------

@pytest.mark.parametrize("flag", ["--read-root", "--write-root"])
def test_a_missing_root_exits_2_with_one_line_naming_the_flag_and_the_folder(flag, world):
    missing = os.path.join(world.base, "no-such-folder")
    done = start_fails("--read-root", world.read, flag, missing)
    assert done.returncode == 2
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and flag in lines[0] and missing in lines[0], lines
    assert done.stdout == b""


def test_a_root_that_is_a_file_exits_2(world):
    done = start_fails("--write-root", os.path.join(world.read, "note.txt"))
    assert done.returncode == 2 and "not an existing folder" in done.stderr.decode()


def test_a_project_outside_the_roots_exits_2_naming_the_rule(world):
    project = os.path.join(world.outside, "start.rvproj")
    Engine().run("project.save", {"path": project})
    done = start_fails("--read-root", world.read, "--write-root", world.write,
                       "--project", project)
    lines = done.stderr.decode().strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, lines
    assert READ_RULE in lines[0] and project in lines[0]


# -- projects from before confinement ------------------------------------------------------------

def test_a_queue_item_stored_before_confinement_is_refused_and_nothing_is_written(world):
    """Saved unconfined with an item writing outside; opened confined with --project: that
    item fails naming the rule and its path, the item inside still renders, and nothing
    outside is created."""
    engine = Engine()
    engine.run("comp.new", {"name": "Main", **SMALL})
    engine.run("layer.add", {"comp": "Main", "type": "solid", "color": "#ff8800"})
    engine.run("renderQueue.add", {"comp": "Main",
                                   "output": os.path.join(world.outside, "stolen_[##].png")})
    engine.run("renderQueue.add", {"comp": "Main", "output": os.path.join(world.outside,
                                                                          "stolen.mp4")})
    engine.run("renderQueue.add", {"comp": "Main",
                                   "output": os.path.join(world.write, "kept_[##].png")})
    project = os.path.join(world.write, "stored_outputs.rvproj")
    engine.run("project.save", {"path": project})
    before = Footprint(world.outsides(), listed=(world.base,))
    result = one_call_on(world, project, "command_run",
                         {"id": "renderQueue.render", "params": {}})
    assert Footprint(world.outsides(), listed=(world.base,)).changes(before) == []
    report = result["structuredContent"]
    assert result["isError"] and report["failed"] == 2 and report["completed"] == 1, report
    errors = [item.get("error", "") for item in report["items"] if item["status"] == "failed"]
    assert all(WRITE_RULE in error for error in errors), errors
    assert any("stolen.mp4" in error for error in errors)
    assert sorted(os.listdir(world.write)).count("kept_00.png") == 1


def test_a_comp_name_that_climbs_out_of_its_output_folder_is_refused(world):
    """`[compName]` as a folder, and a comp named `..` or `../../x`: each field fills part of
    one name and may not begin it with a dot. Queued now, such an output is refused at once;
    stored in a project (the comps renamed after their items were queued), the render refuses
    both items, and nothing lands beside the roots."""
    engine = Engine()
    engine.run("comp.new", {"name": "..", **SMALL})
    with pytest.raises(CommandError, match=r"\[compName\] is '\.\.'"):
        engine.run("renderQueue.add", {"comp": "..", "output": os.path.join(
            world.write, "[compName]", "climbed.mp4")})
    engine.run("comp.set", {"comp": "..", "name": "up"})
    engine.run("comp.new", {"name": "upper", **SMALL})
    engine.run("renderQueue.add", {"comp": "up", "output": os.path.join(
        world.write, "[compName]", "climbed.mp4")})
    engine.run("renderQueue.add", {"comp": "upper", "output": os.path.join(
        world.write, "[compName].png"), "frames": "0"})
    engine.run("comp.set", {"comp": "up", "name": ".."})
    engine.run("comp.set", {"comp": "upper", "name": "../../x"})
    project = os.path.join(world.write, "climb.rvproj")
    engine.run("project.save", {"path": project})
    before = Footprint(world.outsides(), listed=(world.base,))
    result = one_call_on(world, project, "command_run",
                         {"id": "renderQueue.render", "params": {}})
    assert Footprint(world.outsides(), listed=(world.base,)).changes(before) == []
    assert not os.path.exists(os.path.join(world.base, "climbed.mp4"))
    report = result["structuredContent"]
    errors = [item.get("error", "") for item in report["items"] if item["status"] == "failed"]
    assert len(errors) == 2 and "'..'" in errors[0] and "'.._.._x'" in errors[1], report
    assert not any(name.startswith(".._") for name in os.listdir(world.write))


@pytest.fixture(scope="module")
def footage_project(world):
    """A project saved before confinement whose comp shows footage outside the roots, with a
    queue item writing inside the write root."""
    engine = Engine()
    engine.run("comp.new", {"name": "Main", **SMALL})
    engine.run("layer.add", {"comp": "Main", "type": "image",
                             "path": os.path.join(world.outside, "secret.png")})
    engine.run("renderQueue.add", {"comp": "Main",
                                   "output": os.path.join(world.write, "leak_[##].png")})
    project = os.path.join(world.write, "stored_footage.rvproj")
    engine.run("project.save", {"path": project})
    return project


@pytest.mark.parametrize("call", [
    ("render_preview", {}),
    ("command_run", {"id": "renderQueue.render", "params": {}}),
    ("command_run", {"id": "comp.saveFrameAs", "params": {"comp": "Main"}}),
    ("command_run", {"id": "render.preRender", "params": {"comp": "Main"}}),
    ("command_run", {"id": "file.createProxy", "params": {"comp": "Main"}}),
], ids=["preview", "render", "still", "prerender", "proxy"])
def test_footage_stored_outside_the_roots_is_never_drawn(call, world, footage_project):
    before = Footprint(world.outsides(), listed=(world.base,))
    listing = sorted(os.listdir(world.write))
    process = confined(world, "--project", footage_project)
    try:
        result = process.run(*call, timeout=120)
        info = command(process, "project.info")
    finally:
        process.stop()
    text = reply_text(result)
    assert result["isError"] and READ_RULE in text and "secret.png" in text, text
    assert "footage.replace" in text
    assert not info.get("isError")  # the project opened; only drawing it is refused
    assert Footprint(world.outsides(), listed=(world.base,)).changes(before) == []
    assert sorted(os.listdir(world.write)) == listing  # nothing rendered, inside either


def test_a_project_opened_confined_cannot_be_saved_back_outside(world):
    engine = Engine()
    engine.run("project.save", {"path": os.path.join(world.read, "readonly.rvproj")})
    result = one_call_on(world, os.path.join(world.read, "readonly.rvproj"), "command_run",
                         {"id": "project.save", "params": {}})
    assert result["isError"] and WRITE_RULE in reply_text(result)


# -- other sessions ---------------------------------------------------------------------------

def test_a_session_with_only_a_read_root_writes_nothing(world):
    process = McpProcess("--read-root", world.read, cwd=world.base)
    process.initialize()
    try:
        read = process.run("read_file", {"path": os.path.join(world.read, "note.txt")})
        write = process.run("write_file", {"path": os.path.join(world.read, "new.txt"),
                                           "content": "x"})
    finally:
        process.stop()
    assert not read.get("isError")
    assert write["isError"] and "no --write-root" in reply_text(write)
    assert not os.path.exists(os.path.join(world.read, "new.txt"))


def test_an_unconfined_session_keeps_its_defaults(world, tmp_path):
    process = McpProcess(cwd=str(tmp_path))
    process.initialize()
    try:
        command(process, "comp.new", name="Main")
        added = command(process, "renderQueue.add", comp="Main")
        outside = process.run("read_file", {"path": os.path.join(world.outside, "canary.txt")})
    finally:
        process.stop()
    assert added["structuredContent"]["output"] == os.path.join(str(tmp_path), "Main.mp4")
    assert SECRET in reply_text(outside)


def test_stored_footage_that_names_other_files_is_never_drawn(world):
    """An ffconcat list (named like a video) in a crafted project (no session imports one):
    FFmpeg would open the file it lists through a link out of the root, so drawing it is
    refused."""
    project = os.path.join(world.write, "stored_playlist.rvproj")
    write_crafted_project(world, project, os.path.join(world.read, "list.mov"))
    result = one_call_on(world, project, "render_preview", {})
    assert result["isError"] and "playlist" in reply_text(result) and "list.mov" in reply_text(
        result)


def test_a_project_whose_footage_climbs_out_by_a_relative_path_is_never_drawn(world):
    """Saved projects store paths relative to their folder; a crafted one can say
    `../outside/secret.png`. It opens (resolved against its folder), and drawing is refused."""
    engine = Engine()
    engine.run("comp.new", {"name": "Main", **SMALL})
    engine.run("layer.add", {"comp": "Main", "type": "image",
                             "path": os.path.join(world.read, "seq", "frame_0001.png")})
    project = os.path.join(world.read, "crafted_relative.rvproj")
    engine.run("project.save", {"path": project})
    with open(project) as handle:
        text = handle.read()
    assert "seq/frame_0001.png" in text
    with open(project, "w") as handle:
        handle.write(text.replace("seq/frame_0001.png", "../outside/secret.png"))
    result = one_call_on(world, project, "render_preview", {})
    text = reply_text(result)
    assert result["isError"] and READ_RULE in text and "secret.png" in text, text


def test_footage_inside_the_roots_previews_and_renders_while_confined(world):
    """The rules refuse what leaves the roots, not the work: stills, sequences (as a pattern
    and as a folder) and a video inside the roots import, preview and render."""
    clean = os.path.join(world.read, "clean")
    os.makedirs(clean, exist_ok=True)
    for number in (1, 2):
        shutil.copy(os.path.join(world.read, "seq", f"frame_{number:04d}.png"),
                    os.path.join(clean, f"shot_{number:04d}.png"))
    write_clip(os.path.join(world.read, "clip_inside.mp4"), format="mp4", codec="libx264")
    process = confined(world)
    try:
        steps = [{"id": "comp.new", "params": {"name": "Ok", **SMALL}},
                 {"id": "layer.add", "params": {"comp": "Ok", "type": "image",
                                                "path": os.path.join(clean, "shot_0001.png")}},
                 {"id": "footage.import", "params": {
                     "path": os.path.join(clean, "shot_[####].png")}},
                 {"id": "footage.import", "params": {"path": clean}},
                 {"id": "layer.add", "params": {"comp": "Ok", "type": "video", "path": os.path.join(
                     world.read, "clip_inside.mp4")}},
                 {"id": "renderQueue.add", "params": {"comp": "Ok", "output": os.path.join(
                     world.write, "ok_[##].png"), "frames": "0"}}]
        batch = process.run("command_batch", {"steps": steps})
        preview = process.run("render_preview", {"max_side": 16})
        render = command(process, "renderQueue.render")
    finally:
        process.stop()
    assert not batch.get("isError"), reply_text(batch)
    assert not preview.get("isError"), reply_text(preview)
    assert not render.get("isError") and render["structuredContent"]["completed"] == 1, reply_text(render)
    assert os.path.isfile(os.path.join(world.write, "ok_00.png"))


def test_stored_footage_that_is_a_fifo_is_refused_without_waiting_for_a_writer(world):
    """A crafted project whose footage is a FIFO that another process holds open: the check
    of what the footage names must not wait for bytes that never come (a quick-lane thread
    stuck in read() on every preview), so the preview is refused at once, naming the file."""
    fifo = os.path.join(world.read, "footage_fifo.mp4")
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # a writer that never writes
    try:
        project = os.path.join(world.write, "stored_fifo.rvproj")
        write_crafted_project(world, project, fifo)
        process = confined(world, "--project", project)
        try:
            preview = process.call("render_preview", {})
            ping = process.wait_for(process.request("ping"), timeout=10)
            result = process.wait_for(preview, timeout=20)["result"]
        finally:
            process.stop()
    finally:
        os.close(writer)
    text = reply_text(result)
    assert result["isError"] and "footage_fifo.mp4" in text and "FIFO" in text, text
    assert "result" in ping
