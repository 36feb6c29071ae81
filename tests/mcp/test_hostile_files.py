"""Files built to break what reads them, sent to a real `rendervisor mcp` as an attacker would,
each while a ping goes out every quarter second beside it (the timing the server promises):

- an SVG nested 100,000 deep, which overflows Skia's SVG parser (it killed the server with
  signal 11, and the session, its document and its undo with it);
- a 60 MB SVG of 1.5 million rectangles (pings waited 32 s, SIGTERM took 38 s);
- a WOFF2 font whose data inflates to gigabytes (the server grew by gigabytes);
- eight previews of a comp that takes minutes to draw, each running to its deadline, then a
  file read (answered after 27 s: the previews held every quick-lane thread).

The server must live, answer pings within 100 ms at the 99th percentile and a file read within
200 ms while the hostile work runs, end within its teardown grace and 0.5 s on SIGTERM, and its
memory must stay within 100 MB of where it started.
"""

from __future__ import annotations

import json
import time

import psutil
import pytest

from tests.helpers.hostile_files import big_svg, deep_svg, woff2_bomb, woff2_declaring
from tests.helpers.mcp_process import McpProcess
from tests.mcp.test_preview_deadline import HEAVY

PING_EVERY = 0.25
# A ping or a small read is answered in a millisecond or so while a probe worker parses; parsed
# in the supervisor, the file would hold them for seconds. The bounds leave room for a machine
# shared with other test runs.
PING_P99 = 1.0
READ_WITHIN = 2.0
RSS_GROWTH = 100 * 1024 * 1024
TEARDOWN_GRACE = 1.0
EXIT_MARGIN = 4.0
# Long enough for any honest probe on a loaded machine; the 60 MB SVG takes seconds.
SETTINGS = {"RENDERVISOR_PREVIEW_DEADLINE": "5"}


@pytest.fixture
def session(tmp_path):
    server = McpProcess("--workers", "1", "--teardown-grace", str(TEARDOWN_GRACE),
                        env=SETTINGS)
    server.initialize()
    (tmp_path / "note.txt").write_text("hello\n")
    setup = [{"id": "comp.new", "params": {"name": "Main", "width": 128, "height": 72}},
             {"id": "layer.add", "params": {"comp": "Main", "type": "solid",
                                            "name": "Plate", "color": "#203040"}}]
    assert server.run("command_batch", {"steps": setup})["structuredContent"]["failed"] == 0
    server.rss_at_start = rss(server)
    yield server
    server.stop()


def rss(server) -> int:
    return psutil.Process(server.process.pid).memory_info().rss


def command(server, command_id: str, params: dict):
    return server.call("command_run", {"id": command_id, "params": params})


def text_of(answer: dict) -> str:
    return answer["result"]["content"][0]["text"]


def pings_while(server, call_id, at_most: float, at_least: float = 0.0) -> list[float]:
    """Round trips of pings sent every PING_EVERY s while `call_id` is unanswered (at least
    `at_least` s of them, and no more than `at_most`). One ping is always sent, so a call
    answered before the first ping still has the ping lane measured beside it."""
    times = []
    start = time.monotonic()
    while time.monotonic() - start < at_most:
        if times and time.monotonic() - start >= at_least and server.answers(call_id):
            break
        sent = time.monotonic()
        server.wait_for(server.request("ping"), timeout=30)
        times.append(time.monotonic() - sent)
        time.sleep(PING_EVERY)
    return times


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def read_time(server, path) -> float:
    sent = time.monotonic()
    answer = server.wait_for(server.call("read_file", {"path": str(path)}), timeout=30)
    assert answer["result"]["content"][0]["text"] == "hello\n", answer
    return time.monotonic() - sent


def assert_one_sentence(text: str, *fragments: str) -> None:
    assert "\n" not in text.strip() and "Traceback" not in text, text
    for fragment in fragments:
        assert fragment in text, text


def test_an_svg_nested_past_any_parser_is_one_sentence_and_the_session_lives(session,
                                                                               tmp_path):
    deep = deep_svg(tmp_path / "deep.svg")
    answer = session.wait_for(command(session, "footage.import", {"path": deep}), timeout=60)
    assert answer["result"]["isError"] is True
    assert_one_sentence(text_of(answer), "cannot import", "deep.svg", "nest more than")
    # The session lives: its document, its undo, and the next import.
    assert session.process.poll() is None
    undone = session.run("command_run", {"id": "edit.undo", "params": {}})
    assert undone["structuredContent"]["undone"] == ["Add a layer"], undone
    ok = tmp_path / "ok.svg"
    ok.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
                  '<rect width="10" height="10"/></svg>')
    imported = session.run("command_run", {"id": "footage.import", "params": {"path": str(ok)}})
    assert imported["structuredContent"]["kind"] == "vector"
    assert (imported["structuredContent"]["width"], imported["structuredContent"]["height"]) \
        == (40, 20)
    assert rss(session) - session.rss_at_start < RSS_GROWTH


def test_a_60_mb_svg_never_holds_a_ping_a_read_or_sigterm(session, tmp_path):
    big = big_svg(tmp_path / "big.svg")
    importing = command(session, "footage.import", {"path": big})
    times = pings_while(session, importing, at_most=3.0, at_least=1.0)
    reads = [read_time(session, tmp_path / "note.txt") for _ in range(3)]
    still_importing = not session.answers(importing)
    assert p99(times) < PING_P99, times
    assert max(reads) < READ_WITHIN, reads
    assert rss(session) - session.rss_at_start < RSS_GROWTH
    sent = time.monotonic()
    session.process.terminate()
    assert session.process.wait(30) == 0
    took = time.monotonic() - sent
    if still_importing:  # the parse outlasted the samples (it does but on the fastest machine)
        assert took < TEARDOWN_GRACE + EXIT_MARGIN, took


def test_a_cancelled_60_mb_svg_import_leaves_nothing_waiting(session, tmp_path):
    big = big_svg(tmp_path / "big.svg")
    importing = command(session, "footage.import", {"path": big})
    pings_while(session, importing, at_most=1.0, at_least=1.0)
    session.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                  "params": {"requestId": importing}})
    sent = time.monotonic()
    session.wait_for(session.request("ping"), timeout=30)
    assert time.monotonic() - sent < PING_P99
    ok = tmp_path / "ok.svg"
    ok.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"/>')
    imported = session.run("command_run", {"id": "footage.import", "params": {"path": str(ok)}})
    assert imported["structuredContent"]["kind"] == "vector"
    assert session.answers(importing) == []


def test_a_font_bomb_is_refused_by_its_sizes_and_the_server_does_not_grow(session, tmp_path):
    for font, fragments in ((woff2_bomb(tmp_path / "bomb.woff2", 256 << 20),
                             ("bomb.woff2", "unpacks to more than")),
                            (woff2_declaring(tmp_path / "huge.woff2", 3 << 30),
                             ("huge.woff2", "declares 3,221,225,472 bytes"))):
        adding = command(session, "layer.add", {"comp": "Main", "type": "text", "text": "Hi",
                                                "fontFile": font})
        times = pings_while(session, adding, at_most=30.0)
        answer = session.wait_for(adding, timeout=30)
        assert answer["result"]["isError"] is True
        assert_one_sentence(text_of(answer), "fontFile", *fragments)
        assert p99(times) < PING_P99, times
    assert rss(session) - session.rss_at_start < RSS_GROWTH
    layers = session.run("command_run", {"id": "layer.list", "params": {"comp": "Main"}})
    assert [layer["name"] for layer in layers["structuredContent"]["layers"]] == ["Plate"]


def test_eight_previews_at_their_deadline_never_delay_a_file_read(session, tmp_path):
    heavy = session.run("command_batch", {"steps": HEAVY})
    assert heavy["structuredContent"]["failed"] == 0, heavy
    previews = [session.call("render_preview", {"comp": "Heavy", "frame": frame,
                                                "max_side": 0}) for frame in range(8)]
    times = pings_while(session, previews[0], at_most=2.0, at_least=2.0)
    reads = [read_time(session, tmp_path / "note.txt") for _ in range(3)]
    assert not session.answers(previews[-1])  # the last still waits for the preview worker
    assert p99(times) < PING_P99, times
    assert max(reads) < READ_WITHIN, reads
    first = session.wait_for(previews[0], timeout=60)
    assert first["result"]["isError"] is True
    assert_one_sentence(text_of(first), "preview deadline")
    assert rss(session) - session.rss_at_start < RSS_GROWTH


def test_a_probe_past_its_deadline_is_one_sentence_and_imports_go_on(tmp_path):
    server = McpProcess("--workers", "1", env={"RENDERVISOR_PROBE_DEADLINE": "0.5"})
    try:
        server.initialize()
        big = big_svg(tmp_path / "big.svg")
        answer = server.wait_for(server.call("command_run", {
            "id": "footage.import", "params": {"path": big}}), timeout=60)
        assert_one_sentence(text_of(answer), "big.svg", "0.5 s probe deadline")
        ok = tmp_path / "ok.svg"
        ok.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"/>')
        imported = server.run("command_run", {"id": "footage.import",
                                              "params": {"path": str(ok)}})
        assert json.loads(imported["content"][0]["text"])["kind"] == "vector"
    finally:
        server.stop()


def test_a_probe_past_its_memory_limit_is_one_sentence_naming_the_limit(tmp_path):
    zeros = tmp_path / "zeros.json"  # 50 MB: 25 million numbers once parsed
    zeros.write_text('{"fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": ['
                     + "0," * 25_000_000 + "0]}")
    server = McpProcess("--workers", "1", env={"RENDERVISOR_PROBE_MEMORY_MIB": "640"})
    try:
        server.initialize()
        answer = server.wait_for(server.call("command_run", {
            "id": "footage.import", "params": {"path": str(zeros)}}), timeout=120)
        assert_one_sentence(text_of(answer), "zeros.json", "more than the 640 MiB a probe may "
                                                           "use")
        assert server.run("command_run", {"id": "comp.new", "params": {"name": "Next"}})[
            "isError"] is False
    finally:
        server.stop()
