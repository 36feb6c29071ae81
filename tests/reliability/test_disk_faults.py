"""A full disk and a folder the session may not write, during a render and during a save.

Each time: one clear error (a sentence naming what failed and why, no traceback), no partial
file (no frame, segment, video or temporary of the failed item; the saved project still the
old one), the project unchanged, and the session goes on: once there is room, the same save
or render succeeds.

Two ways to run out of space: a 2 MB tmpfs filled almost to the brim (ENOSPC), and, where
mounting is not allowed, RLIMIT_FSIZE on the server and all its workers (EFBIG); the rlimit
variant runs everywhere. Permission errors need a process that does not bypass file modes: as
root, the server runs under `setpriv` without CAP_DAC_OVERRIDE.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import psutil
import pytest

from tests.helpers import mcp_process
from tests.helpers.mcp_process import McpProcess
from tests.helpers.moving_solid import moving_solid_steps

TEXT = "a long line of text to make the project bigger than the room left " * 900  # ~59 KB, within
# the longest string a project may hold (protocol/model/limits.py)
# Room left on the small disk: less than the project or a render needs, more than nothing, so
# the failure comes part way through a write rather than at the first byte.
ROOM = 12 * 1024
# The file-size limit of the rlimit variant: above nothing the session needs before the fault,
# below a saved project with TEXT in it, a 160x90 frame, or a video segment.
FILE_SIZE_LIMIT = 1024
RENDER_WITHIN = 120.0  # a 30-frame render takes a second; the bound absorbs a loaded machine


def comp_steps() -> list[dict]:
    return moving_solid_steps("Disk", 160, 90, 30, 1, blur=8)


# -- ways to fail -----------------------------------------------------------------------------

class Tmpfs:
    """A 2 MB tmpfs: writes fail with ENOSPC once `fill` has taken all but ROOM of it."""
    reason = "No space left on device"

    def __init__(self, folder) -> None:
        self.folder = folder
        folder.mkdir()
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)],
                                 capture_output=True, text=True)
        if mounted.returncode != 0:
            pytest.skip(f"this machine does not let the tests mount a tmpfs "
                        f"({mounted.stderr.strip()}); the rlimit variant covers a full disk")

    def fill(self, server: McpProcess) -> None:
        stat = os.statvfs(self.folder)
        with open(self.folder / "filler", "wb") as handle:
            handle.write(b"\0" * max(0, stat.f_bavail * stat.f_frsize - ROOM))

    def make_room(self, server: McpProcess) -> None:
        os.unlink(self.folder / "filler")

    def ours(self) -> list[str]:
        return ["filler"]

    def close(self) -> None:
        subprocess.run(["umount", "-l", str(self.folder)], capture_output=True)


class FileSizeLimit:
    """RLIMIT_FSIZE on the server, its forkserver and every worker: a write past the limit
    fails with EFBIG (Python ignores SIGXFSZ). New workers inherit it from the forkserver."""
    reason = "File too large"

    def __init__(self, folder) -> None:
        self.folder = folder
        folder.mkdir()

    def _limit(self, server: McpProcess, value: int) -> None:
        root = psutil.Process(server.process.pid)
        for process in [root] + root.children(recursive=True):
            try:
                # The soft limit only: raising a hard limit again needs CAP_SYS_RESOURCE.
                _soft, hard = process.rlimit(psutil.RLIMIT_FSIZE)
                process.rlimit(psutil.RLIMIT_FSIZE, (value, hard))
            except psutil.NoSuchProcess:
                continue  # a process that ended meanwhile

    def fill(self, server: McpProcess) -> None:
        self._limit(server, FILE_SIZE_LIMIT)

    def make_room(self, server: McpProcess) -> None:
        self._limit(server, psutil.RLIM_INFINITY)

    def ours(self) -> list[str]:
        return []

    def close(self) -> None:
        pass


@pytest.fixture(params=[Tmpfs, FileSizeLimit], ids=["tmpfs-full", "rlimit-fsize"])
def disk(request, tmp_path):
    fault = request.param(tmp_path / "disk")
    yield fault
    fault.close()


@pytest.fixture
def server():
    process = McpProcess("--workers", "2")
    process.initialize()
    assert not process.run("command_batch", {"steps": comp_steps()})["isError"]
    yield process
    process.stop()


def overview(server: McpProcess) -> dict:
    """The project as doc_inspect shows it, less what a render changes by design: its queue
    items' status (each status change is a revision)."""
    result = server.run("doc_inspect")["structuredContent"]
    result["project"].pop("revision")
    for item in result["renderQueue"]:  # render status is the queue's runtime state
        item.pop("status", None)
        item.pop("progress", None)
    return result


def one_clear_sentence(text: str, reason: str) -> None:
    assert reason in text, text
    assert "Traceback" not in text and "\n" not in text.strip(), text


def render(server: McpProcess) -> dict:
    answer = server.wait_for(server.call("command_run", {"id": "renderQueue.render"}),
                             RENDER_WITHIN)
    return answer["result"]


# -- a save -----------------------------------------------------------------------------------

def test_a_save_that_runs_out_of_space_keeps_the_old_file_and_the_project(server, disk):
    path = disk.folder / "project.rvproj"
    first = server.run("command_run", {"id": "project.save", "params": {"path": str(path)}})
    assert not first["isError"]
    old = path.read_bytes()
    server.run("command_run", {"id": "layer.add", "params": {
        "comp": "Disk", "type": "text", "name": "Long", "text": TEXT}})
    before = overview(server)
    revision = server.run("command_run", {"id": "project.info"})["structuredContent"]["revision"]
    disk.fill(server)

    failed = server.run("command_run", {"id": "project.save"})
    assert failed["isError"] is True
    one_clear_sentence(failed["content"][0]["text"], disk.reason)
    assert path.read_bytes() == old
    assert sorted(os.listdir(disk.folder)) == sorted(["project.rvproj"] + disk.ours())
    after = overview(server)
    assert after == before and after["project"]["modified"] is True
    assert server.run("command_run", {"id": "project.info"})["structuredContent"][
        "revision"] == revision

    disk.make_room(server)
    saved = server.run("command_run", {"id": "project.save"})
    assert not saved["isError"], saved
    assert any(layer.get("name") == "Long" for comp in json.loads(path.read_text())["comps"]
               for layer in comp["layers"])


# -- a render ---------------------------------------------------------------------------------

@pytest.mark.parametrize("output", ["frames/f_[##].png", "movie/m.mp4"])
def test_a_render_that_runs_out_of_space_fails_the_item_by_name_and_leaves_nothing(server, disk,
                                                                                   output):
    target = disk.folder / output
    added = server.run("command_run", {"id": "renderQueue.add", "params": {
        "comp": "Disk", "output": str(target), "codecOptions": {"preset": "veryfast"}
        if output.endswith(".mp4") else {}}})["structuredContent"]
    before = overview(server)
    disk.fill(server)

    result = render(server)
    assert result["isError"] is True
    (entry,) = result["structuredContent"]["items"]
    assert entry["status"] == "failed"
    one_clear_sentence(entry["error"], disk.reason)
    assert added["item"] in entry["error"] and "codecOptions" not in entry["error"]
    left = sorted(set(os.listdir(disk.folder)) - set(disk.ours()))
    if output.endswith(".mp4") and left:
        # A video keeps the segments that finished, whole, in its cache for a resume
        # (docs/outputs.md, "Resuming a video"), and nothing else: no output, no temporary.
        assert left == ["movie"] and os.listdir(target.parent) == [".m.mp4.segments"]
        assert all(name.endswith(".seg")
                   for name in os.listdir(target.parent / ".m.mp4.segments"))
    else:
        assert left == []  # not even its folder
    assert overview(server) == before

    disk.make_room(server)
    again = render(server)  # the failed item is still queued: rendering it now succeeds
    assert not again["isError"], again
    assert again["structuredContent"]["items"][0]["status"] == "done"
    names = os.listdir(target.parent)
    assert len(names) == (30 if output.endswith(".png") else 1)
    assert not [name for name in names if name.startswith(".")]


# -- permissions ------------------------------------------------------------------------------

SETPRIV = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--inh-caps=-all"]


@pytest.fixture
def unprivileged_server(monkeypatch):
    """A server that, though it runs as root here, is refused by file modes like any user."""
    if os.geteuid() != 0:
        pass  # an ordinary user is refused by file modes already
    elif shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: file modes cannot refuse this server")
    else:
        monkeypatch.setattr(mcp_process, "SERVER", SETPRIV + mcp_process.SERVER)
    process = McpProcess("--workers", "2")
    process.initialize()
    assert not process.run("command_batch", {"steps": comp_steps()})["isError"]
    yield process
    process.stop()


def test_a_save_into_a_folder_it_may_not_write_keeps_the_old_file(unprivileged_server, tmp_path):
    server = unprivileged_server
    folder = tmp_path / "locked"
    folder.mkdir()
    path = folder / "project.rvproj"
    assert not server.run("command_run", {"id": "project.save",
                                          "params": {"path": str(path)}})["isError"]
    old = path.read_bytes()
    server.run("command_run", {"id": "layer.add", "params": {"comp": "Disk", "type": "null"}})
    before = overview(server)
    folder.chmod(0o555)
    try:
        failed = server.run("command_run", {"id": "project.save"})
        assert failed["isError"] is True
        one_clear_sentence(failed["content"][0]["text"], "Permission denied")
        assert path.read_bytes() == old and os.listdir(folder) == ["project.rvproj"]
        assert overview(server) == before
    finally:
        folder.chmod(0o755)
    assert not server.run("command_run", {"id": "project.save"})["isError"]


@pytest.mark.parametrize("output", ["f_[##].png", "m.mp4", "new/f_[##].png"])
def test_a_render_into_a_folder_it_may_not_write_fails_the_item_by_name(unprivileged_server,
                                                                        tmp_path, output):
    server = unprivileged_server
    folder = tmp_path / "locked"
    folder.mkdir()
    added = server.run("command_run", {"id": "renderQueue.add", "params": {
        "comp": "Disk", "output": str(folder / output)}})["structuredContent"]
    before = overview(server)
    folder.chmod(0o555)
    try:
        result = render(server)
        assert result["isError"] is True
        (entry,) = result["structuredContent"]["items"]
        assert entry["status"] == "failed" and added["item"] in entry["error"]
        one_clear_sentence(entry["error"], "Permission denied")
        assert "codecOptions" not in entry["error"]  # the folder is at fault, not the settings
        assert os.listdir(folder) == []
        assert overview(server) == before
    finally:
        folder.chmod(0o755)
    again = render(server)
    assert not again["isError"], again
