"""What a task sees of the job it runs: its payload, its cancel scope, and a way to report.

The scope (protocol/cancel.py) is the supervisor's cancel arriving: the worker's reader sets it
when a cancel frame comes. A task checks it between units of work (`job.cancel.check()`, which
raises Cancelled) or, when it waits on something else, has it call back (`job.cancel.on_cancel`:
a shell's SIGTERM to its command's group).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.cancel import Cancel
from protocol.wire.frames import PROGRESS
from workers.channel import Channel


@dataclass
class Job:
    id: int
    task: str
    payload: Any
    channel: Channel
    cancel: Cancel = field(default_factory=Cancel)

    def progress(self, data: Any) -> None:
        self.channel.send({"kind": PROGRESS, "id": self.id, "data": data})
