"""One job's life on its worker, as a state machine with no I/O: typed events in, actions out.

                 StopAsked, or the job's deadline
    RUNNING ─────────────────────────────────────► STOPPING
       │  an answer, the worker's end, a bad          │  an answer, the worker's end, a bad
       │  frame, no sign of life for the wedge        │  frame, the kill deadline, no sign
       │  deadline                                    │  of life for the wedge deadline
       └──────────────────► ENDED ◄───────────────────┘

The pool's wait on a worker (supervisor/runtime/pool.py, `Pool._run_on`) only moves bytes and
timers: it feeds what happened (a frame read, the worker's end, the job's scope cancelled, time
passing) to `JobLifecycle.handle` and carries out the actions it gets back (send the cancel,
hold the process tree, kill, pass progress on), sleeping until `next_deadline()` at most.
Everything that decides is here: when a job is stopped and when it is killed, when it is
wedged, which frame answers it, what its outcome is. Time comes from an injected clock, so the
tests drive it frame by frame and second by second with no process and no sleep
(tests/runtime/test_job_lifecycle.py).

Once stopping, every end is the stop: the caller asked for it, so a worker that dies or breaks
its pipe during the teardown is replaced without being the news.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable

from protocol.wire import frames


class State(enum.Enum):
    RUNNING = "running"  # the job was sent; waiting for its answer
    STOPPING = "stopping"  # its cancel was sent; waiting for its answer until the kill deadline
    ENDED = "ended"  # its outcome is decided; it takes no more events


# -- events: what the wait saw ---------------------------------------------------------------

@dataclass(frozen=True)
class FrameArrived:
    frame: frames.Frame


@dataclass(frozen=True)
class StopAsked:
    """The job's scope was cancelled; `reason` as JobFailed.reason ("cancelled", "timeout",
    "deadline")."""
    reason: str


@dataclass(frozen=True)
class CancelUndelivered:
    """The cancel frame could not be sent (the socket broke): nothing will stop the job but
    the kill."""


@dataclass(frozen=True)
class WorkerEnded:
    """The worker's socket ended, or its process is gone with nothing left to read."""


@dataclass(frozen=True)
class BadFrame:
    problem: str


@dataclass(frozen=True)
class TimePassed:
    """The wait woke (or timed out): check the deadlines against the clock."""


Event = FrameArrived | StopAsked | CancelUndelivered | WorkerEnded | BadFrame | TimePassed


# -- actions: what the wait must do ----------------------------------------------------------

@dataclass(frozen=True)
class HoldTree:
    """Snapshot the worker's descendants, held by pidfds, before the first signal: a grandchild
    that called setsid leaves the group and, once its parent dies, its place in the tree."""


@dataclass(frozen=True)
class HoldOrphans:
    """The worker is gone: learn how it ended, and hold what it ran (its command's group, or
    the commands that re-parented to us)."""


@dataclass(frozen=True)
class SendCancel:
    pass


@dataclass(frozen=True)
class ReportProgress:
    data: Any


@dataclass(frozen=True)
class ForwardLog:
    record: dict


@dataclass(frozen=True)
class RememberCommand:
    """A shell's command leads its own session: its group dies with the job, even if the
    worker is killed first."""
    pid: int


@dataclass(frozen=True)
class KillLeftovers:
    """The job answered within the grace: kill what it started that still runs (a setsid
    grandchild escapes the command's group), and keep the worker."""


@dataclass(frozen=True)
class KillJob:
    """Kill what is held, the command's group and the worker."""


@dataclass(frozen=True)
class RetireWorker:
    """The worker answered, but must not be used again (it ran out of memory)."""


@dataclass(frozen=True)
class End:
    outcome: "Outcome"


Action = (HoldTree | HoldOrphans | SendCancel | ReportProgress | ForwardLog | RememberCommand
          | KillLeftovers | KillJob | RetireWorker | End)


# -- outcomes: how the job ended -------------------------------------------------------------

@dataclass(frozen=True)
class Answered:
    value: Any


@dataclass(frozen=True)
class Refused:
    """The task failed; `type` is one of frames.ERROR_TYPES, `message` a sentence."""
    type: str
    message: str


@dataclass(frozen=True)
class OutOfMemory:
    pass


@dataclass(frozen=True)
class Stopped:
    reason: str


@dataclass(frozen=True)
class Wedged:
    pass


@dataclass(frozen=True)
class Died:
    pass


@dataclass(frozen=True)
class BrokeChannel:
    problem: str


Outcome = Answered | Refused | OutOfMemory | Stopped | Wedged | Died | BrokeChannel


class JobLifecycle:
    """One job, from the moment it is sent to its outcome.

    `wedge_deadline`: seconds without a sign of life (any frame) after which it is killed.
    `grace`: seconds between its cancel and the kill (0: killed at once, for a kind whose jobs
    write nothing). `deadline`: the clock's time at which it is stopped with `deadline_reason`
    (its scope's deadline: a shell's timeout, a kind's deadline), or None."""

    def __init__(self, job_id: int, *, clock: Callable[[], float], wedge_deadline: float,
                 grace: float, deadline: float | None = None,
                 deadline_reason: str = "timeout") -> None:
        self.job_id = job_id
        self.state = State.RUNNING
        self.stop_reason: str | None = None
        self.outcome: Outcome | None = None
        self._clock = clock
        self._wedge_deadline = wedge_deadline
        self._grace = grace
        self._deadline = deadline
        self._deadline_reason = deadline_reason
        self._last_sign_of_life = clock()
        self._kill_at: float | None = None
        self._held = False

    def next_deadline(self) -> float:
        """The clock's time by which the wait must feed TimePassed, whatever else happens."""
        times = [self._last_sign_of_life + self._wedge_deadline]
        if self.state is State.RUNNING and self._deadline is not None:
            times.append(self._deadline)
        if self._kill_at is not None:
            times.append(self._kill_at)
        return min(times)

    def handle(self, event: Event) -> list[Action]:
        if self.state is State.ENDED:
            raise RuntimeError(f"job {self.job_id} has ended; it takes no {type(event).__name__}")
        transition = _TABLE[self.state].get(type(event))
        return transition(self, event) if transition is not None else []

    # -- transitions ----------------------------------------------------------------------------

    def _frame(self, event: FrameArrived) -> list[Action]:
        frame = event.frame
        self._last_sign_of_life = self._clock()  # any frame: the worker is alive
        if getattr(frame, "id", self.job_id) != self.job_id:
            return []  # a late frame of an earlier job (it crossed that job's cancel)
        if isinstance(frame, frames.Log):
            return [ForwardLog(frame.record)]
        if isinstance(frame, frames.Progress):
            return [ReportProgress(frame.data)]  # a stopping shell's last lines too
        if isinstance(frame, frames.CommandStarted):
            return [RememberCommand(frame.pid)]
        if isinstance(frame, frames.ANSWERS):
            return self._answer(frame)
        return []  # a heartbeat; a ready, job or cancel frame means nothing mid-job

    def _answer(self, frame: frames.Result | frames.JobError) -> list[Action]:
        actions: list[Action] = [KillLeftovers()] if self._held else []
        out_of_memory = isinstance(frame, frames.JobError) and frame.type == frames.OUT_OF_MEMORY
        if out_of_memory:
            actions.append(RetireWorker())
        if self.state is State.STOPPING:
            return actions + self._end(Stopped(self.stop_reason))
        if isinstance(frame, frames.Result):
            return actions + self._end(Answered(frame.value))
        if out_of_memory:
            return actions + self._end(OutOfMemory())
        return actions + self._end(Refused(frame.type, frame.message))

    def _stop(self, event: StopAsked) -> list[Action]:
        return self._begin_stop(event.reason)

    def _begin_stop(self, reason: str) -> list[Action]:
        self.state = State.STOPPING
        self.stop_reason = reason
        self._kill_at = self._clock() + self._grace
        self._held = True
        return [HoldTree(), SendCancel()]

    def _undelivered(self, event: CancelUndelivered) -> list[Action]:
        self._kill_at = self._clock()
        return self._time_passed(TimePassed())

    def _ended(self, event: WorkerEnded) -> list[Action]:
        actions: list[Action] = [] if self._held else [HoldOrphans()]
        return actions + [KillJob()] + self._end(self._or_the_stop(Died()))

    def _bad_frame(self, event: BadFrame) -> list[Action]:
        return self._kill(self._or_the_stop(BrokeChannel(event.problem)))

    def _time_passed(self, event: TimePassed) -> list[Action]:
        now = self._clock()
        if self.state is State.RUNNING and self._deadline is not None and now >= self._deadline:
            return self._begin_stop(self._deadline_reason) + self._time_passed(event)
        if self._kill_at is not None and now >= self._kill_at:
            return self._kill(Stopped(self.stop_reason))
        if now >= self._last_sign_of_life + self._wedge_deadline:
            return self._kill(self._or_the_stop(Wedged()))
        return []

    # -- endings ------------------------------------------------------------------------------

    def _or_the_stop(self, outcome: Outcome) -> Outcome:
        return Stopped(self.stop_reason) if self.state is State.STOPPING else outcome

    def _kill(self, outcome: Outcome) -> list[Action]:
        actions: list[Action] = [] if self._held else [HoldTree()]
        self._held = True
        return actions + [KillJob()] + self._end(outcome)

    def _end(self, outcome: Outcome) -> list[Action]:
        self.state = State.ENDED
        self.outcome = outcome
        return [End(outcome)]


# The transition table: (state, event) -> what happens. An event a state does not list changes
# nothing (a second stop while stopping; an undelivered cancel before any was sent).
_TABLE: dict[State, dict[type, Callable[[JobLifecycle, Any], list[Action]]]] = {
    State.RUNNING: {
        FrameArrived: JobLifecycle._frame,
        StopAsked: JobLifecycle._stop,
        WorkerEnded: JobLifecycle._ended,
        BadFrame: JobLifecycle._bad_frame,
        TimePassed: JobLifecycle._time_passed,
    },
    State.STOPPING: {
        FrameArrived: JobLifecycle._frame,
        CancelUndelivered: JobLifecycle._undelivered,
        WorkerEnded: JobLifecycle._ended,
        BadFrame: JobLifecycle._bad_frame,
        TimePassed: JobLifecycle._time_passed,
    },
    State.ENDED: {},
}
