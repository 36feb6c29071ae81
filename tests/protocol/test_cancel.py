"""The cancel scope with no process and no I/O: flags, callbacks, deadlines and children."""

import threading
import time

import pytest

from protocol.cancel import CANCELLED, TIMEOUT, Cancel, Cancelled


def test_cancel_sets_the_flag_and_the_reason_and_check_raises_it():
    scope = Cancel()
    scope.check()  # not cancelled: nothing happens
    scope.cancel("signal")
    assert scope.cancelled and scope.reason == "signal"
    with pytest.raises(Cancelled) as raised:
        scope.check()
    assert raised.value.reason == "signal"


def test_callbacks_run_once_and_a_second_cancel_keeps_the_first_reason():
    scope, calls = Cancel(), []
    scope.on_cancel(lambda: calls.append("a"))
    scope.on_cancel(lambda: calls.append("b"))
    scope.cancel()
    scope.cancel(TIMEOUT)
    assert calls == ["a", "b"] and scope.reason == CANCELLED


def test_a_callback_registered_after_the_cancel_runs_at_once():
    scope, calls = Cancel(), []
    scope.cancel()
    scope.on_cancel(lambda: calls.append("late"))
    assert calls == ["late"]


def test_a_forgotten_callback_never_runs():
    scope, calls = Cancel(), []
    forget = scope.on_cancel(lambda: calls.append("gone"))
    forget()
    scope.cancel()
    assert calls == []


def test_a_deadline_cancels_with_its_reason_when_the_waiter_expires_it():
    scope = Cancel(deadline=time.monotonic() + 0.05, deadline_reason="deadline")
    assert not scope.expire() and scope.remaining() > 0
    time.sleep(0.06)
    assert scope.remaining() == 0
    assert scope.expire() and scope.reason == "deadline"


def test_check_past_the_deadline_raises_timeout():
    scope = Cancel(deadline=time.monotonic() - 1)
    with pytest.raises(Cancelled) as raised:
        scope.check()
    assert raised.value.reason == TIMEOUT


def test_a_child_stops_with_its_parent_and_takes_its_reason():
    parent = Cancel()
    child = parent.child(seconds=60)
    parent.cancel("eof")
    assert child.cancelled and child.reason == "eof"


def test_a_childs_own_deadline_does_not_stop_its_parent():
    parent = Cancel()
    child = parent.child(seconds=0)
    assert child.expire() and child.reason == TIMEOUT
    assert not parent.cancelled


def test_a_child_never_outlives_its_parents_deadline():
    parent = Cancel(deadline=time.monotonic() + 1, deadline_reason="deadline")
    child = parent.child(seconds=60)
    assert child.deadline == parent.deadline and child.deadline_reason == "deadline"


def test_a_closed_child_is_forgotten_by_its_parent():
    parent = Cancel()
    for _ in range(1000):
        parent.child().close()
    assert parent._callbacks == {}


def test_wait_wakes_when_another_thread_cancels():
    scope = Cancel()
    threading.Timer(0.05, scope.cancel).start()
    assert scope.wait(5)
