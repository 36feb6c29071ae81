"""The worker pool in-process: real forkserver workers, real sockets, real signals."""

import logging
import os
import signal
import threading
import time

import psutil
import pytest

from protocol.cancel import Cancel
from supervisor.runtime.pool import JobFailed, Pool, WorkerDied


# The pools here keep the production wedge deadline, so that a machine busy with other test runs
# never makes a healthy worker look wedged; the test of that deadline shortens it to 5 s, still
# ten heartbeats.
WEDGE_DEADLINE = 5.0


@pytest.fixture
def pool(worker_context):
    made, preload = worker_context
    pool = Pool(made, 2, teardown_grace=0.5, preload=preload)
    yield pool
    pool.close()


def test_a_noop_job_answers_its_payload(pool):
    assert pool.run("render", "noop", {"x": [1, 2]}) == {"x": [1, 2]}


def test_two_concurrent_first_calls_both_succeed(pool):
    results, errors = [], []

    def call(n):
        try:
            results.append(pool.run("render", "noop", n))
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=call, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == [] and sorted(results) == [0, 1]


def test_a_dead_worker_is_named_with_its_signal_and_replaced(pool):
    with pytest.raises(WorkerDied) as failure:
        pool.run("render", "crash", {"signal": "SIGKILL"})
    message = str(failure.value)
    assert "render worker" in message and "signal 9" in message and "SIGKILL" in message
    assert "crash job" in message
    assert pool.run("render", "noop", "again") == "again"


def test_a_worker_ended_by_sigterm_is_named_with_that_signal(pool):
    with pytest.raises(WorkerDied, match="signal 15"):
        pool.run("render", "crash", {"signal": "SIGTERM"})


def test_worker_log_records_are_re_emitted_by_the_supervisors_logging(pool, caplog):
    with caplog.at_level(logging.WARNING, logger="rendervisor.worker.diagnostic"):
        pool.run("render", "log", "a line from inside")
    records = [r for r in caplog.records if r.name == "rendervisor.worker.diagnostic"]
    assert records and "a line from inside" in records[0].getMessage()
    assert "render worker" in records[0].getMessage()
    assert records[0].process != os.getpid()  # the worker's own pid travelled with it


def test_a_cancelled_job_stops_cooperatively_and_the_worker_is_kept(pool):
    cancel = Cancel()
    threading.Timer(0.3, cancel.cancel).start()
    worker = pool.acquire("render")
    started = time.monotonic()
    with pytest.raises(JobFailed) as failure:
        pool.run("render", "sleep", {"seconds": 30}, cancel=cancel, worker=worker)
    assert failure.value.reason == "cancelled"
    assert time.monotonic() - started < 15  # 0.3 s idle, against the job's 30 s
    assert worker.alive  # a cooperative stop keeps the worker
    assert pool.run("render", "noop", 1, worker=worker) == 1
    pool.release(worker)


def test_a_cancelled_shell_whose_command_closed_its_output_is_stopped_by_the_worker(pool):
    """With its pipes closed the shell task waits on the command's exit alone, and must still
    hear the cancel: its SIGTERM to the group stops the command, the worker answers and is
    kept, rather than killed with the tree after the teardown grace."""
    cancel = Cancel()
    threading.Timer(0.5, cancel.cancel).start()
    worker = pool.acquire("shell")
    started = time.monotonic()
    with pytest.raises(JobFailed) as failure:
        pool.run("shell", "shell", {"command": "exec >/dev/null 2>&1; sleep 30"},
                 cancel=cancel, worker=worker)
    assert failure.value.reason == "cancelled"
    assert time.monotonic() - started < 15  # 0.5 s idle, against the command's 30 s
    assert worker.alive
    assert pool.run("shell", "noop", 1, worker=worker) == 1
    pool.release(worker)


def test_a_job_timeout_is_reported_as_timeout(pool):
    with pytest.raises(JobFailed) as failure:
        pool.run("render", "sleep", {"seconds": 30},
                 cancel=Cancel(deadline=time.monotonic() + 0.3))
    assert failure.value.reason == "timeout"


def test_a_stopped_worker_is_declared_wedged_and_killed_and_one_that_beats_is_not(
        worker_context):
    made, preload = worker_context
    pool = Pool(made, 2, teardown_grace=0.5, preload=preload, wedge_deadline=WEDGE_DEADLINE)
    try:
        # Beside it, a job twice the wedge deadline long lives on its heartbeats (every 0.5 s).
        beating: list = []
        beside = threading.Thread(target=lambda: beating.append(pool.run(
            "render", "sleep", {"seconds": 2 * WEDGE_DEADLINE})))
        beside.start()
        worker = pool.acquire("render")
        threading.Timer(0.3, os.kill, args=(worker.pid, signal.SIGSTOP)).start()
        started = time.monotonic()
        with pytest.raises(JobFailed) as failure:
            pool.run("render", "sleep", {"seconds": 60}, worker=worker)
        # Found by the wedge deadline, not by the job's 60 s: the bound leaves room for a loaded
        # machine.
        assert failure.value.reason == "wedged" and "stopped answering" in str(failure.value)
        assert time.monotonic() - started < WEDGE_DEADLINE + 30
        pool.release(worker)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and psutil.pid_exists(worker.pid) and \
                psutil.Process(worker.pid).status() != psutil.STATUS_ZOMBIE:
            time.sleep(0.05)
        assert not psutil.pid_exists(worker.pid) or \
            psutil.Process(worker.pid).status() == psutil.STATUS_ZOMBIE
        assert pool.run("render", "noop", 2) == 2
        beside.join(60)
        assert beating == [{"slept": True}]
    finally:
        pool.close()


def test_render_capacity_bounds_concurrent_workers(pool):
    started = time.monotonic()
    threads = [threading.Thread(target=pool.run, args=("render", "sleep", {"seconds": 0.5}))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    # Two workers, four half-second jobs: at least two rounds.
    assert time.monotonic() - started >= 0.95


def test_borrowing_an_idle_worker_never_starts_one_and_never_waits(pool):
    """A filmstrip borrows render workers only when they sit idle: with none started yet, and
    with every one busy, the answer is None at once, and nothing is started for it."""
    assert pool.borrow_idle("render") is None
    assert len(pool._all) == 0
    stops = [Cancel(), Cancel()]

    def long_job(stop: Cancel) -> None:
        with pytest.raises(JobFailed):
            pool.run("render", "sleep", {"seconds": 60}, cancel=stop)

    busy = [threading.Thread(target=long_job, args=(stop,)) for stop in stops]
    for thread in busy:
        thread.start()
    deadline = time.monotonic() + 60
    while (len(pool._all) < 2 or pool._idle["render"]) and time.monotonic() < deadline:
        time.sleep(0.02)  # both workers started, and both taken by their jobs
    # None at once: had it waited for a worker, it would have waited for a 60 s job.
    assert pool.borrow_idle("render") is None
    assert all(thread.is_alive() for thread in busy)
    for stop in stops:
        stop.cancel()
    for thread in busy:
        thread.join(60)
    borrowed = pool.borrow_idle("render")
    assert borrowed is not None and borrowed.kind == "render"
    assert pool.run("render", "noop", "on loan", worker=borrowed) == "on loan"
    pool.release(borrowed)
    assert len(pool._all) == 2



def test_a_probe_runs_under_the_probe_memory_limit_and_stops_at_the_probe_deadline(
        worker_context, monkeypatch):
    monkeypatch.setenv("RENDERVISOR_PROBE_DEADLINE", "0.5")
    monkeypatch.setenv("RENDERVISOR_PROBE_MEMORY_MIB", "2048")
    made, preload = worker_context
    pool = Pool(made, 1, teardown_grace=0.5, preload=preload)
    try:
        worker = pool.acquire("probe")
        assert psutil.Process(worker.pid).rlimit(psutil.RLIMIT_AS)[0] == 2048 << 20
        started = time.monotonic()
        with pytest.raises(JobFailed, match=r"ran past the 0\.5 s probe deadline") as failed:
            pool.run("probe", "sleep", {"seconds": 30}, worker=worker)
        assert failed.value.reason == "deadline"
        # The deadline and the teardown grace, with room for a loaded machine.
        assert time.monotonic() - started < 10
        pool.release(worker)
        assert pool.run("probe", "noop", 1) == 1  # a fresh probe worker serves the next
    finally:
        pool.close()


def test_jobs_on_a_kind_with_a_deadline_leave_nothing_on_their_callers_scope(pool):
    """A preview's job runs inside two scopes of its own (the caller's child, and the preview
    deadline's inside it); both let go when the job ends. Five previews left five callbacks
    on the session's scope, one more per preview for the session's life."""
    scope = Cancel()
    for number in range(5):
        assert pool.run("preview", "noop", number, cancel=scope) == number
    assert scope._callbacks == {}
    assert pool.run("render", "noop", "render", cancel=scope) == "render"
    assert scope._callbacks == {}
