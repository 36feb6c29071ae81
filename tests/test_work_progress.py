"""supervisor/work.py: a piece of work's progress reaches its front door only ever growing, from
any number of threads."""

from __future__ import annotations

import threading

from supervisor.cli.display import Bar
from supervisor.work import Work


def test_a_count_below_one_already_passed_on_is_dropped():
    seen = []
    work = Work(report_progress=lambda done, total, message: seen.append((done, message)))
    for done, message in ((1, "a"), (3, "b"), (2, "late"), (3, "again"), (4, "c")):
        work.progress(done, 10, message)
    assert seen == [(1, "a"), (3, "b"), (4, "c")]


def test_reports_crossing_between_threads_still_arrive_in_order():
    seen = []
    work = Work(report_progress=lambda done, total, message: seen.append(done))
    start = threading.Barrier(4)

    def report(first: int) -> None:
        start.wait()
        for done in range(first, 4000, 4):
            work.progress(done, 4000)

    threads = [threading.Thread(target=report, args=(first,)) for first in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == sorted(set(seen)) and seen[-1] == 3999


def test_a_terminals_bar_never_runs_backwards(tmp_path):
    """The CLI's bar counts what it is given: fed through Work, a late lower count is never
    an update below zero."""
    with open(tmp_path / "bar", "w") as stream:
        bar = Bar(stream=stream, out=stream)
        work = Work(report_progress=bar.progress)
        work.progress(5, 10)
        work.progress(3, 10)
        assert bar._bar.n == 5
        work.progress(10, 10)
        assert bar._bar.n == 10
        bar.finished({"items": []})
