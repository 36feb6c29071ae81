"""search_files' content search through a real `rendervisor mcp`: no pattern can hold the
server, and a search is cancellable and bounded like any job.

Python's re backtracks: `^(a+)+$` on a line of forty a's and a '!' runs for hours while holding
the interpreter lock, so a ping, a cancel, stdin's end and SIGTERM all went unanswered. These
tests send what froze it and check that everything around the search still answers.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import time

import pytest

from tests.helpers.mcp_process import McpProcess

BACKTRACKING = "^(a+)+$"  # exponential for a backtracking engine on a's followed by a '!'
# Slow for any engine: RE2's linear-time matcher must follow about a thousand states per byte
# here, so a line of 16,000 random a's and b's takes about 0.07 s, and a file of them far longer
# than the search deadline. (Python's re takes minutes per line.)
SLOW = r"(a|b)*a(a|b){1000}c"


def slow_file(path) -> None:
    """640 lines of 16,000 random a's and b's (10.2 MB, under the 10 MiB a search reads): some
    45 s of searching here. A line is no longer than the 16,660 bytes this pattern searches of
    one, so each is searched whole: 200 lines of 40,000 were searched in their first 33,091
    bytes only, about 20 s in all, twice the deadline."""
    a_or_b = bytes(b"ab"[byte & 1] for byte in range(256))
    noise = random.Random(11).randbytes(640 * 16_000).translate(a_or_b)
    with open(path, "wb") as handle:
        for start in range(0, len(noise), 16_000):
            handle.write(noise[start:start + 16_000] + b"\n")


@pytest.fixture
def start_server():
    servers = []

    def start(*args: str) -> McpProcess:
        server = McpProcess(*args)
        servers.append(server)
        server.initialize()
        return server

    yield start
    for server in servers:
        # Killed if SIGTERM does not end it: a server wedged by a search answers no signal, and
        # a failing run must not leave it spinning on the machine.
        server.process.terminate()
        try:
            server.process.wait(5)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(10)


def test_a_backtracking_pattern_never_holds_a_ping(start_server, tmp_path):
    (tmp_path / "lines.txt").write_text("a" * 40 + "!\n" + "a" * 40 + "\n")
    server = start_server()
    search = server.call("search_files", {"path": str(tmp_path), "content": BACKTRACKING})
    for pause in (0.0, 0.5):
        time.sleep(pause)
        # 2 s: a ping is answered by the reader itself and waits on no work, so only a search
        # holding the interpreter could keep it waiting (the old one would for hours).
        server.wait_for(server.request("ping"), timeout=2)
    answer = server.wait_for(search, timeout=10)["result"]
    assert answer["isError"] is False, answer
    assert answer["structuredContent"]["results"] == [
        {"path": str(tmp_path / "lines.txt"), "matches": [{"line": 2, "text": "a" * 40}]}]


def test_a_cancelled_search_frees_its_lane_at_once(start_server, tmp_path):
    slow_file(tmp_path / "slow.txt")
    (tmp_path / "note.txt").write_text("still readable\n")
    # One quick-lane thread: the read can only run once the cancelled search has let go of it.
    server = start_server("--max-inflight", "1")
    search = server.call("search_files", {"path": str(tmp_path), "content": SLOW})
    time.sleep(0.5)
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                 "params": {"requestId": search}})
    read = server.call("read_file", {"path": str(tmp_path / "note.txt")})
    # 8 s: under the search's own 10 s deadline and its minute, well over the one line in
    # flight when the cancel arrives (a fraction of a second idle, seconds on a busy machine).
    answer = server.wait_for(read, timeout=8)
    assert answer["result"]["content"][0]["text"] == "still readable\n"
    assert server.answers(search) == []


def test_sigterm_during_a_search_ends_the_server_promptly(start_server, tmp_path):
    slow_file(tmp_path / "slow.txt")
    server = start_server()
    search = server.call("search_files", {"path": str(tmp_path), "content": SLOW})
    time.sleep(0.5)
    server.process.terminate()
    # The teardown grace (1 s) and the exit margin, with room for a loaded machine.
    assert server.process.wait(5) == 0
    assert server.answers(search) == []


def test_stdin_closed_during_a_search_ends_the_server_after_the_join_grace(start_server,
                                                                           tmp_path):
    slow_file(tmp_path / "slow.txt")
    server = start_server("--join-grace", "1")
    server.call("search_files", {"path": str(tmp_path), "content": SLOW})
    time.sleep(0.5)
    server.close_stdin()
    # Join grace 1 s, then the teardown grace (1 s) and the margin, on a loaded machine.
    assert server.process.wait(6) == 0


def test_a_search_past_its_deadline_returns_what_it_found_with_a_note(start_server, tmp_path):
    (tmp_path / "0_hit.txt").write_text("a" + "b" * 1000 + "c\n")
    slow_file(tmp_path / "1_slow.txt")
    # The same file under four more names (links: no more disk): some four minutes of searching
    # here, so a machine many times faster still meets the deadline before the search ends.
    for number in range(2, 6):
        os.link(tmp_path / "1_slow.txt", tmp_path / f"{number}_slow.txt")
    server = start_server()
    started = time.monotonic()
    answer = server.run("search_files", {"path": str(tmp_path), "content": SLOW}, timeout=40)
    took = time.monotonic() - started
    found = answer["structuredContent"]
    assert answer["isError"] is False, answer
    assert [r["path"] for r in found["results"]] == [str(tmp_path / "0_hit.txt")]
    assert found["truncated"] is True
    assert "deadline" in found["note"] and re.search(r"[1-5]_slow\.txt", found["note"])
    # The deadline is 10 s; the search itself would take minutes. The upper bound leaves room
    # for a machine shared with other test runs.
    assert 9 < took < 40


def test_a_line_longer_than_the_pattern_searches_is_searched_in_its_start_and_noted(
        start_server, tmp_path):
    (tmp_path / "long.txt").write_text("x" * 6_000_000 + "needle\nneedle\n")
    server = start_server()
    found = server.run("search_files", {"path": str(tmp_path),
                                        "content": "needle"})["structuredContent"]
    assert found["results"] == [{"path": str(tmp_path / "long.txt"),
                                 "matches": [{"line": 2, "text": "needle"}]}]
    assert "1 line" in found["note"] and "long.txt" in found["note"]


def test_a_long_line_within_what_the_pattern_searches_is_searched_whole(start_server,
                                                                        tmp_path):
    (tmp_path / "long.txt").write_text("x" * 500_000 + "needle\n")
    server = start_server()
    found = server.run("search_files", {"path": str(tmp_path),
                                        "content": "needle$"})["structuredContent"]
    assert [m["line"] for m in found["results"][0]["matches"]] == [1]
    assert "note" not in found
