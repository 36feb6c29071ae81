"""supervisor/runtime/teardown.py on real processes: what is held is killed and reaped, whatever
the descriptor numbers, and a group stopped for a snapshot never outlives the supervisor."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

import psutil
import pytest

from supervisor.runtime import teardown
from supervisor.runtime.pool import Pool

# How long a killed process may take to be reaped on a loaded machine (it takes milliseconds).
REAPED_WITHIN = 30.0


def wait_until(condition, seconds: float = REAPED_WITHIN) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


@pytest.fixture
def high_descriptors():
    """Occupy descriptors up to past 1023, so the next ones opened (the pidfds) are numbered
    where select.select cannot go: a supervisor with many sessions' files open is there."""
    held = []
    while True:
        fd = os.open(os.devnull, os.O_RDONLY)
        held.append(fd)
        if fd > 1030:
            break
    yield
    for fd in held:
        os.close(fd)


def test_the_reaper_waits_on_pidfds_numbered_past_1023(high_descriptors):
    """The reaper waits for a held process to end on its pidfd; with select.select it died on
    the descriptor's number instead, leaving the pidfd open and the process unreaped."""
    teardown.become_subreaper()
    child = subprocess.Popen(["sleep", "60"])
    held = teardown.snapshot(child.pid)
    assert held and held[0].pidfd > 1023
    killer = threading.Timer(1.0, os.kill, args=(child.pid, signal.SIGKILL))
    killer.start()  # later than the reaper's first look: it finds the process running, waits
    try:
        teardown._reap_held(held, time.monotonic() + REAPED_WITHIN)
    finally:
        killer.join()
    assert held[0].pidfd is None
    assert child.poll() is not None or gone(child.pid)


def test_a_group_stopped_for_a_snapshot_is_killed_when_the_pool_closes(worker_context):
    """A dead worker's command is stopped while it is held, then killed; a supervisor that
    ends between the two (SIGTERM as it holds it) kills it on the way out, instead of leaving
    it stopped, orphaned, for ever."""
    command = subprocess.Popen(["sh", "-c", "sleep 60 & wait"], start_new_session=True)
    try:
        assert wait_until(lambda: len(psutil.Process(command.pid).children()) == 1, 10)
        teardown.frozen_snapshot(command.pid)
        assert wait_until(lambda: psutil.Process(command.pid).status() == psutil.STATUS_STOPPED)
        made, preload = worker_context
        Pool(made, 1, preload=preload).close()
        assert wait_until(lambda: command.poll() == -signal.SIGKILL)
    finally:
        if command.poll() is None:
            os.killpg(command.pid, signal.SIGKILL)
            command.wait()
