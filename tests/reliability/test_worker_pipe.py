"""A worker that breaks its own pipe: garbage, an oversized frame, a frame of an unknown kind, a
malformed log record, half a frame and then silence. Each time its job fails with a sentence
naming the worker, the worker and everything under it are gone, a replacement takes its place,
and the next job of that kind succeeds. Real forkserver workers, real sockets (the `misbehave`
task in workers/tasks.py writes the bytes)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time

import psutil
import pytest

from protocol.cancel import Cancel
from supervisor.runtime import teardown
from supervisor.runtime.pool import JobFailed, Pool
from tests.helpers.process_tree import processes_running, sleep_marker


def within(seconds: float) -> Cancel:
    """A job's scope that stops it after `seconds` (a bound on a test that would hang)."""
    return Cancel(deadline=time.monotonic() + seconds)


# A worker that wrote half a frame and went quiet is found by the wedge deadline; 5 s instead of
# the production 30 s keeps that test short, and is still ten heartbeats (0.5 s) long, so a busy
# machine does not make a healthy worker look wedged. The other tests keep the production one.
WEDGE_DEADLINE = 5.0
# How long a killed worker may take to disappear from the process table: a moment idle, a few
# seconds on a machine shared with other test runs.
GONE_WITHIN = 15.0


@pytest.fixture
def pool(worker_context):
    yield from closed_after(Pool(worker_context[0], 1, teardown_grace=0.5,
                                 preload=worker_context[1]))


@pytest.fixture
def quickly_wedged_pool(worker_context):
    yield from closed_after(Pool(worker_context[0], 1, teardown_grace=0.5,
                                 preload=worker_context[1], wedge_deadline=WEDGE_DEADLINE))


def closed_after(pool: Pool):
    yield pool
    workers = [worker.pid for worker in list(pool._all)]
    pool.close()
    assert gone_within(workers, GONE_WITHIN), "a worker outlived the pool"


def gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if teardown.all_gone(pids) and not zombies_of_ours(pids):
            return True
        time.sleep(0.05)
    return False


def new_zombie_children(before: set[int]) -> list[int]:
    """Zombie children of this test process that were not zombies already at `before`
    (zombie_children() taken when the test began). Earlier tests' servers leave their
    forkservers here as zombies (this process is a subreaper for the in-process pools), which
    no code under test owns; a test answers only for the ones that appear while it runs."""
    return [pid for pid in zombie_children() if pid not in before]


GARBAGE = b"\xc1" * 32  # what the misbehave task writes: 0xc1 is never valid msgpack


def waiting_bytes(sock: socket.socket) -> bytes:
    """What is waiting to be read on a worker's socket, left there."""
    try:
        return sock.recv(1 << 16, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return b""


def zombie_children() -> set[int]:
    return set(zombies_of_ours([p.pid for p in psutil.Process().children()]))


def zombies_of_ours(pids: list[int]) -> list[int]:
    """Zombies we own are a leak too: the subreaper must have reaped them."""
    found = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                found.append(pid)
        except psutil.NoSuchProcess:
            continue
    return found


def run_misbehaving(pool: Pool, kind: str, mode: str) -> tuple[JobFailed, list[int]]:
    """Run the misbehave task on a worker of `kind`; the failure and the worker's tree."""
    worker = pool.acquire(kind)
    tree = [worker.pid] + [p.pid for p in psutil.Process(worker.pid).children(recursive=True)]
    try:
        with pytest.raises(JobFailed) as failure:
            pool.run(kind, "misbehave", {"mode": mode}, worker=worker, cancel=within(60))
    finally:
        pool.release(worker)
    return failure.value, tree


@pytest.mark.parametrize("kind", ["render", "preview", "shell"])
@pytest.mark.parametrize("mode", ["garbage", "oversized", "unknown_kind", "bad_log"])
def test_a_worker_writing_a_bad_frame_is_killed_replaced_and_its_job_fails_by_name(pool, kind,
                                                                                   mode):
    failure, tree = run_misbehaving(pool, kind, mode)
    message = str(failure)
    assert f"{kind} worker" in message and "bad frame" in message, message
    assert "Traceback" not in message
    assert failure.reason == "died"
    assert gone_within(tree, GONE_WITHIN)
    assert pool.run(kind, "noop", "next job") == "next job"


def test_half_a_frame_then_silence_is_declared_wedged_and_the_worker_replaced(
        quickly_wedged_pool):
    pool = quickly_wedged_pool
    started = time.monotonic()
    failure, tree = run_misbehaving(pool, "render", "truncated")
    assert failure.reason == "wedged"
    assert "render worker" in str(failure) and "stopped answering" in str(failure)
    # Found by the wedge deadline, not by a hang: the bound is the deadline plus a margin for a
    # loaded machine.
    assert time.monotonic() - started < WEDGE_DEADLINE + 30
    assert gone_within(tree, GONE_WITHIN)
    assert pool.run("render", "noop", 1) == 1


def test_a_result_over_the_frame_limit_fails_its_job_and_the_worker_stays(pool):
    worker = pool.acquire("render")
    try:
        with pytest.raises(JobFailed) as failure:
            pool.run("render", "misbehave", {"mode": "huge_result"}, worker=worker, cancel=within(60))
        assert "could not be sent" in str(failure.value) and "limit" in str(failure.value)
        assert failure.value.reason != "died"
        # The worker refused to send it, so the pipe is intact and the same worker goes on.
        assert pool.run("render", "noop", "same worker", worker=worker) == "same worker"
    finally:
        pool.release(worker)


def test_the_pool_carries_on_after_every_kind_of_bad_frame_in_a_row(pool):
    dead = []
    for mode in ["garbage", "oversized", "unknown_kind", "bad_log", "garbage"]:
        failure, tree = run_misbehaving(pool, "render", mode)
        assert failure.reason == "died"
        dead += tree
    results = [pool.run("render", "noop", n) for n in range(5)]
    assert results == list(range(5))
    assert gone_within(dead, GONE_WITHIN)
    assert len([w for w in pool._all if w.kind == "render"]) <= pool.render_count


def test_a_worker_killed_while_idle_gives_its_place_to_a_replacement(pool):
    assert pool.run("render", "noop", 1) == 1
    (idle,) = pool._idle["render"]
    os.kill(idle.pid, signal.SIGKILL)
    assert gone_within([idle.pid], GONE_WITHIN)
    results: list = []
    for n in range(2):  # the pool's only render place must still be usable, twice
        runner = threading.Thread(target=lambda n=n: results.append(pool.run("render", "noop", n)),
                                  daemon=True)
        runner.start()
        runner.join(30)  # a fresh worker starts in well under a second; a lost place hangs
        assert not runner.is_alive(), "the dead worker's place was never given back"
    assert results == [0, 1]
    assert idle.sock.fileno() == -1, "the dead worker's socket was left open"


def test_a_worker_killed_before_reading_its_job_is_reported_dead_not_as_a_socket_error(pool):
    worker = pool.acquire("render")
    outcome: list = []

    def run() -> None:
        try:
            outcome.append(pool.run("render", "noop", 1, worker=worker))
        except Exception as exc:  # the kind of failure is what this test is about
            outcome.append(exc)

    try:
        os.kill(worker.pid, signal.SIGSTOP)  # the job frame will sit unread in its socket
        runner = threading.Thread(target=run, daemon=True)
        runner.start()
        time.sleep(0.3)
        # Killed with unread data: Linux resets the connection (ECONNRESET), not a plain EOF.
        os.kill(worker.pid, signal.SIGKILL)
        runner.join(30)
        assert not runner.is_alive()
    finally:
        pool.release(worker)
    (failure,) = outcome
    assert isinstance(failure, JobFailed) and failure.reason == "died", repr(failure)
    assert "render worker" in str(failure) and "signal 9" in str(failure)
    assert pool.run("render", "noop", 2) == 2


def test_a_command_whose_worker_died_before_naming_it_is_killed_and_reaped(pool):
    # The shell worker's race: its command started, in a session of its own, and the worker
    # died before its pid reached us. The command re-parents to us (the subreaper) unnamed.
    marker = sleep_marker(61).split()[1]
    zombies_before = zombie_children()
    with pytest.raises(JobFailed) as failure:
        pool.run("shell", "misbehave", {"mode": "orphan", "seconds": marker}, cancel=within(60))
    assert failure.value.reason == "died"
    deadline = time.monotonic() + GONE_WITHIN
    while processes_running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_running(marker) == [], "the command outlived its worker"
    assert new_zombie_children(zombies_before) == []


def test_a_worker_that_breaks_its_pipe_while_idle_costs_the_next_job_nothing(pool):
    assert pool.run("render", "misbehave", {"mode": "garbage_later"}) == {"answered": True}
    (broken,) = pool._idle["render"]
    # The garbage arrives 0.2 s after the answer, while the worker is idle: once it is on the
    # socket (peeked at, left for the pool to find), the next job must not be the one to
    # find out.
    deadline = time.monotonic() + 60
    while GARBAGE not in waiting_bytes(broken.sock):
        assert time.monotonic() < deadline, "the worker never wrote its garbage"
        time.sleep(0.02)
    # It runs on a sound replacement.
    assert pool.run("render", "noop", "innocent") == "innocent"
    assert gone_within([broken.pid], GONE_WITHIN)


def test_a_shell_killed_between_two_commands_leaves_neither_running_nor_a_zombie(pool):
    # A shell that starts commands back to back: when its worker is killed, the command it
    # starts between our snapshot of its tree and our kill would be in no snapshot.
    marker = sleep_marker(0).split()[1]  # 0.PPPPPPP s: back to back
    command = f"while :; do setsid sleep {marker} & sleep {marker}; wait; done"
    zombies_before = zombie_children()
    for _ in range(20):  # the window is short: many tries make a miss all but certain
        worker = pool.acquire("shell")
        runner = threading.Thread(target=lambda: pytest.raises(
            JobFailed, pool.run, "shell", "shell", {"command": command}, worker=worker),
            daemon=True)
        runner.start()
        deadline = time.monotonic() + 10
        while not processes_running(marker) and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)
        os.kill(worker.pid, signal.SIGKILL)
        runner.join(30)
        pool.release(worker)
    deadline = time.monotonic() + GONE_WITHIN
    while processes_running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_running(marker) == []
    time.sleep(0.5)
    assert new_zombie_children(zombies_before) == []


def test_a_killed_group_leaves_none_of_its_members_our_zombie_even_unheld(worker_context):
    # The rare race above, made certain: a shell whose children are in no snapshot (held is
    # the leader alone, as when it forks between the snapshot and the kill). Killed with its
    # group, the children re-parent to us (a subreaper) and must still be reaped.
    marker = sleep_marker(30).split()[1]
    shell = subprocess.Popen(["sh", "-c", f"sleep {marker} & sleep {marker} & wait"],
                             start_new_session=True)
    def sleeps() -> list[int]:
        return [process.pid for process in processes_running(marker)
                if process.pid != shell.pid]

    deadline = time.monotonic() + 10
    while len(sleeps()) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    members = sleeps()
    assert len(members) == 2
    teardown.kill_and_reap([teardown.Held(shell.pid, None)], (shell.pid,))
    deadline = time.monotonic() + GONE_WITHIN
    while time.monotonic() < deadline and (zombies_of_ours(members) or
                                           processes_running(marker)):
        time.sleep(0.05)
    assert processes_running(marker) == []
    assert zombies_of_ours(members) == []
    shell.returncode = -signal.SIGKILL  # reaped by the reaper, not by Popen
