"""A short soak in the suite: 10 seconds of mixed load (scripts/soak.py) against a real server.
The long run (`scripts/soak.py --minutes 2`) and its figures are in docs/reliability.md."""

from __future__ import annotations

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECONDS = 10
# Growth allowed from the sample after warm-up (workers started, lanes' threads made) to the
# last one. Python keeps freed memory in its arenas, and the number of workers alive at a
# sample moment varies with the shells in flight; a leak per call (thousands of calls) would
# go far past either bound.
RSS_GROWTH_MB = 40
FD_GROWTH = 16
# The quick lane answers file reads and engine commands in milliseconds here; under a soak on
# a shared 2-core machine a few take tens of milliseconds. A second means something queued
# behind a render or a shell, which the lanes exist to prevent.
QUICK_P99_MS = 1000


def load_soak():
    spec = importlib.util.spec_from_file_location("soak", os.path.join(ROOT, "scripts",
                                                                       "soak.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_short_soak_loses_nothing_and_leaks_nothing(short_tmp_path):
    report = load_soak().run_soak(SECONDS, clients=4, folder=str(short_tmp_path))
    assert report["server_alive"] and report["failures"] == []
    assert report["lost"] == {"unanswered": [], "answered_twice": [],
                              "answered_after_cancel": [], "cancelled_processes_left_running": [],
                              "stdout_lines_not_json": 0}
    assert report["errors"] == {}
    assert report["tmp_left"] == []
    # The load was real: some 2,000 calls and 70 cancels on an idle machine, a sixth of that
    # on one shared with other test runs.
    assert report["calls_served"] > 100
    assert sum(report["cancels"].values()) >= 3
    for tool in ("read_file", "write_file", "list_dir", "doc_inspect", "command_batch"):
        assert report["latency_ms"][tool]["p99"] < QUICK_P99_MS, (tool, report["latency_ms"])
    samples = report["samples"]
    warm = samples[len(samples) // 4]
    last = samples[-1]
    assert last["rss_mb"] <= warm["rss_mb"] + RSS_GROWTH_MB, samples
    assert last["fds"] <= max(s["fds"] for s in samples[: len(samples) // 2]) + FD_GROWTH, samples
