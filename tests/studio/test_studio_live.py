"""`rendervisor mcp --studio`: a live session followed in a real browser while the test drives
the session over stdin, as an agent's host would."""

from __future__ import annotations

import re
import time
import uuid

import psutil
import pytest
from playwright.sync_api import expect

from supervisor.mcp.server import STOPPED_BY_WATCHER
from tests.helpers.mcp_process import McpProcess
from tests.helpers.process_tree import processes_running

# The page hears of an edit in well under a second on an idle machine; the bound is ten times
# that, and waited on as a condition.
PUSHED_WITHIN_MS = 10_000
STARTED_WITHIN = 60.0  # seconds for the session (and its studio) to start on a busy machine


@pytest.fixture(scope="module")
def live():
    """One `rendervisor mcp --studio` for the module's tests: (process, the studio's address,
    the initialize answer)."""
    server = McpProcess("--studio")
    initialized = server.initialize()
    deadline = time.monotonic() + STARTED_WITHIN
    url = None
    while url is None:
        assert time.monotonic() < deadline, "".join(server.stderr_lines)
        url = next((line.split(" at ", 1)[1].strip() for line in list(server.stderr_lines)
                    if "the studio follows this session at" in line), None)
        time.sleep(0.05)
    yield server, url, initialized
    server.stop()


def test_the_studios_address_is_on_stderr_and_in_the_instructions(live):
    server, url, initialized = live
    assert url.startswith("http://127.0.0.1:")
    assert url in initialized["result"]["instructions"]


def test_an_edit_is_pushed_to_the_page_as_the_agent_makes_it(page, live):
    server, url, _ = live
    server.run("command_batch", {"steps": [
        {"id": "comp.new", "params": {"name": "Main", "width": 64, "height": 36,
                                      "duration": 1}},
        {"id": "layer.add", "params": {"comp": "Main", "type": "solid", "color": "#203040",
                                       "name": "Ground"}}]})
    page.goto(url)
    page.wait_for_selector(".layer-name:text-is('Ground')", timeout=PUSHED_WITHIN_MS)
    server.run("command_run", {"id": "layer.add", "params": {
        "comp": "Main", "type": "text", "text": "Hi", "name": "Pushed"}})
    page.wait_for_selector(".layer-name:text-is('Pushed')", timeout=PUSHED_WITHIN_MS)
    assert page.locator(".layer-name").all_inner_texts() == ["Pushed", "Ground"]
    # The calls themselves are listed as they end, with what they were asked.
    done = page.locator("li.ended[data-tool=command_run][data-outcome=done]")
    done.wait_for(timeout=PUSHED_WITHIN_MS)
    assert "layer.add" in done.locator(".arguments").inner_text()


def test_a_running_shell_shows_its_progress_and_is_cancelled_from_the_page(page, live):
    server, url, _ = live
    marker = f"studio-{uuid.uuid4().hex[:8]}"
    page.goto(url)
    page.wait_for_selector("#connection.live", timeout=PUSHED_WITHIN_MS)
    request_id = server.call("shell", {"command": f"i=0; while true; do i=$((i+1)); "
                                                  f"echo {marker} line $i; sleep 0.1; done"},
                             meta={"progressToken": "shell"})
    call = page.locator("li.call[data-tool=shell]")
    call.wait_for(timeout=PUSHED_WITHIN_MS)
    assert marker in call.locator(".arguments").inner_text()
    # Progress moves: the shell's output lines, as its client hears them (line 3 and on).
    expect(call.locator(".progress-text")).to_have_text(re.compile(r"line ([3-9]|\d\d+)$"),
                                                       timeout=PUSHED_WITHIN_MS * 3)
    running = processes_running(marker)
    assert running
    call.locator("button.stop").click()
    answer = server.wait_for(request_id, 30)
    # The client did not cancel, so it is answered, with an error that says who stopped it.
    assert answer["result"]["isError"] is True
    assert answer["result"]["content"][0]["text"] == STOPPED_BY_WATCHER
    # The command stopped as a cancelled call's does: its processes are gone.
    psutil.wait_procs(running, timeout=15)
    assert not [p for p in running if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    page.wait_for_selector(f"li.ended[data-tool=shell][data-outcome=cancelled] "
                           f".arguments:has-text('{marker}')", timeout=PUSHED_WITHIN_MS)
    assert page.locator("li.call").count() == 0
    # The session goes on.
    assert server.run("shell", {"command": "echo fine"})["isError"] is False


def test_a_call_that_became_a_task_is_cancelled_from_the_page_as_tasks_cancel_does(page, live):
    server, url, _ = live
    marker = f"studio-task-{uuid.uuid4().hex[:8]}"
    page.goto(url)
    page.wait_for_selector("#connection.live", timeout=PUSHED_WITHIN_MS)
    created = server.wait_for(server.request("tools/call", {
        "name": "shell", "arguments": {"command": f"echo {marker}; sleep 600"}, "task": {}}))
    task = created["result"]["task"]["taskId"]
    call = page.locator("li.call[data-tool=shell]")
    call.wait_for(timeout=PUSHED_WITHIN_MS)
    deadline = time.monotonic() + STARTED_WITHIN
    while not (running := processes_running(marker)):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    call.locator("button.stop").click()
    # The task ends cancelled, its status saying who stopped it; the command is gone.
    deadline = time.monotonic() + 30
    while not (ended := [note for note in server.notifications("notifications/tasks/status")
                         if note["params"]["taskId"] == task]):
        assert time.monotonic() < deadline, "the task never ended"
        time.sleep(0.05)
    assert ended[0]["params"]["status"] == "cancelled"
    assert ended[0]["params"]["statusMessage"] == STOPPED_BY_WATCHER
    psutil.wait_procs(running, timeout=15)
    assert not [p for p in running if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    page.wait_for_selector(f"li.ended[data-tool=shell][data-outcome=cancelled] "
                           f".arguments:has-text('{marker}')", timeout=PUSHED_WITHIN_MS)
