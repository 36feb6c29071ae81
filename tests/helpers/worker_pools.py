"""The one forkserver context the tests' in-process pools share: this test process becomes a
subreaper and starts the forkserver once, as `rendervisor mcp` does before its first thread,
with the workers' modules and the test-only tasks (worker_tasks.py) preloaded."""

from __future__ import annotations

from supervisor.runtime import teardown
from supervisor.runtime.pool import make_context, worker_preload

TEST_TASKS = "tests.helpers.worker_tasks"
_context: list = []


def pool_context():
    """(context, preload) for an in-process Pool; the same pair for the whole test run (the
    forkserver is one per process, started with the preload it was first given)."""
    if not _context:
        teardown.become_subreaper()
        preload = worker_preload() + (TEST_TASKS,)
        _context.append((make_context(preload), preload))
    return _context[0]
