"""A symbolic link swapped in between the check and the write (or the read): a thread flips a
name inside the write root between a real folder or file and a link to the outside folder, as fast
as it can, while the real server writes, edits, saves and reads through that name hundreds of
times. Whatever each call answers, nothing outside is ever written, and no reply ever holds the
outside secret (supervisor/confinement/checked_files.py: open first, then check what was opened).
"""

from __future__ import annotations

import os
import random
import shutil
import threading
import time

import pytest

from tests.helpers.confinement_world import SECRET, Footprint, build_world, reply_text
from tests.helpers.mcp_process import McpProcess

ROUNDS = 300  # calls per test; the flipper changes the name thousands of times meanwhile
# Longest a state is held (s): random holds let calls land in either state, and in the swap.
HOLD = 0.0005
# The race was run: the name changed thousands of times on an idle machine, tens at least on
# one shared with other test runs (34 at load 15).
MIN_FLIPS = 20


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return build_world(str(tmp_path_factory.mktemp("races")))


@pytest.fixture(scope="module")
def server(world):
    process = McpProcess("--read-root", world.read, "--write-root", world.write, cwd=world.base)
    process.initialize()
    yield process
    process.stop()


class Flipper:
    """Flips `path` between a real thing (made by `make_real`) and a link to `target`."""

    def __init__(self, path: str, target: str, make_real) -> None:
        self.path, self.target, self.make_real = path, target, make_real
        self.stop = threading.Event()
        self.flips = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "Flipper":
        self.make_real(self.path)
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(10)

    def _run(self) -> None:
        stash = self.path + ".stash"
        while not self.stop.is_set():
            try:
                os.rename(self.path, stash)  # the real thing steps aside...
                os.symlink(self.target, self.path)  # ...and a link takes its name
                self.flips += 1
                time.sleep(random.random() * HOLD)
                os.unlink(self.path)
                os.rename(stash, self.path)
                self.flips += 1
                time.sleep(random.random() * HOLD)
            except OSError:
                # The server made something at the name meanwhile: start again from real.
                for leftover in (self.path, stash):
                    if os.path.islink(leftover) or os.path.isfile(leftover):
                        os.unlink(leftover)
                    elif os.path.isdir(leftover):
                        shutil.rmtree(leftover, ignore_errors=True)
                self.make_real(self.path)


def real_folder(path: str) -> None:
    os.makedirs(path, exist_ok=True)


def real_file(path: str) -> None:
    with open(path, "w") as handle:
        handle.write("inside OLD\n")


def hammer(server, world, calls) -> list[dict]:
    """Run every call; check the footprint and the replies after."""
    before = Footprint(world.outsides(), listed=(world.base,))
    results = [server.run(tool, args) for tool, args in calls]
    after = Footprint(world.outsides(), listed=(world.base,))
    assert before.changes(after) == []
    for result in results:
        assert SECRET not in reply_text(result)
    return results


def test_write_file_into_a_folder_swapped_for_a_link_never_writes_outside(server, world):
    folder = os.path.join(world.write, "race_dir")
    with Flipper(folder, world.outside, real_folder) as flipper:
        results = hammer(server, world, [("write_file", {
            "path": os.path.join(folder, "new.txt"), "content": f"round {n}"})
            for n in range(ROUNDS)])
    assert flipper.flips > MIN_FLIPS
    assert not os.path.exists(os.path.join(world.outside, "new.txt"))
    assert any(not result.get("isError") for result in results)  # the race was real: some won


def test_write_file_onto_a_name_swapped_for_a_link_never_writes_outside(server, world):
    name = os.path.join(world.write, "race_file")
    target = os.path.join(world.outside, "canary.txt")
    with Flipper(name, target, real_file) as flipper:
        hammer(server, world, [("write_file", {"path": name, "content": f"round {n}"})
                               for n in range(ROUNDS)])
    assert flipper.flips > MIN_FLIPS


def test_edit_file_of_a_name_swapped_for_a_link_never_reads_or_writes_outside(server, world):
    name = os.path.join(world.write, "race_edit")
    target = os.path.join(world.outside, "canary.txt")
    with Flipper(name, target, real_file) as flipper:
        hammer(server, world, [("edit_file", {"path": name, "old_string": "OLD",
                                              "new_string": "OLD"}) for _ in range(ROUNDS)])
    assert flipper.flips > MIN_FLIPS


def test_read_file_of_a_name_swapped_for_a_link_never_returns_outside_content(server, world):
    name = os.path.join(world.write, "race_read")
    target = os.path.join(world.outside, "canary.txt")
    with Flipper(name, target, real_file) as flipper:
        results = hammer(server, world, [("read_file", {"path": name}) for _ in range(ROUNDS)])
    assert flipper.flips > MIN_FLIPS
    assert any(reply_text(result) == "inside OLD\n" for result in results)


def test_project_save_into_a_folder_swapped_for_a_link_never_writes_outside(server, world):
    folder = os.path.join(world.write, "race_save")
    with Flipper(folder, world.outside, real_folder) as flipper:
        hammer(server, world, [("command_run", {"id": "project.save", "params": {
            "path": os.path.join(folder, "p.rvproj")}}) for _ in range(ROUNDS)])
    assert flipper.flips > MIN_FLIPS
    assert not os.path.exists(os.path.join(world.outside, "p.rvproj"))


def test_list_and_search_of_a_folder_swapped_for_a_link_never_show_outside(server, world):
    folder = os.path.join(world.write, "race_list")
    calls = []
    for _ in range(ROUNDS // 2):
        calls.append(("list_dir", {"path": world.write, "depth": 3}))
        calls.append(("search_files", {"path": world.write, "content": "CANARY"}))
    with Flipper(folder, world.outside, real_folder) as flipper:
        results = hammer(server, world, calls)
    assert flipper.flips > MIN_FLIPS
    for result in results:
        assert "race_list/canary.txt" not in reply_text(result)
