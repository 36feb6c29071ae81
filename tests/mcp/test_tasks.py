"""Renders that outlive a request: MCP tasks, driven by the official Python SDK in both forms (the
2025-11-25 core tasks and the 2026-07-28 tasks extension), and by hand where the SDK has no
call for it."""

import os

import anyio
import av
from mcp import Client

from supervisor.mcp.tasks import MAX_TASKS
from tests.helpers.mcp_process import McpProcess
from tests.helpers.sdk_tasks import SERVER, TasksExtension, legacy_session


def comp_steps(output, seconds, width=160, height=90):
    return [{"id": "comp.new", "params": {"name": "Main", "width": width, "height": height,
                                          "duration": seconds, "background": "#203040"}},
            {"id": "layer.add", "params": {"comp": "$0.comp", "type": "shape", "shape": "rect",
                                           "size": [40, 40], "fill": "#ffcc00"}},
            {"id": "renderQueue.add", "params": {"comp": "$0.comp", "output": str(output)}}]


def decoded_frames(path):
    with av.open(str(path)) as container:
        return sum(1 for _ in container.decode(container.streams.video[0]))


def test_a_render_task_is_polled_to_its_end_its_result_fetched_and_listed_after(tmp_path):
    output = tmp_path / "main.mp4"

    async def body(tasks):
        built = await tasks.client.call_tool("command_batch", {"steps": comp_steps(output, 2)})
        assert not built.is_error
        task = await tasks.call_as_task("command_run", {"id": "renderQueue.render"})
        assert task.status == "working" and task.ttl == 60_000 and task.poll_interval
        seen = await tasks.poll(task.task_id)
        assert seen[-1].status == "completed"
        result = await tasks.result(task.task_id)
        listed = await tasks.list()  # the tools/call that made it was answered long ago
        return seen, result, listed, task.task_id

    seen, result, listed, task_id = legacy_session(body)
    assert not result.is_error
    report = result.structured_content
    assert report["completed"] == 1 and report["items"][0]["output"] == str(output)
    assert result.meta["io.modelcontextprotocol/related-task"] == {"taskId": task_id}
    (link,) = [block for block in result.content if block.type == "resource_link"]
    assert link.uri == output.as_uri() and link.size == output.stat().st_size
    assert decoded_frames(output) == 60
    assert [(t.task_id, t.status) for t in listed] == [(task_id, "completed")]
    # retention: an ended task's time to live covers at least ten minutes after its end
    assert listed[0].ttl >= 600_000


def test_cancelling_a_render_task_stops_it_as_a_cancel_does_and_removes_its_output(tmp_path):
    output = tmp_path / "long.mp4"

    async def body(tasks):
        # An hour of frames: a small frame renders in about a millisecond, so a shorter render
        # could end between two polls (a second apart) and leave nothing to cancel.
        await tasks.client.call_tool("command_batch",
                                     {"steps": comp_steps(output, 3600, 320, 180)})
        task = await tasks.call_as_task("command_run", {"id": "renderQueue.render"})
        # its progress shows in statusMessage: frames written of the render's total
        seen = await tasks.poll(task.task_id, until=lambda got: got.status_message or
                                got.status != "working")
        cancelled = await tasks.cancel(task.task_id)
        ended = await tasks.get(task.task_id)
        errors = []
        for again in (tasks.result, tasks.cancel):
            try:
                await again(task.task_id)
            except Exception as exc:  # mcp.shared.exceptions.MCPError
                errors.append((exc.error.code, exc.error.message))
        with anyio.fail_after(60):  # the render has stopped once the queue says so
            while True:
                queue = await tasks.client.call_tool("command_run", {"id": "renderQueue.list"})
                if queue.structured_content["items"][0]["status"] == "stopped":
                    break
                await anyio.sleep(0.2)
        return seen[-1], cancelled, ended, errors

    working, cancelled, ended, errors = legacy_session(body)
    assert working.status == "working" and "/108000" in working.status_message
    assert cancelled.status == ended.status == "cancelled"
    assert errors[0][0] == -32602 and "cancelled" in errors[0][1]
    assert errors[1] == (-32602, "Cannot cancel task: already in terminal status 'cancelled'.")
    # As any cancel: no output and no temporary; only the whole segments a resume would reuse.
    assert not output.exists()
    assert set(os.listdir(tmp_path)) <= {".long.mp4.segments"}
    cache = tmp_path / ".long.mp4.segments"
    assert all(name.endswith(".seg") for name in (os.listdir(cache) if cache.exists() else []))


def test_a_tool_that_answers_at_once_refuses_to_run_as_a_task():
    server = McpProcess()
    try:
        server.initialize()
        answer = server.wait_for(server.request("tools/call", {
            "name": "list_dir", "arguments": {"path": "/"}, "task": {}}))
        assert answer["error"]["code"] == -32601
        assert "list_dir answers at once and cannot run as a task" in answer["error"]["message"]
        tools = server.wait_for(server.request("tools/list"))["result"]["tools"]
        support = {tool["name"]: tool["execution"]["taskSupport"] for tool in tools}
        assert {name for name, value in support.items() if value == "optional"} == {
            "shell", "command_run", "command_batch", "render_filmstrip"}
    finally:
        server.stop()


def test_a_client_that_fetches_every_result_is_never_refused_a_task():
    # Results fetched make room: only unfetched results and working tasks count against the
    # bound, so a client polling its quick calls one by one is not locked out for minutes.
    server = McpProcess()
    try:
        server.initialize()
        for _ in range(MAX_TASKS + 2):
            created = server.wait_for(server.request("tools/call", {
                "name": "command_run", "arguments": {"id": "comp.list", "params": {}},
                "task": {}}))
            assert "result" in created, created
            fetched = server.wait_for(server.request(
                "tasks/result", {"taskId": created["result"]["task"]["taskId"]}))
            assert "result" in fetched, fetched
    finally:
        server.stop()


def test_closing_stdin_lets_a_running_render_task_finish(tmp_path):
    output = tmp_path / "piped.mp4"
    server = McpProcess()
    server.initialize()
    server.run("command_batch", {"steps": comp_steps(output, 3)})
    created = server.wait_for(server.request("tools/call", {
        "name": "command_run", "arguments": {"id": "renderQueue.render"}, "task": {}}))
    assert created["result"]["task"]["status"] == "working"
    server.close_stdin()
    assert server.process.wait(120) == 0
    assert decoded_frames(output) == 90
    (ended,) = server.notifications("notifications/tasks/status")
    assert ended["params"]["status"] == "completed"
    assert ended["params"]["taskId"] == created["result"]["task"]["taskId"]


def test_a_2026_client_with_the_tasks_extension_gets_a_task_for_a_long_call_only():
    extension = TasksExtension()

    async def session():
        async with Client(SERVER, extensions=[extension]) as client:
            quick = await client.call_tool("list_dir", {"path": "/"})
            assert extension.created == []  # answered in time: no task
            long = await client.call_tool("shell", {"command": "sleep 3; echo done"})
            return quick, long

    quick, long = anyio.run(session)
    assert not quick.is_error
    assert long.structured_content["stdout"] == "done\n"
    (created,) = extension.created
    assert created.status == "working"
    statuses = [state.status for state in extension.polled]
    assert statuses[-1] == "completed" and set(statuses) <= {"working", "completed"}
    assert all(state.task_id == created.task_id and state.ttl_ms >= 1000
               for state in extension.polled)


def test_2026_task_methods_need_the_extension_and_refuse_the_2025_ones():
    server = McpProcess()
    try:
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}}
        get = server.wait_for(server.request("tasks/get", {"taskId": "x", "_meta": meta}))
        assert get["error"]["code"] == -32021
        assert get["error"]["data"] == {
            "requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}
        for method in ("tasks/result", "tasks/list"):
            refused = server.wait_for(server.request(method, {"taskId": "x", "_meta": meta}))
            assert refused["error"]["code"] == -32601, method
        declared = {**meta, "io.modelcontextprotocol/clientCapabilities": {
            "extensions": {"io.modelcontextprotocol/tasks": {}}}}
        unknown = server.wait_for(server.request("tasks/get", {"taskId": "x", "_meta": declared}))
        assert unknown["error"]["code"] == -32602
    finally:
        server.stop()
