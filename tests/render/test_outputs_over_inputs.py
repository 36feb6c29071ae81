"""A render never writes over what its project reads: an output that is one of the project's
footage files (a still, a video, a frame of an image sequence, or a name the sequence's pattern
matches), by its path, through a symbolic link or as a hard link, or that is the project file
itself, is refused with one sentence before anything is written, and the queue is left as it was.
Through a real `rendervisor mcp` (unconfined here; the confined cases are in
tests/confinement/test_confinement_corpus.py) and through `rendervisor render`; each checked on the
file system.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

import pytest

from tests.helpers.cli_projects import error_lines, rendervisor
from tests.helpers.confinement_world import png_bytes, reply_text, write_clip
from tests.helpers.mcp_process import McpProcess
from tests.helpers.render_sessions import files_in

# Main shows all three footage items; Long is long enough for frame numbers past 999, which is
# where `plate_[###].png` and the footage's `plate_[####].png` start naming the same files.
MAIN = {"name": "Main", "width": 32, "height": 32, "frameRate": 10, "duration": 0.5}
LONG = {"name": "Long", "width": 32, "height": 32, "frameRate": 10, "duration": 101}


@dataclass
class Inputs:
    folder: str
    clip: str
    still: str
    plate: str  # the sequence's pattern
    project: str

    def path(self, *parts: str) -> str:
        return os.path.join(self.folder, *parts)

    def frames(self) -> list[str]:
        return [self.path("inputs", f"plate_{number}.png") for number in (1000, 1001, 1002)]

    def files(self) -> list[str]:
        return [self.clip, self.still, *self.frames(), self.project]


def make_inputs(folder: str) -> Inputs:
    inputs = os.path.join(folder, "inputs")
    os.makedirs(inputs)
    clip = os.path.join(inputs, "clip.mp4")
    write_clip(clip, frames=5, format="mp4", codec="mpeg4")
    still = os.path.join(inputs, "still.png")
    with open(still, "wb") as handle:
        handle.write(png_bytes(color=0xFF3366CC))
    for number in (1000, 1001, 1002):
        with open(os.path.join(inputs, f"plate_{number}.png"), "wb") as handle:
            handle.write(png_bytes(color=0xFF00AA00 + number))
    return Inputs(folder, clip, still, os.path.join(inputs, "plate_[####].png"),
                  os.path.join(folder, "show.rvproj"))


def project_steps(inputs: Inputs) -> list[dict]:
    """The project: Main showing the clip, the still and the sequence; Long, saved."""
    return [
        {"id": "comp.new", "params": MAIN},
        {"id": "layer.add", "params": {"comp": "Main", "type": "video", "path": inputs.clip}},
        {"id": "layer.add", "params": {"comp": "Main", "type": "image", "path": inputs.still}},
        {"id": "footage.import", "params": {"path": inputs.plate}},
        {"id": "layer.add", "params": {"comp": "Main", "type": "video", "footage": "$3.footage"}},
        {"id": "comp.new", "params": LONG},
        {"id": "layer.add", "params": {"comp": "Long", "type": "solid", "color": "#ff8800"}},
        {"id": "project.save", "params": {"path": inputs.project}},
    ]


def state(paths: list[str]) -> dict:
    """Each file's content hash and inode: equal states mean the files were left alone."""
    found = {}
    for path in paths:
        with open(path, "rb") as handle:
            found[path] = (hashlib.sha256(handle.read()).hexdigest(), os.stat(path).st_ino)
    return found


@pytest.fixture
def inputs(tmp_path):
    return make_inputs(str(tmp_path))


@pytest.fixture
def session(inputs):
    server = McpProcess(cwd=inputs.folder)
    server.initialize()
    result = server.run("command_batch", {"steps": project_steps(inputs)}, timeout=60)
    assert not result["isError"], reply_text(result)
    yield server
    server.stop()


def command(server, command_id: str, **params) -> dict:
    return server.run("command_run", {"id": command_id, "params": params}, timeout=120)


def queue(server) -> list[dict]:
    return command(server, "renderQueue.list")["structuredContent"]["items"]


def assert_refused(result: dict, *fragments: str) -> None:
    text = reply_text(result)
    assert result.get("isError"), f"not refused: {text[:400]}"
    assert "\n" not in text.strip(), text
    for fragment in fragments:
        assert fragment in text, f"{fragment!r} not in {text!r}"


def refused(server, inputs: Inputs, command_id: str, params: dict, *fragments: str,
            also: tuple[str, ...] = ()) -> None:
    """The command is refused with one sentence holding `fragments`, after which no file of
    the inputs (nor those in `also`) has changed, no file was created, and the queue is as it
    was. The files are checked first: what matters most is that the inputs survive."""
    watched = inputs.files() + list(also)
    before, items, listing = state(watched), queue(server), files_in(inputs.folder)
    result = command(server, command_id, **params)
    assert state(watched) == before, f"{command_id} changed its own inputs"
    assert files_in(inputs.folder) == listing
    assert queue(server) == items
    assert_refused(result, *fragments)


def refused_render(server, inputs: Inputs, *fragments: str) -> None:
    refused(server, inputs, "renderQueue.render", {}, *fragments, "nothing was rendered")


# -- through MCP -------------------------------------------------------------------------------

def test_a_video_item_onto_its_own_video_footage_is_refused(session, inputs):
    command(session, "renderQueue.add", comp="Main", output=inputs.clip)
    refused_render(session, inputs, inputs.clip, "footage 'clip.mp4'", "another output")


def test_a_still_onto_its_image_footage_is_refused(session, inputs):
    refused(session, inputs, "comp.saveFrameAs", {"comp": "Main", "path": inputs.still},
            inputs.still, "footage 'still.png'", "another path")


def test_a_still_onto_the_project_file_is_refused_and_the_project_still_opens(session,
                                                                              inputs):
    refused(session, inputs, "comp.saveFrameAs", {"comp": "Main", "path": inputs.project},
            inputs.project, "the project file")
    assert not command(session, "project.open", path=inputs.project)["isError"]


def test_a_pre_render_onto_its_footage_is_refused(session, inputs):
    refused(session, inputs, "render.preRender", {"comp": "Main", "output": inputs.clip},
            inputs.clip, "footage 'clip.mp4'", "another output")


def test_a_sequence_over_the_footage_frames_is_refused(session, inputs):
    command(session, "renderQueue.add", comp="Long", output=inputs.plate, frames="1000-1001")
    refused_render(session, inputs, inputs.path("inputs", "plate_1000.png"), "(and 1 more)",
                   "footage 'plate_[####].png'")


def test_a_sequence_onto_the_footage_pattern_is_refused_even_on_frames_not_there_yet(session,
                                                                                      inputs):
    """Frames 0-1 are not files of the sequence yet, but its pattern names them: written, they
    would become part of the footage."""
    command(session, "renderQueue.add", comp="Long", output=inputs.plate, frames="0-1")
    refused_render(session, inputs, inputs.path("inputs", "plate_0000.png"),
                   "footage 'plate_[####].png'")


def test_a_sequence_meeting_the_footage_on_some_frames_only_is_refused_when_it_writes_one(
        session, inputs):
    """`plate_[###].png` names plate_998.png for frame 998 (not the footage's: it has four
    digits or more) but plate_1000.png for frame 1000, which is."""
    pattern = inputs.path("inputs", "plate_[###].png")
    item = command(session, "renderQueue.add", comp="Long", output=pattern,
                   frames="998-1000")["structuredContent"]["item"]
    refused_render(session, inputs, inputs.path("inputs", "plate_1000.png"))
    command(session, "renderQueue.set", item=item, frames="990-995")
    before = state(inputs.files())
    result = command(session, "renderQueue.render")
    assert not result["isError"], reply_text(result)
    assert state(inputs.files()) == before
    assert os.path.exists(inputs.path("inputs", "plate_995.png"))


def test_an_output_through_a_folder_link_onto_footage_is_refused(session, inputs):
    os.symlink(inputs.path("inputs"), inputs.path("alias"))
    command(session, "renderQueue.add", comp="Main", output=inputs.path("alias", "clip.mp4"))
    refused_render(session, inputs, inputs.path("alias", "clip.mp4"), f"resolves to {inputs.clip}",
                   "footage 'clip.mp4'")


def test_a_still_onto_a_link_to_footage_is_refused(session, inputs):
    os.symlink(inputs.still, inputs.path("still_link.png"))
    refused(session, inputs, "comp.saveFrameAs",
            {"comp": "Main", "path": inputs.path("still_link.png")},
            inputs.path("still_link.png"), f"resolves to {inputs.still}", "footage 'still.png'")
    assert os.path.islink(inputs.path("still_link.png"))


def test_an_output_that_is_a_hard_link_of_footage_is_refused(session, inputs):
    os.link(inputs.still, inputs.path("hard.png"))
    refused(session, inputs, "comp.saveFrameAs", {"comp": "Main", "path": inputs.path("hard.png")},
            inputs.path("hard.png"), "hard link", "footage 'still.png'",
            also=(inputs.path("hard.png"),))


def test_a_confined_still_onto_the_project_file_is_refused(inputs):
    """The project file is inside the write root, so only this rule stands in the way."""
    server = McpProcess("--write-root", inputs.folder, cwd=inputs.folder)
    server.initialize()
    try:
        result = server.run("command_batch", {"steps": project_steps(inputs)}, timeout=60)
        assert not result["isError"], reply_text(result)
        refused(server, inputs, "comp.saveFrameAs", {"comp": "Main", "path": inputs.project},
                inputs.project, "the project file")
    finally:
        server.stop()


def test_an_output_beside_the_footage_still_renders(session, inputs):
    """The rule refuses only real overlaps: beside the footage, the render goes ahead."""
    command(session, "renderQueue.add", comp="Main", output=inputs.path("inputs", "out.mp4"))
    before = state(inputs.files())
    result = command(session, "renderQueue.render")
    assert not result["isError"], reply_text(result)
    assert state(inputs.files()) == before
    assert os.path.getsize(inputs.path("inputs", "out.mp4")) > 0


def test_making_a_proxy_again_replaces_its_own_proxy(session, inputs):
    """A proxy is footage too, but it is what file.createProxy replaces, and no render reads
    it: made again, it is written over, and still the comp's one proxy."""
    first = command(session, "file.createProxy", comp="Main")
    again = command(session, "file.createProxy", comp="Main")
    assert not again["isError"], reply_text(again)
    assert again["structuredContent"]["footage"] == first["structuredContent"]["footage"]
    assert again["structuredContent"]["output"] == inputs.path("Main_proxy_[#####].png")


# -- through the command line ------------------------------------------------------------------

@pytest.fixture
def saved(inputs):
    """The same project, saved by a session that then ends."""
    server = McpProcess(cwd=inputs.folder)
    server.initialize()
    try:
        result = server.run("command_batch", {"steps": project_steps(inputs)}, timeout=60)
        assert not result["isError"], reply_text(result)
    finally:
        server.stop()
    return inputs


def assert_cli_refused(result, *fragments: str) -> None:
    """Exit 2 with one line holding `fragments` (the callers check the files first)."""
    lines = error_lines(result.stderr)
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert len(lines) == 1 and "Traceback" not in result.stderr, lines
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"


def test_cli_render_output_onto_its_video_footage_exits_2(saved):
    before, listing = state(saved.files()), files_in(saved.folder)
    result = rendervisor("render", saved.project, "--comp", "Main", "--output", saved.clip)
    assert state(saved.files()) == before and files_in(saved.folder) == listing
    assert_cli_refused(result, saved.clip, "footage 'clip.mp4'")


def test_cli_render_of_a_saved_queue_item_over_the_footage_frames_exits_2(saved):
    server = McpProcess(cwd=saved.folder)
    server.initialize()
    try:
        command(server, "project.open", path=saved.project)
        command(server, "renderQueue.add", comp="Long", output=saved.plate, frames="1000-1002")
        command(server, "project.save")
    finally:
        server.stop()
    before, listing = state(saved.files()), files_in(saved.folder)
    result = rendervisor("render", saved.project)
    assert state(saved.files()) == before and files_in(saved.folder) == listing
    assert_cli_refused(result, saved.path("inputs", "plate_1000.png"),
                       "footage 'plate_[####].png'")


def test_cli_render_output_through_a_link_onto_footage_exits_2(saved):
    os.symlink(saved.path("inputs"), saved.path("alias"))
    output = saved.path("alias", "plate_[####].png")
    before = state(saved.files())
    result = rendervisor("render", saved.project, "--comp", "Long", "--format", "png",
                         "--frames", "1001", "--output", output)
    assert state(saved.files()) == before
    assert_cli_refused(result, saved.path("alias", "plate_1001.png"),
                       "footage 'plate_[####].png'")


def test_cli_render_output_onto_a_hard_link_of_footage_exits_2(saved):
    os.link(saved.clip, saved.path("hard.mp4"))
    before = state(saved.files() + [saved.path("hard.mp4")])
    result = rendervisor("render", saved.project, "--comp", "Main", "--output",
                         saved.path("hard.mp4"))
    assert state(saved.files() + [saved.path("hard.mp4")]) == before
    assert_cli_refused(result, saved.path("hard.mp4"), "hard link", "footage 'clip.mp4'")


def test_cli_preview_onto_its_image_footage_exits_2(saved):
    before, listing = state(saved.files()), files_in(saved.folder)
    result = rendervisor("preview", saved.project, "--output", saved.still)
    assert state(saved.files()) == before and files_in(saved.folder) == listing
    assert_cli_refused(result, saved.still, "footage 'still.png'", "another --output")
