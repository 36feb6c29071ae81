"""The studio's record of a session's calls, kept from call events alone (no server, no page)."""

from __future__ import annotations

import json

from supervisor.call_events import CallEnded, CallProgressed, CallStarted
from supervisor.studio.activity import RECENT, SUMMARY_CHARS, Activity, summary


def test_a_call_is_in_flight_with_its_progress_then_recent_with_its_outcome():
    changes = []
    activity = Activity(lambda: changes.append(1))
    activity(CallStarted(7, "shell", {"command": "make"}, "long", 100.0))
    activity(CallProgressed(7, 3, None, "line 3"))
    view = activity.view()
    assert view["calls"] == [{"key": 7, "tool": "shell", "lane": "long",
                              "arguments": '{"command": "make"}', "started": 100.0,
                              "progress": 3, "total": None, "message": "line 3"}]
    assert view["recent"] == []
    activity(CallEnded(7, "cancelled", "stopped", 102.5))
    view = activity.view()
    assert view["calls"] == []
    assert view["recent"][0]["outcome"] == "cancelled"
    assert view["recent"][0]["ended"] - view["recent"][0]["started"] == 2.5
    assert len(changes) == 3  # each event wakes the page's streams


def test_events_of_an_unknown_call_change_nothing():
    activity = Activity()
    activity(CallProgressed("x", 1, 2, None))
    activity(CallEnded("x", "done", "", 1.0))
    assert activity.view() == {"calls": [], "recent": []}


def test_only_the_last_calls_are_kept():
    activity = Activity()
    for key in range(RECENT + 10):
        activity(CallStarted(key, "doc_inspect", {}, "quick", float(key)))
        activity(CallEnded(key, "done", "{}", float(key)))
    recent = activity.view()["recent"]
    assert len(recent) == RECENT
    assert recent[0]["key"] == RECENT + 9  # newest first


def test_a_summary_is_one_bounded_line_however_large_the_arguments():
    huge = {"path": "a.txt", "content": "x" * 10_000_000,
            "steps": [{"id": "layer.add", "params": {"n": n}} for n in range(10_000)]}
    text = summary(huge)
    assert len(text) <= SUMMARY_CHARS + 1 and "\n" not in text
    assert text.startswith('{"path": "a.txt", "content": "xxx')
    assert json.loads(summary({"comp": "Main", "time": 1.5})) == {"comp": "Main", "time": 1.5}
    assert summary({"nested": {"a": {"b": {"c": {"d": 1}}}}}) == \
        '{"nested": {"a": {"b": {"c": "…"}}}}'
