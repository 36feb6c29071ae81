"""Hostile input at the front door, against one long-lived real `rendervisor mcp`.

Each hypothesis example sends a handful of lines: random bytes, truncated and oversized lines,
invalid UTF-8, requests with a field replaced by a value of the wrong type, deep nesting, huge
and duplicate ids, notifications carrying ids, responses sent to the server, batches. After each
example the server must still be running, must answer a ping with a fresh id, must have answered
every request that had a usable id exactly once (a line it cannot parse, a response and a batch
never), and every line it wrote must be JSON.

Ids are made fresh by a counter at send time (never drawn by hypothesis, which replays and
shrinks examples), so answers can be counted per id across the whole module. The server is
confined to a temporary folder: a fuzzed tool call can neither start a shell nor write outside.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.wire import jsonrpc

# Bounded for CI: the whole module runs in well under a minute. A long run sets the number of
# examples per property: `FUZZ_EXAMPLES=5000 pytest -s tests/reliability/test_frontdoor_fuzz.py`
# (-s shows the tally of lines sent and answers counted).
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.data_too_large])
# How long an answer may take: the quick lane answers fuzzed calls in milliseconds, but the
# machine is shared with other test runs; a missing answer, not a slow one, is the failure.
ANSWER_WITHIN = 30.0

MODERN_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": {},
               "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "1"}}

_fresh = itertools.count(1)


def fresh_id(shape: str) -> Any:
    """A valid id no other line of the module uses, in one of the shapes a client might send."""
    n = next(_fresh)
    return {
        "int": 10 ** 9 + n,
        "negative": -(10 ** 9 + n),
        "huge": 10 ** 300 + n,  # under CPython's 4300-digit parsing limit
        "str": f"fz-{n}",
        "long": f"fz-{n}-" + "x" * 20_000,
        "unicode": f"fz-{n}-ß漢字🎬\u0000\u2028\"\\",
    }[shape]


ID_SHAPES = st.sampled_from(["int", "negative", "huge", "str", "long", "unicode"])


def request_templates(root: str) -> list[tuple[str, dict | None]]:
    """Well-formed requests covering every inline method and every tool (confined to root)."""
    call = lambda name, arguments: ("tools/call", {"name": name, "arguments": arguments})
    return [
        ("ping", None),
        ("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "fuzz", "version": "1"}}),
        ("tools/list", {}),
        ("tools/list", {"_meta": MODERN_META}),
        ("server/discover", {"_meta": MODERN_META}),
        ("resources/list", {}),
        ("resources/read", {"uri": "rendervisor://document"}),
        ("resources/templates/list", {}),
        ("logging/setLevel", {"level": "info"}),
        call("read_file", {"path": f"{root}/a.txt", "offset": 1, "limit": 1}),
        call("list_dir", {"path": root, "depth": 1}),
        call("write_file", {"path": f"{root}/w.txt", "content": "written"}),
        call("edit_file", {"path": f"{root}/w.txt", "old_string": "written",
                           "new_string": "edited"}),
        call("search_files", {"path": root, "pattern": "*.txt", "content": "a"}),
        call("shell", {"command": "echo refused while confined"}),
        call("command_list", {"filter": "layer.", "compact": True}),
        call("command_run", {"id": "comp.new", "params": {"name": "fz", "width": 64,
                                                           "height": 36, "duration": 1}}),
        call("command_run", {"id": "project.info"}),
        call("command_batch", {"steps": [{"id": "comp.new", "params": {"width": 32,
                                                                       "height": 18}},
                                         {"id": "edit.undo"}], "atomic": True}),
        call("doc_inspect", {}),
        call("render_preview", {"max_side": 32}),
    ]


@dataclass
class Line:
    """One line to send, and what it obliges the server to answer."""
    data: bytes
    expect: dict = field(default_factory=dict)  # id -> (at least, at most) answers
    tool_call_ids: tuple = ()


def encode(message: Any) -> bytes:
    return json.dumps(message).encode("utf-8")  # NaN and Infinity allowed: hostile on purpose


def answers_owed(message: Any) -> tuple[int, int]:
    """How many answers a message with a valid id is owed, by JSON-RPC: a request (anything with
    a method) exactly one, a response none, anything else one error naming its id."""
    if "method" in message:
        return (1, 1)
    if "result" in message or "error" in message:
        return (0, 0)
    return (1, 1)


# -- line strategies --------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=10)


def paths_of(value: Any, prefix: tuple = ()) -> list[tuple]:
    paths = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, inner in value.items():
            paths += paths_of(inner, prefix + (key,))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            paths += paths_of(inner, prefix + (index,))
    return paths


def replaced(value: Any, path: tuple, new: Any, delete: bool) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    if len(path) > 1:
        copy[path[0]] = replaced(copy[path[0]], path[1:], new, delete)
    elif delete:
        del copy[path[0]]
    else:
        copy[path[0]] = new
    return copy


@st.composite
def template_request(draw, root: str) -> tuple[dict, Any]:
    method, params = draw(st.sampled_from(request_templates(root)))
    request_id = fresh_id(draw(ID_SHAPES))
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message, request_id


@st.composite
def well_formed(draw, root: str) -> Line:
    message, request_id = draw(template_request(root))
    is_call = message["method"] == "tools/call"
    return Line(encode(message), {request_id: (1, 1)}, (request_id,) if is_call else ())


@st.composite
def wrong_type_in_a_field(draw, root: str) -> Line:
    """One field anywhere in a request (id, jsonrpc, method, params, arguments, nested values)
    replaced by a value of another type, deleted, or joined by an unknown one."""
    message, request_id = draw(template_request(root))
    path = draw(st.sampled_from(paths_of(message)))
    action = draw(st.sampled_from(["replace", "delete", "add"]))
    if action == "add":
        target = draw(st.sampled_from([()] + [p for p in paths_of(message)
                                              if isinstance(_at(message, p), dict)]))
        mutated = replaced(message, target + ("zz_unknown",), draw(JSON_VALUES), False) \
            if target else {**message, "zz_unknown": draw(JSON_VALUES)}
    else:
        mutated = replaced(message, path, draw(JSON_VALUES), action == "delete")
    if mutated.get("id") != request_id or "id" not in mutated:
        return Line(encode(mutated))  # its id is gone or random: nothing to count
    is_call = mutated.get("method") == "tools/call"
    return Line(encode(mutated), {request_id: answers_owed(mutated)},
                (request_id,) if is_call else ())


def _at(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


@st.composite
def random_bytes(draw) -> Line:
    return Line(draw(st.binary(min_size=1, max_size=300)))


@st.composite
def truncated(draw, root: str) -> Line:
    message, request_id = draw(template_request(root))
    data = encode(message)
    # Drawn as a fraction, not a byte count: the fresh id's length changes from one run of the
    # same example to the next, and hypothesis needs the same draws when it replays one.
    cut = 1 + int(draw(st.floats(0, 1, exclude_max=True)) * (len(data) - 1))
    return Line(data[:cut], {request_id: (0, 0)})  # no prefix of an object is an object


INVALID_UTF8 = [b"\xff", b"\xc3\x28", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80",
                b"\xe2\x82", b"\x80"]


@st.composite
def invalid_utf8(draw, root: str) -> Line:
    """Bytes that are not UTF-8 (including a UTF-8-encoded lone surrogate) inside a string."""
    message, request_id = draw(template_request(root))
    data = encode(message)
    quotes = [m.start() for m in re.finditer(rb'"', data)]
    at = quotes[draw(st.integers(0, 10**6)) % len(quotes)] + 1  # see truncated()
    bad = draw(st.sampled_from(INVALID_UTF8))
    return Line(data[:at] + bad + data[at:], {request_id: (0, 0)})


@st.composite
def lone_surrogate_escape(draw, root: str) -> Line:
    """A \\uD800-style escape with no partner: valid JSON grammar, but no Unicode character, so
    nothing the server could store, save or send back as UTF-8."""
    message, request_id = draw(template_request(root))
    data = encode(message)
    quotes = [m.start() for m in re.finditer(rb'"', data)]
    at = quotes[draw(st.integers(0, 10**6)) % len(quotes)] + 1  # see truncated()
    escape = draw(st.sampled_from([b"\\ud800", b"\\udfff", b"\\uDC80", b"\\ud83d"]))
    return Line(data[:at] + escape + data[at:], {request_id: (0, 0)})


@st.composite
def oversized(draw, root: str) -> Line:
    """A request with a large string somewhere it fits the schema (up to 2 MB)."""
    message, request_id = draw(template_request(root))
    size = draw(st.sampled_from([10_000, 300_000, 2_000_000]))
    message = dict(message, params=dict(message.get("params") or {}, padding="p" * size))
    if message["method"] == "tools/call":
        message["params"]["arguments"] = dict(message["params"]["arguments"], padding="p" * size)
    is_call = message["method"] == "tools/call"
    return Line(encode(message), {request_id: (1, 1)}, (request_id,) if is_call else ())


@st.composite
def deep_nesting(draw) -> Line:
    request_id = fresh_id("int")
    opener, closer = draw(st.sampled_from([(b"[", b"]"), (b'{"a":', b"}")]))
    # Shallow enough to parse: answered. Far deeper than any parser's stack: refused, id null.
    depth = draw(st.integers(1, 300) | st.integers(5_000, 200_000))
    head = b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"deep":' % request_id
    body = opener * depth + b"0" * (opener == b'{"a":') + closer * depth
    owed = (1, 1) if depth <= 300 else (0, 0)
    return Line(head + body + b"}}", {request_id: owed})


@st.composite
def batch(draw, root: str) -> Line:
    requests = draw(st.lists(template_request(root), max_size=3))
    return Line(b"[" + b",".join(encode(m) for m, _ in requests) + b"]",
                {request_id: (0, 0) for _, request_id in requests})


@st.composite
def response_to_the_server(draw) -> Line:
    request_id = fresh_id(draw(ID_SHAPES))
    body = draw(st.sampled_from([{"result": {}}, {"error": {"code": -1, "message": "x"}},
                                 {"result": None, "error": None}]))
    return Line(encode({"jsonrpc": "2.0", "id": request_id, **body}), {request_id: (0, 0)})


@st.composite
def notification_carrying_an_id(draw) -> Line:
    request_id = fresh_id(draw(ID_SHAPES))
    method = draw(st.sampled_from(["notifications/cancelled", "notifications/initialized",
                                   "notifications/progress", "notifications/roots/list_changed"]))
    params = draw(st.none() | st.fixed_dictionaries({"requestId": JSON_VALUES}))
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return Line(encode(message), {request_id: (1, 1)})  # it has an id: it is a request


@st.composite
def notification(draw) -> Line:
    method = draw(st.sampled_from(["notifications/cancelled", "notifications/initialized",
                                   "notifications/progress"]) | st.text(max_size=30))
    params = draw(st.none() | JSON_VALUES | st.fixed_dictionaries({"requestId": JSON_VALUES}))
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return Line(encode(message))


def hostile_line(root: str) -> st.SearchStrategy[Line]:
    return st.one_of(well_formed(root), wrong_type_in_a_field(root), random_bytes(),
                     truncated(root), invalid_utf8(root), lone_surrogate_escape(root),
                     oversized(root), deep_nesting(), batch(root), response_to_the_server(),
                     notification_carrying_an_id(), notification())


# -- the checks -------------------------------------------------------------------------------

LEDGER: dict[Any, list[int]] = {}  # every counted id of the module -> [at least, at most]
TALLY = {"examples": 0, "lines": 0, "bytes": 0}


def key(request_id: Any) -> Any:
    return json.dumps(request_id)  # ids may be unhashable-looking or unequal-but-similar


def send_and_check(server, lines: list[Line], cancels: list[Any] = ()) -> None:
    owed: dict[Any, list[int]] = {}
    TALLY["examples"] += 1
    for line in lines:
        TALLY["lines"] += 1
        TALLY["bytes"] += len(line.data)
        server.send(line.data)
        for request_id, (low, high) in line.expect.items():
            total = owed.setdefault(key(request_id), [0, 0])
            total[0] += low
            total[1] += high
    for request_id in cancels:
        server.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": request_id}})
        calls = sum(request_id in line.tool_call_ids for line in lines)
        owed[key(request_id)][0] -= calls  # a cancelled call gets no answer; it may have ended
    ping = fresh_id("str")
    answer = server.wait_for(server.request("ping", id=ping), ANSWER_WITHIN)
    assert answer["result"] == {}, answer
    check_owed(server, owed)
    for request_key, bounds in owed.items():
        LEDGER[request_key] = bounds
    assert server.process.poll() is None, "the server died"
    assert server.bad_lines == [], f"stdout carried a line that is not JSON: {server.bad_lines[:1]}"


def check_owed(server, owed: dict[Any, list[int]], within: float = ANSWER_WITHIN) -> None:
    deadline = time.monotonic() + within
    while True:
        counts = answer_counts(server)
        short = {k: b for k, b in owed.items() if counts.get(k, 0) < b[0]}
        if not short or time.monotonic() > deadline:
            break
        time.sleep(0.01)
    assert not short, f"requests never answered: {list(short)[:3]}"
    over = {k: (counts.get(k, 0), b) for k, b in owed.items() if counts.get(k, 0) > b[1]}
    assert not over, f"requests answered more often than owed: {list(over.items())[:3]}"


def answer_counts(server) -> dict[Any, int]:
    counts: dict[Any, int] = {}
    with server._changed:
        messages = list(server.messages)
    for message in messages:
        if "result" in message or "error" in message:
            counts[key(message.get("id"))] = counts.get(key(message.get("id")), 0) + 1
    return counts


@pytest.fixture(scope="module")
def fuzzed(long_lived_server):
    yield long_lived_server
    # Late answers (a fuzzed call finishing after its example) would break "exactly once" too.
    time.sleep(1.0)
    check_owed(long_lived_server, LEDGER, within=0)
    for message in long_lived_server.messages:
        assert isinstance(message, dict) and message.get("jsonrpc") == "2.0", message
    print(f"\nfuzz tally: {TALLY['examples']} examples, {TALLY['lines']} lines "
          f"({TALLY['bytes'] / 2**20:.1f} MB), {len(LEDGER)} ids counted, "
          f"{sum(1 for low, high in LEDGER.values() if high)} owed an answer, "
          f"{len(long_lived_server.messages)} lines answered; server pid "
          f"{long_lived_server.process.pid} alive: {long_lived_server.process.poll() is None}")


# -- the properties ---------------------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_hostile_lines_never_stop_the_server_and_usable_requests_get_one_answer(fuzzed,
                                                                                 confined_root,
                                                                                 data):
    lines = data.draw(st.lists(hostile_line(str(confined_root)), min_size=1, max_size=6))
    send_and_check(fuzzed, lines)


@FUZZ
@given(data=st.data())
def test_duplicate_ids_each_get_their_own_answer(fuzzed, confined_root, data):
    message, request_id = data.draw(template_request(str(confined_root)))
    copies = data.draw(st.integers(2, 4))
    is_call = message["method"] == "tools/call"
    lines = [Line(encode(message), {request_id: (1, 1)}, (request_id,) if is_call else ())
             for _ in range(copies)]
    send_and_check(fuzzed, lines)


@settings(FUZZ, max_examples=max(1, EXAMPLES // 5))
@given(data=st.data())
def test_a_cancel_for_any_id_never_costs_another_request_its_answer(fuzzed, confined_root, data):
    lines = data.draw(st.lists(well_formed(str(confined_root)), min_size=1, max_size=4))
    ids = [request_id for line in lines for request_id in line.tool_call_ids]
    cancels = data.draw(st.lists(st.sampled_from(ids), max_size=2, unique=True)) if ids else []
    send_and_check(fuzzed, lines, cancels)


def test_a_line_longer_than_the_limit_is_refused_with_a_parse_error_and_skipped(fuzzed):
    from supervisor.mcp.server import MAX_LINE
    request_id = fresh_id("int")
    line = b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"x":"' % request_id
    line += b"x" * (MAX_LINE + 10) + b'"}}'
    before = len(fuzzed.messages)
    fuzzed.send(line)
    # Writing and skipping 64 MB on a loaded machine: seconds, bounded generously.
    ping = fresh_id("str")
    assert fuzzed.wait_for(fuzzed.request("ping", id=ping), 60)["result"] == {}
    new = fuzzed.messages[before:]
    assert any(m.get("error", {}).get("code") == jsonrpc.PARSE_ERROR and m["id"] is None
               and "longer than" in m["error"]["message"] for m in new)
    assert fuzzed.answers(request_id) == []
    LEDGER[key(request_id)] = [0, 0]


def test_a_lone_surrogate_in_a_name_is_refused_and_leaves_the_project_unchanged(fuzzed):
    before = fuzzed.run("doc_inspect")["structuredContent"]
    request_id = fresh_id("int")
    fuzzed.send(b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":'
                b'"command_run","arguments":{"id":"comp.new","params":{"name":"a\\udc80"}}}}'
                % request_id)
    ping = fresh_id("str")
    fuzzed.wait_for(fuzzed.request("ping", id=ping))
    time.sleep(0.5)
    assert fuzzed.answers(request_id) == []  # refused unparsed, with id null
    after = fuzzed.run("doc_inspect")["structuredContent"]
    assert after["project"]["revision"] == before["project"]["revision"]
    LEDGER[key(request_id)] = [0, 0]
