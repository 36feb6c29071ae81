"""A link planted in a write root, swapped in for the folder a confined render is writing into,
over and over while its frames, segments and joined video are written: the render's folder is
held by descriptor from the check to the last rename (workers/exporter/output_folders.py), so
nothing ever lands outside the roots, whatever the render then reports. The real server,
real render workers, real files; the swap loop is bounded in time."""

from __future__ import annotations

import os
import threading
import time

import pytest

from tests.helpers.mcp_process import McpProcess

# How long the swapping goes on at most (s): the renders end long before on an idle machine.
SWAP_FOR = 60.0
# Longest a state is held (s): long enough for a chunk to start or a frame to land in either.
HOLD = 0.002
ROUNDS = 6  # renders while the swapping goes on
REASONS = ("was replaced", "outside the write roots")


def files_under(folder: str) -> list[str]:
    return sorted(os.path.relpath(os.path.join(root, name), folder)
                  for root, _dirs, names in os.walk(folder) for name in names)


class Swapper:
    """`mv renders renders_old && mv outlink renders`, and back, in a loop: the real folder
    steps aside and the planted link takes its name, as a shell in the root could do it."""

    def __init__(self, write: str) -> None:
        self.real = os.path.join(write, "renders")
        self.aside = os.path.join(write, "renders_old")
        self.link = os.path.join(write, "outlink")
        self.stop = threading.Event()
        self.swaps = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        deadline = time.monotonic() + SWAP_FOR
        while not self.stop.is_set() and time.monotonic() < deadline:
            os.rename(self.real, self.aside)
            os.rename(self.link, self.real)  # the link now answers to the render's folder
            self.swaps += 1
            time.sleep(HOLD)
            os.rename(self.real, self.link)
            os.rename(self.aside, self.real)
            time.sleep(HOLD)

    def __enter__(self) -> "Swapper":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(SWAP_FOR)


@pytest.mark.parametrize("output, fmt", [("f_[####].png", "png"), ("v.mp4", "h264")])
def test_a_link_swapped_in_for_the_output_folder_never_gets_a_file(tmp_path, output, fmt):
    write, outside = tmp_path / "write", tmp_path / "outside"
    (write / "renders").mkdir(parents=True)
    outside.mkdir()
    (outside / "canary.txt").write_text("outside\n")
    os.symlink(outside, write / "outlink")  # planted by someone outside the session
    server = McpProcess("--write-root", str(write), "--workers", "2")
    try:
        server.initialize()
        steps = [
            {"id": "comp.new", "params": {"name": "Main", "width": 96, "height": 54,
                                          "frameRate": 30, "duration": 12}},
            {"id": "layer.add", "params": {"comp": "Main", "type": "solid",
                                           "color": "#203040"}},
            {"id": "layer.add", "params": {"comp": "Main", "type": "shape", "shape": "star",
                                           "name": "Star", "size": [30, 30],
                                           "fill": "#ffcc33"}},
            {"id": "effect.add", "params": {"comp": "Main", "layer": "Star",
                                            "effect": "gaussianBlur",
                                            "params": {"radius": 8}}},
            {"id": "renderQueue.add", "params": {
                "comp": "Main", "output": str(write / "renders" / output), "format": fmt,
                **({"codecOptions": {"preset": "ultrafast"}} if fmt == "h264" else {})}},
        ]
        assert not server.run("command_batch", {"steps": steps})["isError"]
        outcomes = []
        with Swapper(str(write)) as swapper:
            # Render again and again while the swapping goes on, so the link lands in every
            # phase: the plan's check, a chunk's start, frames and segments being written,
            # the join, the segment cache, the cleanup of a failure. On a busy machine the
            # swapper may get few turns in six renders: render on until it has swapped 20 times.
            while swapper.thread.is_alive() and (len(outcomes) < ROUNDS or swapper.swaps <= 20):
                answer = server.run("command_run", {"id": "renderQueue.render"},
                                    timeout=SWAP_FOR + 60)
                [item] = answer["structuredContent"]["items"]
                outcomes.append(item["status"])
                # Done, or failed saying why (the plan saw the link, or a chunk found the
                # folder replaced): never a traceback.
                assert item["status"] == "done" or any(
                    reason in item["error"] for reason in REASONS), item
                server.run("command_run", {"id": "renderQueue.set",
                                           "params": {"item": item["item"]}})
        assert swapper.swaps > 20 and len(outcomes) >= 3, (swapper.swaps, outcomes)
    finally:
        server.stop()
    assert files_under(outside) == ["canary.txt"]
    assert os.path.islink(write / "outlink") and (write / "renders").is_dir()
    written = files_under(write / "renders")
    assert all(not name.endswith(".part") for name in written), written
