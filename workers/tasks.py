"""The tasks a worker can run, by name. A task is `function(job) -> result` (msgpack-able).

A task raises `TaskError` with a sentence for a person when it fails on bad input; anything
else is reported as an internal failure of the task, named, without a traceback reaching the
client. Modules register their tasks here on import; the worker loop imports them all.
"""

from __future__ import annotations

from typing import Callable

TASKS: dict[str, Callable] = {}


class TaskError(Exception):
    """A task failed in a way the caller can act on; the message is the report."""


def task(name: str) -> Callable:
    def register(function: Callable) -> Callable:
        TASKS[name] = function
        return function
    return register


@task("noop")
def noop(job):
    """Answers at once: the round trip of the pipe itself, for tests and benchmarks."""
    return job.payload


@task("sleep")
def sleep(job):
    """Sleeps in small steps, stopping early on cancel: a stand-in long job for tests."""
    import time
    deadline = time.monotonic() + float(job.payload.get("seconds", 1))
    while time.monotonic() < deadline:
        job.check_cancelled()
        time.sleep(0.01)
    return {"slept": True}


@task("crash")
def crash(job):
    """Kills its own worker with a signal: how tests see a worker dying mid-job."""
    import os
    import signal
    os.kill(os.getpid(), getattr(signal, job.payload.get("signal", "SIGKILL")))


@task("log")
def log_line(job):
    """Logs one line in the worker: how tests see worker logs reach the supervisor's logging."""
    import logging
    logging.getLogger("rendervisor.worker.diagnostic").warning("%s", job.payload)
    return True
