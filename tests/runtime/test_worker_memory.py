"""Render and preview workers run under a memory limit: a job that needs more fails with a
sentence naming the limit, the worker is replaced and the session goes on; shell commands are
not limited.

The limit is lowered to 1 GiB through RENDERVISOR_WORKER_MEMORY_MIB (an operator and test
setting read at start): an idle worker takes about half of that in address space, and a
16000x16000 frame alone needs 976 MiB for its pixels (16000, not the largest comp side of
16384: FFmpeg's PNG encoder refuses images past about 16256 x 16256).
"""


import psutil
import pytest

from tests.helpers.mcp_process import McpProcess
from tests.helpers.mcp_images import decode_png

LIMIT_MIB = 1024
SETTINGS = {"RENDERVISOR_WORKER_MEMORY_MIB": str(LIMIT_MIB)}

BUILD = [
    {"id": "comp.new", "params": {"name": "Huge", "width": 16000, "height": 16000,
                                  "duration": 1}},
    {"id": "layer.add", "params": {"comp": "Huge", "type": "solid", "color": "#ff0000"}},
    {"id": "comp.new", "params": {"name": "Simple", "width": 64, "height": 36,
                                  "background": "#000000", "duration": 1}},
    {"id": "layer.add", "params": {"comp": "Simple", "type": "solid", "color": "#00ff00"}},
]


@pytest.fixture
def server():
    process = McpProcess("--workers", "1", env=SETTINGS)
    process.initialize()
    result = process.run("command_batch", {"steps": BUILD})
    assert result["structuredContent"]["failed"] == 0, result
    yield process
    process.stop()


def assert_simple_preview(result: dict) -> None:
    assert result["isError"] is False, result
    pixels = decode_png(result["content"][0]["data"])
    assert pixels.shape == (36, 64, 4) and (pixels[..., :3] == [0, 255, 0]).all()


def descendants(server) -> list[psutil.Process]:
    return psutil.Process(server.process.pid).children(recursive=True)


def test_a_preview_past_the_memory_limit_fails_by_name_and_the_session_goes_on(server):
    result = server.run("render_preview", {"comp": "Huge", "max_side": 0}, timeout=120)
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "preview worker" in text and "1 GiB memory limit" in text, text
    assert "comp 'Huge' at 0.0 s" in text and "max_side" in text, text
    assert "\n" not in text and "Traceback" not in text
    assert_simple_preview(server.run("render_preview", {"comp": "Simple", "max_side": 0}))
    # Scaled down, the same comp fits in the limit.
    small = server.run("render_preview", {"comp": "Huge", "max_side": 256})
    assert small["isError"] is False and small["structuredContent"]["width"] == 256


def test_a_render_past_the_memory_limit_fails_its_item_by_name(server, tmp_path):
    for comp in ("Huge", "Simple"):
        added = server.run("command_run", {"id": "renderQueue.add", "params": {
            "comp": comp, "format": "png", "frames": "0",
            "output": str(tmp_path / f"{comp}_[#].png")}})
        assert added["isError"] is False, added
    report = server.run("command_run", {"id": "renderQueue.render"}, timeout=120)
    items = report["structuredContent"]["items"]
    assert [item["status"] for item in items] == ["failed", "done"], items
    assert "render worker" in items[0]["error"] and "1 GiB memory limit" in items[0]["error"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["Simple_0.png"]


def test_drawing_workers_are_limited_and_shell_commands_are_not(server):
    assert_simple_preview(server.run("render_preview", {"comp": "Simple", "max_side": 0}))
    limited = [process for process in descendants(server)
               if process.rlimit(psutil.RLIMIT_AS)[0] == LIMIT_MIB << 20]
    assert limited, "no worker runs under the memory limit"
    shell = server.run("shell", {"command": "ulimit -v"})["structuredContent"]
    assert shell["stdout"].strip() == "unlimited", shell


def test_a_still_past_the_memory_limit_fails_by_name_and_writes_nothing(server, tmp_path):
    result = server.run("command_run", {"id": "comp.saveFrameAs", "params": {
        "comp": "Huge", "path": str(tmp_path / "huge.png")}}, timeout=120)
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "preview worker" in text and "1 GiB memory limit" in text, text
    assert "comp 'Huge' at 0.0 s" in text and "\n" not in text, text
    assert list(tmp_path.iterdir()) == []
    assert_simple_preview(server.run("render_preview", {"comp": "Simple", "max_side": 0}))
