"""The tasks a worker can run, by name. A task is `function(job) -> result` (msgpack-able).

A task raises `TaskError` with a sentence for a person when it fails on bad input; anything
else is reported as an internal failure of the task, named, without a traceback reaching the
client. Modules register their tasks here on import; the worker loop imports them all.
"""

from __future__ import annotations

from typing import Callable

from protocol.wire.frames import TASK_ERROR

TASKS: dict[str, Callable] = {}

# Every module that registers tasks: the worker loop imports them all (workers/worker_main.py),
# and the supervisor's forkserver preloads them (supervisor/runtime/pool.py's WORKER_MODULES),
# never the supervisor's own threads. The one list: a module of tasks left off it is a test
# failure (tests/runtime/test_worker_modules.py).
TASK_MODULES = ("workers.shell_runner", "workers.render_tasks", "workers.chunk_task",
                "workers.audio_task", "workers.layout_checks", "workers.expression_tasks",
                "workers.interchange.tasks", "workers.probes.tasks", "workers.estimate_task")


class TaskError(Exception):
    """A task failed in a way the caller can act on; the message is the report, and `type`
    (one of protocol/wire/frames.py's ERROR_TYPES) what kind of failure it is."""

    type = TASK_ERROR


def task(name: str) -> Callable:
    def register(function: Callable) -> Callable:
        TASKS[name] = function
        return function
    return register


@task("noop")
def noop(job):
    """Answers at once: the round trip of the pipe itself (scripts/bench_frontdoor.py measures
    it; tests use it as a worker's "are you there")."""
    return job.payload
