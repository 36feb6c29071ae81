"""supervisor/runtime/job_lifecycle.py: a job's life on its worker, driven event by event and
second by second on a clock the test moves. No process, no socket, no sleep."""

from __future__ import annotations

import pytest

from protocol.wire import frames
from supervisor.runtime.job_lifecycle import (Answered, BadFrame, BrokeChannel, CancelUndelivered,
                                              Died, End, ForwardLog, FrameArrived, HoldOrphans,
                                              HoldTree, JobLifecycle, KillJob, KillLeftovers,
                                              OutOfMemory, Refused, RememberCommand,
                                              ReportProgress, RetireWorker, SendCancel, State,
                                              StopAsked, Stopped, TimePassed, Wedged,
                                              WorkerEnded)

JOB = 7
WEDGE = 30.0
GRACE = 1.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock():
    return Clock()


def lifecycle(clock, grace=GRACE, deadline=None, reason="timeout"):
    return JobLifecycle(JOB, clock=clock, wedge_deadline=WEDGE, grace=grace,
                        deadline=None if deadline is None else clock.now + deadline,
                        deadline_reason=reason)


def frame(made):
    return FrameArrived(made)


def stopping(clock, **options):
    job = lifecycle(clock, **options)
    assert job.handle(StopAsked("cancelled")) == [HoldTree(), SendCancel()]
    return job


def ended(clock, **options):
    job = lifecycle(clock, **options)
    job.handle(frame(frames.Result(JOB, 1)))
    return job


# Each state the job can be in, reached as a job really gets there.
STATES = {State.RUNNING: lifecycle, State.STOPPING: stopping, State.ENDED: ended}


def outcome(actions):
    assert isinstance(actions[-1], End), actions
    assert not any(isinstance(action, End) for action in actions[:-1])
    return actions[-1].outcome


# -- answers ------------------------------------------------------------------------------------

def test_a_result_answers_the_job(clock):
    job = lifecycle(clock)
    assert job.handle(frame(frames.Result(JOB, {"x": 1}))) == [End(Answered({"x": 1}))]
    assert job.state is State.ENDED


def test_a_task_error_is_the_jobs_refusal_and_keeps_the_worker(clock):
    job = lifecycle(clock)
    actions = job.handle(frame(frames.JobError(JOB, frames.TASK_ERROR, "no such comp")))
    assert actions == [End(Refused(frames.TASK_ERROR, "no such comp"))]


def test_running_out_of_memory_retires_the_worker(clock):
    job = lifecycle(clock)
    actions = job.handle(frame(frames.JobError(JOB, frames.OUT_OF_MEMORY, "ran out")))
    assert actions == [RetireWorker(), End(OutOfMemory())]


def test_answers_and_progress_of_an_earlier_job_are_ignored(clock):
    job = lifecycle(clock)
    assert job.handle(frame(frames.Result(JOB - 1, "stale"))) == []
    assert job.handle(frame(frames.JobError(JOB - 1, frames.CANCELLED, "stale"))) == []
    assert job.handle(frame(frames.Progress(JOB - 1, "stale"))) == []
    assert job.state is State.RUNNING


def test_progress_logs_and_the_commands_pid_are_passed_on_in_order(clock):
    job = lifecycle(clock)
    record = {"name": "x", "levelno": 30, "msg": "hi"}
    assert job.handle(frame(frames.CommandStarted(JOB, 4242))) == [RememberCommand(4242)]
    assert job.handle(frame(frames.Progress(JOB, 1))) == [ReportProgress(1)]
    assert job.handle(frame(frames.Log(record))) == [ForwardLog(record)]
    assert job.handle(frame(frames.Progress(JOB, 2))) == [ReportProgress(2)]


def test_a_stopping_shells_last_output_still_reaches_its_caller(clock):
    job = stopping(clock)
    assert job.handle(frame(frames.Progress(JOB, {"stream": "stdout", "data": b"bye"}))) == [
        ReportProgress({"stream": "stdout", "data": b"bye"})]


# -- cancel at every state ------------------------------------------------------------------

def test_a_cancel_while_running_holds_the_tree_then_sends_the_cancel(clock):
    job = lifecycle(clock)
    assert job.handle(StopAsked("cancelled")) == [HoldTree(), SendCancel()]
    assert job.state is State.STOPPING
    assert job.next_deadline() == clock.now + GRACE


def test_a_second_cancel_while_stopping_changes_nothing(clock):
    job = stopping(clock)
    deadline = job.next_deadline()
    clock.advance(0.5)
    assert job.handle(StopAsked("timeout")) == []
    assert job.next_deadline() == deadline and job.stop_reason == "cancelled"


def test_a_cancel_after_the_job_ended_is_refused_loudly(clock):
    job = ended(clock)
    with pytest.raises(RuntimeError, match="has ended"):
        job.handle(StopAsked("cancelled"))


@pytest.mark.parametrize("event", [StopAsked("cancelled"), WorkerEnded(), TimePassed(),
                                   BadFrame("x"), FrameArrived(frames.Heartbeat(JOB))])
def test_an_ended_job_takes_no_event(clock, event):
    with pytest.raises(RuntimeError):
        ended(clock).handle(event)


def test_a_stopped_job_that_answers_within_the_grace_keeps_its_worker(clock):
    job = stopping(clock)
    clock.advance(GRACE - 0.01)
    assert job.handle(TimePassed()) == []
    actions = job.handle(frame(frames.JobError(JOB, frames.CANCELLED, "the job was cancelled")))
    assert actions == [KillLeftovers(), End(Stopped("cancelled"))]


def test_a_result_that_crosses_the_cancel_is_still_the_stop(clock):
    job = stopping(clock)
    assert outcome(job.handle(frame(frames.Result(JOB, "late")))) == Stopped("cancelled")


def test_a_stopped_job_is_killed_at_the_grace_and_not_a_tick_before(clock):
    job = stopping(clock)
    clock.advance(GRACE - 1e-6)
    assert job.handle(TimePassed()) == []
    clock.advance(1e-6)
    assert job.handle(TimePassed()) == [KillJob(), End(Stopped("cancelled"))]


def test_a_kind_without_grace_is_killed_on_the_first_tick_after_its_cancel(clock):
    job = lifecycle(clock, grace=0.0)
    assert job.handle(StopAsked("cancelled")) == [HoldTree(), SendCancel()]
    assert job.handle(TimePassed()) == [KillJob(), End(Stopped("cancelled"))]


def test_a_cancel_that_cannot_be_sent_kills_at_once(clock):
    job = stopping(clock)
    assert job.handle(CancelUndelivered()) == [KillJob(), End(Stopped("cancelled"))]


def test_an_undelivered_cancel_means_nothing_while_running(clock):
    job = lifecycle(clock)
    assert job.handle(CancelUndelivered()) == [] and job.state is State.RUNNING


# -- a worker's death at every state ------------------------------------------------------------

def test_a_worker_dying_mid_job_is_its_death_with_what_it_ran_held(clock):
    job = lifecycle(clock)
    assert job.handle(WorkerEnded()) == [HoldOrphans(), KillJob(), End(Died())]


def test_a_worker_dying_after_naming_its_command_still_holds_what_it_ran(clock):
    job = lifecycle(clock)
    job.handle(frame(frames.CommandStarted(JOB, 99)))
    assert job.handle(WorkerEnded()) == [HoldOrphans(), KillJob(), End(Died())]


def test_a_worker_dying_while_stopping_is_the_stop_and_its_tree_is_already_held(clock):
    job = stopping(clock)
    assert job.handle(WorkerEnded()) == [KillJob(), End(Stopped("cancelled"))]


def test_a_bad_frame_while_running_breaks_the_channel(clock):
    job = lifecycle(clock)
    assert job.handle(BadFrame("garbage")) == [HoldTree(), KillJob(),
                                                End(BrokeChannel("garbage"))]


def test_a_bad_frame_while_stopping_is_the_stop(clock):
    job = stopping(clock)
    assert job.handle(BadFrame("garbage")) == [KillJob(), End(Stopped("cancelled"))]


def test_a_worker_dying_after_its_answer_is_no_event_of_the_job(clock):
    with pytest.raises(RuntimeError):
        ended(clock).handle(WorkerEnded())


# -- deadlines ------------------------------------------------------------------------------------

def test_a_job_past_its_deadline_is_stopped_with_the_deadlines_reason(clock):
    job = lifecycle(clock, deadline=10.0, reason="deadline")
    assert job.next_deadline() == clock.now + 10.0
    clock.advance(10.0 - 1e-6)
    assert job.handle(TimePassed()) == []
    clock.advance(1e-6)
    assert job.handle(TimePassed()) == [HoldTree(), SendCancel()]
    assert job.stop_reason == "deadline"
    clock.advance(GRACE)
    assert outcome(job.handle(TimePassed())) == Stopped("deadline")


def test_a_probe_past_its_deadline_is_killed_in_the_same_tick(clock):
    job = lifecycle(clock, grace=0.0, deadline=20.0, reason="deadline")
    clock.advance(20.0)
    assert job.handle(TimePassed()) == [HoldTree(), SendCancel(), KillJob(),
                                        End(Stopped("deadline"))]


def test_the_jobs_deadline_no_longer_counts_once_it_is_stopping(clock):
    job = lifecycle(clock, deadline=5.0)
    job.handle(StopAsked("cancelled"))
    assert job.next_deadline() == clock.now + GRACE
    clock.advance(GRACE)
    assert outcome(job.handle(TimePassed())) == Stopped("cancelled")


def test_a_job_without_a_sign_of_life_for_the_wedge_deadline_is_wedged(clock):
    job = lifecycle(clock)
    clock.advance(WEDGE - 1e-6)
    assert job.handle(TimePassed()) == []
    clock.advance(1e-6)
    assert job.handle(TimePassed()) == [HoldTree(), KillJob(), End(Wedged())]


@pytest.mark.parametrize("sign", [frames.Heartbeat(JOB), frames.Progress(JOB, 1),
                                  frames.Log({"name": "x", "levelno": 20, "msg": "m"}),
                                  frames.Heartbeat(JOB - 1)])
def test_any_frame_is_a_sign_of_life_that_moves_the_wedge_deadline(clock, sign):
    job = lifecycle(clock)
    clock.advance(WEDGE - 1)
    job.handle(frame(sign))
    assert job.next_deadline() == clock.now + WEDGE
    clock.advance(WEDGE - 1)
    assert job.handle(TimePassed()) == []


def test_a_stopping_job_that_also_stops_beating_is_killed_as_the_stop(clock):
    job = lifecycle(clock, grace=WEDGE * 2)
    clock.advance(WEDGE - 0.5)
    job.handle(StopAsked("cancelled"))
    clock.advance(0.5)
    assert job.handle(TimePassed()) == [KillJob(), End(Stopped("cancelled"))]


def test_the_next_deadline_is_the_nearest_of_the_wedge_the_jobs_deadline_and_the_kill(clock):
    job = lifecycle(clock, deadline=10.0)
    assert job.next_deadline() == clock.now + 10.0
    far = lifecycle(clock, deadline=100.0)
    assert far.next_deadline() == clock.now + WEDGE
    far.handle(StopAsked("cancelled"))
    assert far.next_deadline() == clock.now + GRACE


# -- every state against every event: the table is total ------------------------------------------

EVENTS = [FrameArrived(frames.Result(JOB, 1)), FrameArrived(frames.JobError(JOB, "task", "m")),
          FrameArrived(frames.Heartbeat(JOB)), FrameArrived(frames.Progress(JOB, 1)),
          FrameArrived(frames.CommandStarted(JOB, 5)), StopAsked("cancelled"),
          CancelUndelivered(), WorkerEnded(), BadFrame("x"), TimePassed()]


@pytest.mark.parametrize("state", [State.RUNNING, State.STOPPING])
@pytest.mark.parametrize("event", EVENTS, ids=lambda event: type(event).__name__)
def test_every_event_in_every_live_state_either_ends_the_job_once_or_leaves_it_live(
        clock, state, event):
    job = STATES[state](clock)
    actions = job.handle(event)
    ends = [action for action in actions if isinstance(action, End)]
    if ends:
        assert ends == [actions[-1]] and job.state is State.ENDED
        assert job.outcome == ends[0].outcome
        # Whatever ends a job while it is stopping is the stop the caller asked for.
        if state is State.STOPPING:
            assert job.outcome == Stopped("cancelled")
        # A job that is killed had its tree held first, in this event or an earlier one.
        if KillJob() in actions:
            assert state is State.STOPPING or HoldTree() in actions or HoldOrphans() in actions
    else:
        assert job.state in (State.RUNNING, State.STOPPING)
