"""What a task sees of the job it runs: its payload, its cancel flag, and a way to report."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from workers.channel import Channel


class JobCancelled(Exception):
    """Raised by `Job.check_cancelled` so a task stops at its next safe point."""


@dataclass
class Job:
    id: int
    task: str
    payload: Any
    channel: Channel
    cancelled: threading.Event = field(default_factory=threading.Event)

    def progress(self, data: Any) -> None:
        self.channel.send({"kind": "progress", "id": self.id, "data": data})

    def check_cancelled(self) -> None:
        if self.cancelled.is_set():
            raise JobCancelled()
