"""The session's tasks: tool calls answered with a task id at once and followed by polling, so
a render outlives any host's request timeout.

    tools/call {task} (2025-11-25) ──────────────┐
    a call still running after TASK_AFTER        ├─► TaskStore.create ─► the call runs on its
      (2026-07-28, client declared the extension)┘        lane as any call; its answer, its
                                                          progress and its cancel go to the task
    tasks/get, tasks/list ─► the task's state          tasks/cancel ─► the call's cancel scope
    tasks/result (2025-11-25) ─► the outcome, once the task ended (the answer waits, off the
                                 reader thread)

The work itself is an ordinary call (supervisor/mcp/server.py): same lanes, same cancel scope,
same end of session (a render task runs to its end when stdin closes; other tasks get the join
grace). This module only keeps the tasks, bounded by MAX_TASKS and their time to live, and tells
waiters and listeners when one ends. Task ids are unguessable (secrets.token_urlsafe): on stdio
the one client that holds the pipe is the only requestor, and an id is all it needs.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any, Callable

from protocol.wire import tasks as wire

# Tasks kept at once, working or ended. A task costs its result (a render's report, a shell's
# capped output: tens of KB at most); 32 covers an agent fanning out renders, shells and
# filmstrips, and a client that never fetches results is refused a 33rd with a sentence instead
# of growing the server without bound.
MAX_TASKS = 32
# How long an ended task's result is kept after it ends, at least (its TTL grows to cover it).
# Long enough for a host that polls every few minutes; short enough that results nobody fetches
# go away within the session.
TASK_RETENTION = 600.0
# The longest time to live a client may ask for; longer asks are shortened to it.
MAX_TTL = 3600.0
# Suggested seconds between polls: a render's state moves every frame, but an agent gains
# nothing from polling faster than this.
POLL_INTERVAL = 1.0
# 2026-07-28: a call of a tool that may run as a task, still running after this many seconds,
# is answered with a task. Shorter turns quick shells into tasks (two more round trips); longer
# keeps a host waiting on a request it may time out.
TASK_AFTER = 2.0


class TaskStore:
    def __init__(self, on_status: Callable[[wire.Task], None]) -> None:
        # on_status(task): a task ended (or was cancelled); the server tells whoever listens.
        self._on_status = on_status
        self._tasks: dict[str, wire.Task] = {}
        self._waiters: dict[Any, tuple[str, Callable[[wire.Task], None]]] = {}
        # Ended tasks whose outcome the client has (a result fetched, a cancel it asked for):
        # the first to make room when the store is full, so a client that fetches what it
        # starts is never refused a task.
        self._delivered: set[str] = set()
        self._lock = threading.Lock()

    def create(self, modern: bool, ttl_ms: Any = None) -> wire.Task | str:
        """A new working task, or a sentence saying why none can be made now."""
        now = time.time()
        ttl = MAX_TTL if not _is_number(ttl_ms) else min(MAX_TTL, max(1.0, ttl_ms / 1000))
        with self._lock:
            self._purge(now)
            for task_id in [key for key in self._tasks if key in self._delivered]:
                if len(self._tasks) < MAX_TASKS:
                    break
                self._forget(task_id)
            if len(self._tasks) >= MAX_TASKS:
                working = sum(not task.terminal for task in self._tasks.values())
                return (f"rendervisor keeps {MAX_TASKS} tasks at once and holds {MAX_TASKS} "
                        f"({working} working); an ended task's result is kept "
                        f"{TASK_RETENTION:g} s after it ends, until it is fetched. Fetch "
                        "results (tasks/result) or cancel some, or call without a task.")
            task = wire.Task(secrets.token_urlsafe(16), modern, now, ttl, POLL_INTERVAL)
            self._tasks[task.task_id] = task
            return task

    def get(self, task_id: Any) -> wire.Task | None:
        with self._lock:
            self._purge(time.time())
            return self._tasks.get(task_id) if isinstance(task_id, str) else None

    def all(self) -> list[wire.Task]:
        with self._lock:
            self._purge(time.time())
            return list(self._tasks.values())

    def progress(self, task: wire.Task, progress: float, total: float | None,
                 message: str | None) -> None:
        done = f"{progress:g}/{total:g}" if total else f"{progress:g}"
        with self._lock:
            task.progress(f"{done}: {message}" if message else done)

    def finish(self, task: wire.Task, result: dict | None = None,
               error: dict | None = None) -> None:
        """The call ended with `result` (or a JSON-RPC `error`): the task ends so, unless it was
        cancelled first, and its result is kept TASK_RETENTION from now at least."""
        now = time.time()
        with self._lock:
            if not task.finish(now, result, error):
                return
            task.ttl = max(task.ttl, now - task.created + TASK_RETENTION)
        self._ended(task)

    def cancel(self, task: wire.Task, message: str | None = None) -> bool:
        with self._lock:
            cancelled = task.cancel(time.time(), *(() if message is None else (message,)))
        if cancelled:
            self._ended(task)
        return cancelled

    # -- tasks/result (2025-11-25): the answer waits for the end, off the reader thread ------

    def when_ended(self, request_id: Any, task: wire.Task,
                   answer: Callable[[wire.Task], None]) -> None:
        """Call `answer(task)` once the task has ended: now if it has. The task's outcome is
        then the client's (delivered)."""
        with self._lock:
            if not task.terminal:
                self._waiters[request_id] = (task.task_id, answer)
                return
            self._delivered.add(task.task_id)
        answer(task)

    def delivered(self, task: wire.Task) -> None:
        """The client has the ended task's outcome (a 2026 tasks/get shows the result; a
        tasks/cancel it asked for): the task may make room for another."""
        with self._lock:
            if task.terminal and task.task_id in self._tasks:
                self._delivered.add(task.task_id)

    def forget_wait(self, request_id: Any) -> bool:
        """A tasks/result the client cancelled: it gets no answer. Whether it was waiting."""
        with self._lock:
            return self._waiters.pop(request_id, None) is not None

    def _ended(self, task: wire.Task) -> None:
        with self._lock:
            waiting = [key for key, (task_id, _) in self._waiters.items()
                       if task_id == task.task_id]
            answers = [self._waiters.pop(key)[1] for key in waiting]
            if answers:
                self._delivered.add(task.task_id)
        for answer in answers:
            answer(task)
        self._on_status(task)

    def _purge(self, now: float) -> None:
        """Forget ended tasks past their time to live; a working task is never forgotten."""
        for task_id in [key for key, task in self._tasks.items()
                        if task.terminal and now > task.created + task.ttl]:
            self._forget(task_id)

    def _forget(self, task_id: str) -> None:
        del self._tasks[task_id]
        self._delivered.discard(task_id)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value
