"""Renders through the real `rendervisor mcp` process: progress notifications on the wire,
cancellation with no response and nothing left behind, a second render refused with isError,
and the official MCP SDK client rendering a comp with a progress callback."""

import sys
import time

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.helpers.mcp_process import McpProcess
from tests.helpers.render_sessions import files_in, read_png
from tests.helpers.moving_solid import moving_solid_steps
from workers.exporter.complete_frames import is_complete_frame


def heavy_steps(seconds: float) -> list[dict]:
    """A blurred 480x270 comp "Heavy" of `seconds` at 24 frames a second."""
    return moving_solid_steps("Heavy", 480, 270, 24, seconds, blur=30)


# For the tests that cancel, stop or refuse a render: 2,400 frames, some 40 s of rendering here
# (the 240 frames of five seconds took about 4 s, a fraction of a second on a machine a few times
# faster, so a render could end before the cancel). Frames never rendered cost nothing; a
# sequence's plan names each frame, so not an hour.
LONG = 100


def start(tmp_path, *items, workers=2, seconds=5) -> McpProcess:
    server = McpProcess("--workers", str(workers))
    server.initialize()
    steps = heavy_steps(seconds) + [
        {"id": "renderQueue.add", "params": {"comp": "Heavy", **item}} for item in items]
    result = server.run("command_batch", {"steps": steps})
    assert not result["isError"], result
    return server


def render_call(server, token=None, **params):
    meta = {"progressToken": token} if token is not None else None
    return server.call("command_run", {"id": "renderQueue.render", "params": params}, meta=meta)


def wait_for_progress(server, call) -> None:
    """Until the render `call` sent its first progress; an answer first (the render ended
    before the test could act on it) fails at once, with the answer."""
    deadline = time.monotonic() + 30
    while not server.notifications("notifications/progress"):
        assert server.answers(call) == [], f"the render ended first: {server.answers(call)}"
        assert time.monotonic() < deadline, "no progress in 30 s"
        time.sleep(0.02)


def test_progress_is_at_most_ten_a_second_and_strictly_increasing(tmp_path):
    server = start(tmp_path, {"output": str(tmp_path / "h_[###].png")},
                   {"output": str(tmp_path / "h.mp4"), "codecOptions": {"preset": "veryfast"}})
    try:
        started = time.monotonic()
        answer = server.wait_for(render_call(server, token="r1"), timeout=60)
        elapsed = time.monotonic() - started
        result = answer["result"]
        assert not result["isError"], result
        assert result["structuredContent"]["completed"] == 2
        progress = [n["params"] for n in server.notifications("notifications/progress")
                    if n["params"]["progressToken"] == "r1"]
        values = [p["progress"] for p in progress]
        assert len(values) >= 3
        assert values == sorted(set(values)), "strictly increasing"
        assert {p["total"] for p in progress} == {240}
        assert values[-1] <= 240
        assert len(values) <= 10 * elapsed + 1
        assert all(p["message"] for p in progress)
    finally:
        server.stop()


def test_the_last_progress_before_the_response_is_at_the_total(tmp_path):
    # 48 small frames render faster than 10 a second, so the last ones fall in the rate limit
    server = start(tmp_path, {"output": str(tmp_path / "h_[###].png"), "frames": "0-47"})
    try:
        call = render_call(server, token="t1")
        answer = server.wait_for(call, timeout=60)
        assert answer["result"]["structuredContent"]["completed"] == 1
        messages = list(server.messages)
        before = messages[:messages.index(answer)]
        progress = [m["params"] for m in before if m.get("method") == "notifications/progress"
                    and m["params"]["progressToken"] == "t1"]
        assert progress[-1]["progress"] == progress[-1]["total"] == 48, progress[-3:]
        after = messages[messages.index(answer):]
        assert not any(m.get("method") == "notifications/progress" for m in after)
    finally:
        server.stop()


def test_cancel_sends_no_response_and_leaves_no_file(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    server = start(tmp_path, {"output": str(tmp_path / "h.mp4")},
                   {"output": str(tmp_path / "h_[####].png")}, seconds=LONG)
    try:
        call = render_call(server, token="c1")
        wait_for_progress(server, call)
        server.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": call}})
        listed = None
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:  # the queue says stopped once cleanup is done
            listed = server.run("command_run", {"id": "renderQueue.list"})
            statuses = {i["status"] for i in listed["structuredContent"]["items"]}
            if "rendering" not in statuses:
                break
            time.sleep(0.05)
        assert statuses == {"stopped"}
        assert files_in(tmp_path) == {"keep.txt"}
        assert server.answers(call) == []
    finally:
        server.stop()


def test_a_second_render_is_refused_with_is_error(tmp_path):
    server = start(tmp_path, {"output": str(tmp_path / "h_[####].png")}, seconds=LONG)
    try:
        first = render_call(server)

        def first_status():
            listed = server.run("command_run", {"id": "renderQueue.list"})
            return listed["structuredContent"]["items"][0]["status"]

        deadline = time.monotonic() + 30
        while first_status() != "rendering":  # until the first render has begun
            assert server.answers(first) == [], f"the render ended first: {server.answers(first)}"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        second = server.wait_for(render_call(server, wait=False), timeout=30)["result"]
        assert second["isError"] and "already running" in second["content"][0]["text"]
        batch = server.run("command_batch", {"steps": [{"id": "renderQueue.render"}]})
        assert batch["isError"]
        # the refusals left the first render alone: still rendering until it is stopped
        assert first_status() == "rendering"
        assert server.run("command_run", {"id": "renderQueue.stop"})["structuredContent"][
            "stopped"] is True
        [item] = server.wait_for(first, timeout=60)["result"]["structuredContent"]["items"]
        assert item["status"] == "stopped"
        # and its files are what any stopped sequence keeps (docs/outputs.md): whole frames
        # only, no temporary left by a render the refusals had disturbed
        frames = files_in(tmp_path) - {"keep.txt"}
        assert all(name.startswith("h_") and name.endswith(".png") and
                   is_complete_frame(str(tmp_path / name), "png") for name in frames), frames
    finally:
        server.stop()


def test_a_piped_script_render_finishes_after_stdin_closes(tmp_path):
    server = start(tmp_path, {"output": str(tmp_path / "h_[###].png"), "frames": "0-47"})
    call = render_call(server)
    server.close_stdin()
    try:
        answer = server.wait_for(call, timeout=60)
        assert answer["result"]["structuredContent"]["completed"] == 1
        assert len(files_in(tmp_path)) == 48
    finally:
        server.stop()


def test_the_official_sdk_client_renders_with_a_progress_callback(tmp_path):
    parameters = StdioServerParameters(command=sys.executable,
                                       args=["-m", "supervisor.cli", "mcp", "--workers", "2"])
    seen = []

    async def session():
        async with stdio_client(parameters) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                steps = [{"id": "comp.new", "params": {"name": "Tiny", "width": 64,
                                                       "height": 36, "duration": 1}},
                         {"id": "layer.add", "params": {"comp": "Tiny", "type": "solid",
                                                        "color": "#ff0000", "width": 32,
                                                        "height": 18}},
                         {"id": "renderQueue.add",
                          "params": {"comp": "Tiny", "output": str(tmp_path / "t_[##].png")}}]
                built = await client.call_tool("command_batch", {"steps": steps})
                assert not built.is_error

                async def on_progress(progress, total, message):
                    seen.append((progress, total))

                rendered = await client.call_tool(
                    "command_run", {"id": "renderQueue.render"}, progress_callback=on_progress)
                assert not rendered.is_error
                return rendered.structured_content

    report = anyio.run(session)
    assert report["completed"] == 1 and report["failed"] == 0
    assert len(files_in(tmp_path)) == 30
    assert seen and all(total == 30 for _, total in seen)
    assert read_png(str(tmp_path / "t_00.png"))[18, 32].tolist() == [255, 0, 0, 255]


def test_sigterm_mid_render_exits_promptly_and_removes_partial_outputs(tmp_path):
    import signal
    server = start(tmp_path, {"output": str(tmp_path / "h.mp4")},
                   {"output": str(tmp_path / "h_[####].png")}, seconds=LONG)
    try:
        wait_for_progress(server, render_call(server, token="t1"))
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(30)
        assert time.monotonic() - signalled < 20  # a second or two idle
        assert files_in(tmp_path) == set()
    finally:
        server.stop()


def test_the_session_lists_every_render_command_enabled(server):
    listed = server.run("command_list", {"filter": "render"})["structuredContent"]["commands"]
    render_ids = {"renderQueue.render", "renderQueue.stop", "comp.saveFrameAs",
                  "render.preRender", "file.createProxy"}
    enabled = {entry["id"] for entry in listed if entry["enabled"]}
    assert render_ids <= enabled
