"""A task's lifecycle and how each protocol era shows it, with dicts alone."""

from protocol.wire import tasks

RESULT = {"content": [{"type": "text", "text": "ok"}], "isError": False}
TOOL_ERROR = {"content": [{"type": "text", "text": "no"}], "isError": True}


def task(modern=False):
    return tasks.Task("t1", modern, created=1_700_000_000.0, ttl=60.0, poll_interval=1.0)


def test_a_terminal_status_never_changes():
    working = task()
    assert working.cancel(now=1_700_000_001.0)
    assert not working.finish(1_700_000_002.0, RESULT)  # the work ended after the cancel
    assert working.status == "cancelled" and working.result is None
    done = task()
    assert done.finish(1_700_000_003.0, RESULT)
    assert not done.cancel(1_700_000_004.0) and done.status == "completed"


def test_a_tool_error_fails_a_2025_task_but_completes_a_2026_one():
    legacy, modern = task(), task(modern=True)
    legacy.finish(1_700_000_001.0, TOOL_ERROR)
    modern.finish(1_700_000_001.0, TOOL_ERROR)
    assert legacy.status == "failed" and modern.status == "completed"
    rpc = task(modern=True)
    rpc.finish(1_700_000_001.0, error={"code": -32603, "message": "broken"})
    assert rpc.status == "failed" and tasks.detailed(rpc, True)["error"]["code"] == -32603


def test_each_era_names_the_fields_its_own_way():
    working = task()
    working.progress("12/60: frames")
    assert tasks.created(working, False) == {"task": {
        "taskId": "t1", "status": "working", "statusMessage": "12/60: frames",
        "createdAt": "2023-11-14T22:13:20.000Z", "lastUpdatedAt": "2023-11-14T22:13:20.000Z",
        "ttl": 60000, "pollInterval": 1000}}
    modern = tasks.created(working, True)
    assert modern["resultType"] == "task" and modern["ttlMs"] == 60000 and \
        modern["pollIntervalMs"] == 1000 and "ttl" not in modern


def test_a_finished_task_carries_its_result_inline_in_2026_and_through_tasks_result_in_2025():
    done = task()
    done.finish(1_700_000_005.0, RESULT)
    assert "result" not in tasks.detailed(done, False)
    assert tasks.detailed(done, True)["result"] == RESULT
    result, error = tasks.payload(done)
    assert error is None and result["_meta"] == {tasks.RELATED_TASK: {"taskId": "t1"}}
    cancelled = task()
    cancelled.cancel(1_700_000_005.0)
    assert tasks.payload(cancelled)[1]["code"] == -32602
