"""A preview worker keeps little memory once large previews are done: the surfaces it keeps
between frames are bounded in bytes, not by count."""

import psutil
import pytest

SIZES = [(6000, 6000), (6000, 5000), (5000, 6000), (5500, 5500)]


@pytest.mark.server_args("--workers", "1")
def test_the_preview_worker_keeps_little_memory_after_large_previews(server):
    """Four full-size transparent previews of 120-144 MB frames (each drawn on a surface of
    its size), then idle: no worker holds more than its start-up size and the kept-surface
    budget, with room to spare; keeping the four surfaces would be half a GB more."""
    steps = []
    for index, (width, height) in enumerate(SIZES):
        steps += [{"id": "comp.new", "params": {"name": f"Big{index}", "width": width,
                                                "height": height, "duration": 1}},
                  {"id": "layer.add", "params": {"comp": f"Big{index}", "type": "solid",
                                                 "color": "#336699", "width": 100,
                                                 "height": 100}}]
    assert server.run("command_batch", {"steps": steps})["structuredContent"]["failed"] == 0
    for index, (width, height) in enumerate(SIZES):
        result = server.run("render_preview", {"comp": f"Big{index}", "max_side": 0,
                                               "transparent": True}, timeout=120)
        assert result["structuredContent"]["width"] == width, result
    resident = {worker.pid: worker.memory_info().rss >> 20
                for worker in psutil.Process(server.process.pid).children(recursive=True)}
    assert max(resident.values()) < 250, f"resident MiB by pid: {resident}"
