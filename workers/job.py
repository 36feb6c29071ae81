"""What a task sees of the job it runs: its payload, its cancel scope, and a way to report.

The scope (protocol/cancel.py) is the supervisor's cancel arriving. Nothing reads the worker's
socket while a job runs but the job itself: the scope looks for a cancel frame each time the
task checks it (`job.cancel.check()`, between units of work: it reads what has arrived without
waiting, then raises Cancelled if the job was cancelled). A task that waits on something else
waits on `job.cancel_fd()` too and calls `job.listen()` when it is readable, so a cancel
reaches its callbacks at once (`job.cancel.on_cancel`: a shell's SIGTERM to its command's
group). No second thread reads for the job, so none competes with it for the interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from protocol.cancel import Cancel
from protocol.wire.frames import CommandStarted, Progress
from workers.channel import Channel


class ListeningCancel(Cancel):
    """A job's scope that, when checked, first takes the cancels that have come for it."""

    def __init__(self, listen: Callable[[], None]) -> None:
        super().__init__()
        self._listen = listen

    def check(self) -> None:
        self._listen()
        super().check()

    @property
    def cancelled(self) -> bool:
        self._listen()
        return super().cancelled


def _no_listening() -> None:
    pass


@dataclass
class Job:
    id: int
    task: str
    payload: Any
    channel: Channel
    listen: Callable[[], None] = _no_listening  # takes the cancels that have come (worker_main)
    cancel: Cancel = field(init=False)

    def __post_init__(self) -> None:
        self.cancel = ListeningCancel(self.listen)

    def progress(self, data: Any) -> None:
        self.channel.send(Progress(self.id, data))

    def command_started(self, pid: int) -> None:
        """Name the command this job started in a session of its own, so the supervisor can
        end its group even if this worker dies first."""
        self.channel.send(CommandStarted(self.id, pid))

    def cancel_fd(self) -> int:
        """Readable when a frame (a cancel) has come for the running job: wait on it beside
        whatever else the task waits on, then call `listen`."""
        return self.channel.fileno()
