"""The MCP front door, black-box: a real `rendervisor mcp` process, real shells, real files.

Timing bounds here are generous on purpose (a 2-core machine shared with other test runs, load
10 and more): at least ten times what the operation needs on an idle machine, and still far
below what the bug each guards against would cost (a shell's 20 s, a sleep's 90 s). Speed
itself is measured by scripts/bench_frontdoor.py, not here. Sleeps found by their command line
carry this process's pid (sleep_marker), and the processes a test kills are looked for only
under its own server.
"""

import json
import time

import psutil
import pytest

from tests.helpers.mcp_process import McpProcess
from tests.helpers.process_tree import (descendants_running, processes_running, sleep_marker,
                                         zombies_under)


def result_json(result: dict) -> dict:
    return result["structuredContent"]


def test_slow_shell_does_not_block_file_read(server, tmp_path):
    (tmp_path / "a.txt").write_text("hello\n")
    server.call("shell", {"command": "sleep 20", "timeout": 30})
    wait_for_processes(server, "sleep 20", 1)
    started = time.monotonic()
    result = server.run("read_file", {"path": str(tmp_path / "a.txt")})
    # A file read must not wait for the 20 s shell: milliseconds idle, 5 s on a stalled machine.
    assert time.monotonic() - started < 5.0
    assert result["content"][0]["text"] == "hello\n"


def test_eight_long_shells_filling_the_long_lane_do_not_block_a_read(server, tmp_path):
    (tmp_path / "b.txt").write_text("still here\n")
    for _ in range(8):
        server.call("shell", {"command": "sleep 20", "timeout": 30})
    wait_for_processes(server, "sleep 20", 8)
    started = time.monotonic()
    result = server.run("read_file", {"path": str(tmp_path / "b.txt")})
    assert time.monotonic() - started < 5.0
    assert result["content"][0]["text"] == "still here\n"


def test_ping_and_initialize_are_answered_ahead_of_a_slow_call(server):
    slow = server.call("shell", {"command": "sleep 60"})  # cancelled when the server stops
    ping = server.request("ping")
    init = server.request("initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                                         "clientInfo": {"name": "x", "version": "1"}})
    assert server.wait_for(ping, 20)["result"] == {}
    assert server.wait_for(init, 20)["result"]["protocolVersion"] == "2025-03-26"
    assert server.answers(slow) == []  # the slow call is still running


def test_a_hundred_mixed_concurrent_calls_each_get_exactly_one_own_answer(server, tmp_path):
    for i in range(20):
        (tmp_path / f"f{i}.txt").write_text(f"file {i}\n")
    expected = {}
    for i in range(100):
        kind = i % 4
        if kind == 0:
            request_id = server.call("read_file", {"path": str(tmp_path / f"f{i % 20}.txt")})
            expected[request_id] = f"file {i % 20}\n"
        elif kind == 1:
            request_id = server.call("shell", {"command": f"echo shell {i}"})
            expected[request_id] = f"shell {i}\n"
        elif kind == 2:
            request_id = server.request("ping")
            expected[request_id] = None
        else:
            request_id = server.call("list_dir", {"path": str(tmp_path)})
            expected[request_id] = "f0.txt"
    for request_id, want in expected.items():
        answer = server.wait_for(request_id, 60)
        if want is None:
            assert answer["result"] == {}
            continue
        result = answer["result"]
        text = result.get("structuredContent", {}).get("stdout") or result["content"][0]["text"]
        assert want in text, (request_id, text)
    time.sleep(0.3)
    for request_id in expected:
        assert len(server.answers(request_id)) == 1
    assert server.bad_lines == []


def test_malformed_json_gets_parse_error_with_null_id_and_the_session_goes_on(module_server):
    module_server.send("{this is not json")
    ping = module_server.request("ping")
    assert module_server.wait_for(ping)["result"] == {}
    errors = [m for m in module_server.messages if m.get("error", {}).get("code") == -32700]
    assert errors and errors[0]["id"] is None


def test_unknown_tool_and_unknown_argument_are_invalid_params_naming_the_key(module_server):
    unknown_tool = module_server.wait_for(module_server.call("no_such_tool", {}))
    assert unknown_tool["error"]["code"] == -32602
    assert "no_such_tool" in unknown_tool["error"]["message"]
    assert "read_file" in unknown_tool["error"]["message"]
    unknown_arg = module_server.wait_for(module_server.call("read_file", {"path": "/etc/hostname",
                                                            "colour": 1}))
    assert unknown_arg["error"]["code"] == -32602
    message = unknown_arg["error"]["message"]
    assert "'colour'" in message and "path" in message and "offset" in message


def test_unknown_method_is_method_not_found(module_server):
    assert module_server.wait_for(module_server.request("no/such"))["error"]["code"] == -32601


@pytest.mark.server_args("--max-inflight", "1")
def test_calls_past_the_lane_cap_wait_and_past_the_queue_bound_are_refused(server, tmp_path):
    from supervisor.mcp.lanes import QUEUE_FACTOR
    accepted = 1 + QUEUE_FACTOR  # cap 1, and QUEUE_FACTOR x the cap waiting
    ids = [server.call("shell", {"command": "sleep 0.3"}) for _ in range(accepted + 1)]
    # The one past the bound is refused, with a sentence (queued, it would have succeeded).
    refused = server.wait_for(ids[-1], 60)
    assert refused["error"]["code"] == -32000
    assert "long lane is full" in refused["error"]["message"]
    # The quick lane is unaffected.
    (tmp_path / "q.txt").write_text("q")
    assert server.run("read_file", {"path": str(tmp_path / "q.txt")}, timeout=2)
    # With a cap of 1, the accepted shells run one after another, and every one completes.
    started = time.monotonic()
    for request_id in ids[:-1]:
        answer = server.wait_for(request_id, 60)
        assert result_json(answer["result"])["exit_code"] == 0
    assert time.monotonic() - started > (accepted - 2) * 0.3


def test_a_cancelled_shell_gets_no_response_and_its_tree_dies(server):
    marker = sleep_marker(91)
    request_id = server.call("shell", {"command": f"{marker} & {marker}; wait"})
    tree = wait_for_processes(server, marker, 2)
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                 "params": {"requestId": request_id}})
    # The group gets SIGTERM at once: a moment idle, against the sleeps' 91 s.
    assert gone_within(tree, 15.0)
    # Whatever the server had to say about the call, it says before answering a later ping.
    assert server.wait_for(server.request("ping"))["result"] == {}
    assert server.answers(request_id) == []
    assert server.wait_for(server.request("ping"))["result"] == {}


def test_teardown_is_bounded_when_the_job_ignores_sigterm_and_a_grandchild_called_setsid(server):
    marker = sleep_marker(92)
    command = f"trap '' TERM; setsid sh -c '{marker}' & {marker}; wait"
    request_id = server.call("shell", {"command": command})
    tree = wait_for_processes(server, marker, 2)
    cancelled_at = time.monotonic()
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                 "params": {"requestId": request_id}})
    # TEARDOWN_GRACE (1 s) then SIGKILL: about a second idle, against the sleeps' 92 s.
    assert gone_within(tree, 15.0)
    assert time.monotonic() - cancelled_at > 0.8  # they ignored TERM: only SIGKILL got them
    assert zombies_under(server.process.pid) == []


def test_a_shell_timeout_kills_the_tree_and_reports_timed_out(server):
    marker = sleep_marker(93)
    request_id = server.call("shell", {"command": f"echo started; trap '' TERM; {marker}",
                                       "timeout": 1})
    answer = server.wait_for(request_id, 60)
    result = result_json(answer["result"])
    assert result["timed_out"] is True and result["exit_code"] is None
    assert result["stdout"] == "started\n"  # output read before the kill is kept
    assert processes_running(marker) == []


def test_stdin_eof_with_a_long_shell_in_flight_exits_within_the_graces():
    server = McpProcess("--join-grace", "1", "--teardown-grace", "1")
    try:
        server.initialize()
        marker = sleep_marker(94)
        server.call("shell", {"command": f"trap '' TERM; {marker}"})
        tree = wait_for_processes(server, marker, 1)
        closed_at = time.monotonic()
        server.close_stdin()
        # JOIN_GRACE + TEARDOWN_GRACE: 2 s idle; without the graces the sleep's 94 s.
        server.process.wait(20)
        assert time.monotonic() - closed_at < 20
        assert gone_within(tree, 10.0)
    finally:
        server.stop()


def test_sigterm_cancels_everything_and_exits_within_the_grace():
    server = McpProcess("--teardown-grace", "1")
    try:
        server.initialize()
        marker = sleep_marker(95)
        server.call("shell", {"command": f"trap '' TERM; {marker}"})
        tree = wait_for_processes(server, marker, 1)
        started = time.monotonic()
        server.process.terminate()
        server.process.wait(15)  # TEARDOWN_GRACE: 1 s idle; without it the sleep's 95 s
        assert time.monotonic() - started < 15
        assert gone_within(tree, 10.0)
        assert not any("Traceback" in line for line in server.stderr_lines)
    finally:
        server.stop()


def test_a_closed_stdout_never_yields_a_traceback_and_the_process_exits():
    import subprocess
    from tests.helpers.mcp_process import SERVER
    process = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        process.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1
        process.stdout.close()  # the client goes away without closing our stdin
        for request_id in range(2, 7):
            process.stdin.write(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % request_id)
            process.stdin.flush()
        process.wait(10)
        stderr = process.stderr.read().decode()
        assert "Traceback" not in stderr
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_worker_killed_mid_job_is_reported_by_signal_and_the_next_call_works(server):
    marker = sleep_marker(96)
    request_id = server.call("shell", {"command": marker})
    (sleeper,) = wait_for_processes(server, marker, 1, named="sleep")
    # The command runs under /bin/sh, which may or may not exec the last command itself.
    shell = psutil.Process(sleeper.ppid())
    worker = shell if shell.name() != "sh" else psutil.Process(shell.ppid())
    assert "python" in worker.name() or "rendervisor" in " ".join(worker.cmdline())
    worker.kill()
    answer = server.wait_for(request_id, 60)
    assert answer["result"]["isError"] is True
    text = answer["result"]["content"][0]["text"]
    assert "signal 9" in text and "SIGKILL" in text and "Traceback" not in text
    again = server.run("shell", {"command": "echo fine"})
    assert result_json(again)["stdout"] == "fine\n"
    assert gone_within([sleeper], 15.0)


def test_progress_streams_output_lines_at_most_ten_a_second(server):
    started = time.monotonic()
    request_id = server.call("shell", {"command": "for i in $(seq 1 40); do echo line $i; "
                                                  "sleep 0.05; done"},
                             meta={"progressToken": "tok"})
    answer = server.wait_for(request_id, 60)
    took = time.monotonic() - started  # the server's ~2 s of output lie within it
    assert result_json(answer["result"])["exit_code"] == 0
    progress = [m["params"] for m in server.notifications("notifications/progress")
                if m["params"]["progressToken"] == "tok"]
    # Ten a second at most: the more a busy machine stretches the loop, the more may come.
    assert 3 <= len(progress) <= took / 0.1 + 2
    values = [p["progress"] for p in progress]
    assert values == sorted(set(values))  # strictly increasing
    assert all(p["message"].startswith("line") for p in progress)
    answer_index = server.messages.index(answer)
    late = [m for m in server.messages[answer_index:]
            if m.get("method") == "notifications/progress"
            and m["params"]["progressToken"] == "tok"]
    assert late == []


def test_modern_requests_are_served_statelessly_without_initialize():
    server = McpProcess()
    try:
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "modern", "version": "1"}}
        discover = server.wait_for(server.request("server/discover", {"_meta": meta}))
        assert discover["result"]["supportedVersions"] == ["2026-07-28"]
        assert discover["result"]["resultType"] == "complete"
        listed = server.wait_for(server.request("tools/list", {"_meta": meta}))["result"]
        assert listed["resultType"] == "complete" and listed["ttlMs"] > 0
        assert listed["cacheScope"] in ("private", "public")
        called = server.wait_for(server.request("tools/call", {
            "_meta": meta, "name": "list_dir", "arguments": {"path": "/"}}))["result"]
        assert called["resultType"] == "complete" and called["isError"] is False
        bad = server.wait_for(server.request("tools/list", {"_meta": {
            **meta, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}}))
        assert bad["error"]["code"] == -32022
        assert bad["error"]["data"] == {"supported": ["2026-07-28"], "requested": "2099-01-01"}
    finally:
        server.stop()


def test_every_tool_is_annotated_and_closed_to_unknown_arguments(module_server):
    tools = module_server.wait_for(module_server.request("tools/list"))["result"]["tools"]
    names = {tool["name"] for tool in tools}
    assert {"read_file", "write_file", "edit_file", "list_dir", "search_files",
            "shell"} <= names
    for tool in tools:
        assert tool["title"]
        assert tool["inputSchema"]["additionalProperties"] is False
        for hint in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"):
            assert isinstance(tool["annotations"][hint], bool), (tool["name"], hint)


def test_sigterm_while_stdin_eof_drains_calls_ends_them_at_once():
    """A signal during the join grace must not wait the grace out (it used to be ignored
    because the session was already ending for stdin)."""
    server = McpProcess("--join-grace", "120", "--teardown-grace", "1")
    try:
        server.initialize()
        marker = sleep_marker(97)
        server.call("shell", {"command": marker})
        tree = wait_for_processes(server, marker, 1)
        server.close_stdin()
        time.sleep(0.5)  # the signal is to come during the join grace, not before it
        started = time.monotonic()
        server.process.terminate()
        server.process.wait(20)  # TEARDOWN_GRACE: 1 s idle, far below the 120 s join grace
        assert time.monotonic() - started < 20
        assert gone_within(tree, 10.0)
    finally:
        server.stop()


# -- helpers ----------------------------------------------------------------------------------

def wait_for_processes(server: McpProcess, marker: str, count: int,
                       timeout: float = 60.0, named: str | None = None) -> list:
    """At least `count` processes under `server` running `marker` (and called `named`, if
    given: the shell that will start a `sleep` carries the marker before the sleep exists),
    once they have started."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [process for process in descendants_running(server.process.pid, marker)
                 if named is None or name_of(process) == named]
        if len(found) >= count:
            return found
        time.sleep(0.05)
    raise AssertionError(f"expected {count} processes running {marker!r}")


def name_of(process) -> str | None:
    try:
        return process.name()
    except psutil.NoSuchProcess:
        return None


def gone_within(processes: list, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(not p.is_running() or p.status() == psutil.STATUS_ZOMBIE for p in processes):
            return True
        time.sleep(0.05)
    return False
