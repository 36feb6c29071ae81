"""MCP tasks on the wire: one task's lifecycle, and how each protocol era shows it.

    working ──► completed | failed | cancelled        (a terminal status never changes)

A task wraps one tools/call. It ends with the call's result (a CallToolResult), with a JSON-RPC
error, or, cancelled, with neither. The two eras show the same task differently:

- 2025-11-25, the core's experimental tasks: `ttl` and `pollInterval`; a tool result with
  isError makes the task `failed`; tasks/get shows the state alone and tasks/result the
  outcome; a CreateTaskResult holds the task under `task`; notifications/tasks/status tells a
  status change.
- 2026-07-28, the io.modelcontextprotocol/tasks extension: `ttlMs` and `pollIntervalMs`;
  `failed` only for a JSON-RPC error (a tool's isError result is `completed`); a finished
  task carries its `result` or `error` inline; a CreateTaskResult is the task itself with
  resultType "task".

Sans-IO: a dataclass, its transitions, and the dicts each era sends; the time is passed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

WORKING = "working"
COMPLETED = "completed"
FAILED = "failed"
CANCELLED = "cancelled"
TERMINAL = (COMPLETED, FAILED, CANCELLED)

EXTENSION = "io.modelcontextprotocol/tasks"  # the 2026-07-28 extension's identifier
RELATED_TASK = "io.modelcontextprotocol/related-task"  # 2025-11-25 results' _meta key


@dataclass
class Task:
    task_id: str
    modern: bool  # made for a 2026-07-28 request: its status follows that era's rule
    created: float  # seconds since the epoch
    ttl: float  # seconds from `created` the task is kept (at least while it works)
    poll_interval: float  # seconds a client is asked to wait between polls
    updated: float = 0.0
    status: str = WORKING
    message: str | None = None
    result: dict | None = None  # the CallToolResult, once completed (or failed by isError)
    error: dict | None = None  # the JSON-RPC error, once failed by one

    def __post_init__(self) -> None:
        self.updated = self.updated or self.created

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL

    def progress(self, message: str) -> None:
        """A working task's status message; the last word once it ended."""
        if not self.terminal:
            self.message = message

    def finish(self, now: float, result: dict | None = None, error: dict | None = None) -> bool:
        """End with the call's result or a JSON-RPC error; False if it had ended already
        (a cancelled task stays cancelled whatever the work did after)."""
        if self.terminal:
            return False
        failed = error is not None or (not self.modern and bool(result.get("isError")))
        self.status = FAILED if failed else COMPLETED
        self.result, self.error, self.updated = result, error, now
        if error is not None:
            self.message = error.get("message")
        elif failed:
            self.message = "The tool answered with an error; tasks/result gives it."
        else:
            self.message = None
        return True

    def cancel(self, now: float, message: str = "The task was cancelled by request.") -> bool:
        if self.terminal:
            return False
        self.status, self.message, self.updated = CANCELLED, message, now
        return True


def _timestamp(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(
        timespec="milliseconds").replace("+00:00", "Z")


def fields(task: Task, modern: bool) -> dict:
    """The Task object as `modern` (2026-07-28) or 2025-11-25 names its fields."""
    shown = {"taskId": task.task_id, "status": task.status,
             "createdAt": _timestamp(task.created), "lastUpdatedAt": _timestamp(task.updated)}
    if task.message:
        shown["statusMessage"] = task.message
    ttl, poll = round(task.ttl * 1000), round(task.poll_interval * 1000)
    if modern:
        shown.update(ttlMs=ttl, pollIntervalMs=poll)
    else:
        shown.update(ttl=ttl, pollInterval=poll)
    return shown


def created(task: Task, modern: bool) -> dict:
    """The CreateTaskResult answering the tools/call that made the task."""
    return {"resultType": "task", **fields(task, True)} if modern else {"task": fields(task, False)}


def detailed(task: Task, modern: bool) -> dict:
    """tasks/get's answer: the state, and (2026-07-28) the outcome of a finished task."""
    shown = fields(task, modern)
    if modern and task.result is not None:
        shown["result"] = task.result
    elif modern and task.error is not None:
        shown["error"] = task.error
    return shown


def payload(task: Task) -> tuple[dict | None, dict | None]:
    """tasks/result's answer (2025-11-25) for a finished task: (result, None) with the related
    task in its _meta, or (None, error) for an error or a cancelled task."""
    if task.result is not None:
        meta = {**task.result.get("_meta", {}), RELATED_TASK: {"taskId": task.task_id}}
        return {**task.result, "_meta": meta}, None
    if task.error is not None:
        return None, task.error
    return None, {"code": -32602,
                  "message": f"Task {task.task_id} was cancelled, so it has no result."}
