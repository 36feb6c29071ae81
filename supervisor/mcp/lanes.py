"""The lanes that run tools/call: each a capped set of threads and a bounded wait queue.

    quick    file tools, edits, reads: never waits on a worker
    long     shells and blocking renders
    preview  previews, filmstrips, layout checks, sound levels, template previews: wait for
             the preview worker (or borrow idle render workers)
    probe    calls that read a file on a probe worker (footage.import, a font file, captions)
             or measure text there

Each lane has its own cap, so eight ten-minute shells, eight previews queued for the one
preview worker or eight imports of hostile files can never delay a file read or an edit: a
call waiting for a worker holds a thread of its own lane only. `submit` never blocks: past the
cap a call waits in the lane's queue, and past the queue bound it is refused at once, so the
stdin reader always goes straight back to reading.
"""

from __future__ import annotations

import collections
import threading
from typing import Callable

# How many calls may wait behind a full lane, as a multiple of its cap. Waiting calls are cheap (a
# closure each), and an agent host with several subagents sends bursts of dozens of quick calls;
# but a client that has queued 16 lanes' worth is not being served in any useful time, and is
# better told so now than left to pile up calls without bound.
QUEUE_FACTOR = 16
LANES = ("quick", "long", "preview", "probe")
# A tool's lane by what it says it is (supervisor/mcp/tools/registry.py's Tool.lane): a
# blocking render runs in the long lane (and is let finish when stdin ends).
LANE_OF = {"render": "long"}


def lane_named(kind: str) -> str:
    """The lane a tool call of `kind` ("quick", "render", "probe", ...) runs in."""
    return LANE_OF.get(kind, kind)


class Lane:
    def __init__(self, name: str, cap: int) -> None:
        self.name = name
        self.cap = max(1, cap)
        self.queue_bound = self.cap * QUEUE_FACTOR
        self._lock = threading.Condition()
        self._waiting: collections.deque = collections.deque()
        self._threads = 0
        self._idle = 0
        self.running = 0

    def submit(self, work: Callable[[], None]) -> str | None:
        """Queue `work`; None when accepted, else a sentence saying why it was refused."""
        with self._lock:
            # Counted as running + waiting, not by the queue alone: a call just handed to a
            # thread that has not picked it up yet must not make room for one more.
            if self.running + len(self._waiting) >= self.cap + self.queue_bound:
                return (f"The {self.name} lane is full: {self.running} calls are running and "
                        f"{len(self._waiting)} are waiting. Retry when some have finished.")
            self._waiting.append(work)
            if self._idle:
                self._lock.notify()
            elif self._threads < self.cap:
                self._threads += 1
                threading.Thread(target=self._serve, daemon=True,
                                 name=f"{self.name}-lane-{self._threads}").start()
        return None

    def _serve(self) -> None:
        while True:
            with self._lock:
                while not self._waiting:
                    self._idle += 1
                    self._lock.wait()
                    self._idle -= 1
                work = self._waiting.popleft()
                self.running += 1
            try:
                work()
            finally:
                with self._lock:
                    self.running -= 1
