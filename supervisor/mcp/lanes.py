"""The two lanes that run tools/call: each a capped set of threads and a bounded wait queue.

The long lane runs shells and blocking renders; the quick lane runs everything else. Each lane
has its own cap, so eight ten-minute shells can never delay a file read. `submit` never blocks:
past the cap a call waits in the lane's queue, and past the queue bound it is refused at once,
so the stdin reader always goes straight back to reading.
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
