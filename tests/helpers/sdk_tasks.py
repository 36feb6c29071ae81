"""Driving MCP tasks with the official Python SDK (mcp 2.x), which ships the 2025-11-25 task
messages as types and the client extension API the 2026-07-28 tasks extension plugs into, but
no task runtime of its own.

- 2025-11-25: a ClientSession over a dispatcher the test keeps, so the task-augmented tools/call
  (whose CreateTaskResult the session's tools/call parser would refuse) goes out through the
  dispatcher's send_raw_request, and tasks/get, tasks/result, tasks/list, tasks/cancel as the
  SDK's own typed requests.
- 2026-07-28: `TasksExtension`, a ClientExtension claiming resultType "task" on tools/call and
  resolving it by polling tasks/get, so `Client.call_tool` returns the tool's own result.
"""

from __future__ import annotations

import sys
from typing import Any, Literal

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

SERVER = StdioServerParameters(command=sys.executable, args=["-m", "supervisor.cli", "mcp"])
EXTENSION = "io.modelcontextprotocol/tasks"


class LegacyTasks:
    """A 2025-11-25 session's task calls."""

    def __init__(self, client: ClientSession, dispatcher: JSONRPCDispatcher) -> None:
        self.client = client
        self.dispatcher = dispatcher

    async def call_as_task(self, name: str, arguments: dict, ttl: int = 60_000) -> types.Task:
        raw = await self.dispatcher.send_raw_request(
            "tools/call", {"name": name, "arguments": arguments, "task": {"ttl": ttl}})
        return types.CreateTaskResult.model_validate(raw).task

    async def get(self, task_id: str) -> types.GetTaskResult:
        return await self.client.send_request(
            types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=task_id)),
            types.GetTaskResult)

    async def result(self, task_id: str) -> types.CallToolResult:
        return await self.client.send_request(
            types.GetTaskPayloadRequest(params=types.GetTaskPayloadRequestParams(
                task_id=task_id)), types.CallToolResult)

    async def list(self) -> list[types.Task]:
        return (await self.client.send_request(types.ListTasksRequest(),
                                               types.ListTasksResult)).tasks

    async def cancel(self, task_id: str) -> types.CancelTaskResult:
        return await self.client.send_request(
            types.CancelTaskRequest(params=types.CancelTaskRequestParams(task_id=task_id)),
            types.CancelTaskResult)

    async def poll(self, task_id: str, until=lambda got: got.status != "working",
                   seconds: float = 120.0) -> list[types.GetTaskResult]:
        """tasks/get at the task's poll interval until `until(state)`; every state seen."""
        seen = []
        with anyio.fail_after(seconds):
            while True:
                got = await self.get(task_id)
                seen.append(got)
                if until(got):
                    return seen
                await anyio.sleep((got.poll_interval or 1000) / 1000)


def legacy_session(body):
    """Run `body(tasks)` in an initialized 2025-11-25 session."""
    async def session():
        async with stdio_client(SERVER) as (read, write):
            dispatcher = JSONRPCDispatcher(read, write)
            async with ClientSession(dispatcher=dispatcher) as client:
                initialized = await client.initialize()
                assert initialized.protocol_version == "2025-11-25"
                return await body(LegacyTasks(client, dispatcher))
    return anyio.run(session)


class CreatedTask(types.Result):
    result_type: Literal["task"]
    task_id: str
    status: str


class TaskState(types.Result):
    """tasks/get's answer in the 2026-07-28 extension: the task, its outcome once it ended."""
    task_id: str
    status: str
    status_message: str | None = None
    created_at: str
    last_updated_at: str
    ttl_ms: int | None
    poll_interval_ms: int | None = None
    result: dict | None = None
    error: dict | None = None


class GetTask(types.Request[types.RequestParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    params: Any


class TasksExtension(ClientExtension):
    """The 2026-07-28 tasks extension, client side: every task state polled is kept in
    `polled`."""

    identifier = EXTENSION

    def __init__(self) -> None:
        self.created: list[CreatedTask] = []
        self.polled: list[TaskState] = []

    def claims(self):
        return [ResultClaim(result_type="task", model=CreatedTask, resolve=self.resolve)]

    async def resolve(self, created: CreatedTask, ctx: ClaimContext) -> types.CallToolResult:
        self.created.append(created)
        with anyio.fail_after(120):
            while True:
                got = await ctx.session.send_request(GetTask(params={"taskId": created.task_id}),
                                                     TaskState)
                self.polled.append(got)
                if got.status != "working":
                    assert got.status == "completed", got
                    return types.CallToolResult.model_validate(got.result)
                await anyio.sleep(got.poll_interval_ms / 1000)
