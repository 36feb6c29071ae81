"""The one way work is told to stop: a cancel scope, as trio has it.

    who stops work                          the scope                    who waits, and is woken
    ───────────────                         ─────────                    ───────────────────────
    notifications/cancelled ──┐                                       ┌─► a pool's wait on its
    a shell's timeout, the    │   scope.cancel(reason)                │   worker (its wake-up pipe)
      preview deadline ───────┼──────────────► Cancel ─ callbacks ────┼─► a render's chunk waits
    stdin's end, SIGTERM ─────┤                  ▲     (once, in the  ├─► a shell's SIGTERM to its
    renderQueue.stop, Ctrl-C ─┘                  │      cancelling    │   command's group
                                                 │      thread)       └─► a lane's queued call
                                     the work: scope.check() at its safe points

Every job has one: an MCP call, a CLI render, a watch pass, a pool job, a worker's task. A
timeout is a deadline on the scope; whoever waits on the work fires it (`expire`), so a timeout,
a client's cancel, stdin's end and a signal all stop work the same way, and the work can tell
which by `reason`. A child scope (`child`) stops with its parent and may add a nearer deadline
of its own: a shell call's timeout inside the call, a preview's deadline inside a render.

Pure: no I/O, no threads of its own, no clock but time.monotonic for deadlines. A callback runs
in the thread that cancels, so it must be quick and never block (write a byte to a pipe, set a
flag, send a signal).
"""

from __future__ import annotations

import threading
import time
from typing import Callable

CANCELLED = "cancelled"  # the caller asked (notifications/cancelled, renderQueue.stop, Ctrl-C)
TIMEOUT = "timeout"  # the scope's own deadline passed


class Cancelled(Exception):
    """Raised by `Cancel.check` at a safe point of cancelled work; `reason` says why."""

    def __init__(self, reason: str = CANCELLED) -> None:
        super().__init__(reason)
        self.reason = reason


class Cancel:
    """A flag, the callbacks that wake waits on the work, and an optional deadline."""

    def __init__(self, deadline: float | None = None, deadline_reason: str = TIMEOUT) -> None:
        # A monotonic time, or None for none; past it `expire` cancels with `deadline_reason`.
        self.deadline = deadline
        self.deadline_reason = deadline_reason
        self.reason: str | None = None
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: dict[int, Callable[[], None]] = {}
        self._next_handle = 0
        self._detach: Callable[[], None] = lambda: None  # a child's link to its parent

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def cancel(self, reason: str = CANCELLED) -> None:
        """Stop the work: set the flag, then run every callback once. A second cancel changes
        nothing (the first reason stands)."""
        with self._lock:
            if self._event.is_set():
                return
            self.reason = reason
            self._event.set()
            callbacks, self._callbacks = list(self._callbacks.values()), {}
        for callback in callbacks:
            callback()

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run `callback` when the scope is cancelled (at once if it already is). Returns a
        function that forgets it, for a wait that ends before any cancel: a render's scope
        outlives thousands of chunk jobs, whose wake-ups must not pile up on it."""
        with self._lock:
            if not self._event.is_set():
                handle = self._next_handle
                self._next_handle += 1
                self._callbacks[handle] = callback
                return lambda: self._forget(handle)
        callback()
        return lambda: None

    def _forget(self, handle: int) -> None:
        with self._lock:
            self._callbacks.pop(handle, None)

    def check(self) -> None:
        """At a safe point of the work: Cancelled if the scope is cancelled or past its
        deadline."""
        self.expire()
        if self._event.is_set():
            raise Cancelled(self.reason or CANCELLED)

    def remaining(self) -> float | None:
        """Seconds left before the deadline (0 once past it), or None without one."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def expire(self) -> bool:
        """Cancel with the deadline's reason if the deadline has passed; whether the scope is
        now cancelled. Called by whoever waits on the work, when its wait times out."""
        if self.deadline is not None and not self._event.is_set() and self.remaining() == 0:
            self.cancel(self.deadline_reason)
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until cancelled or `timeout` seconds pass; whether it is cancelled."""
        return self._event.wait(timeout)

    def child(self, seconds: float | None = None, reason: str = TIMEOUT) -> "Cancel":
        """A scope cancelled with this one (with its reason), and after `seconds` on its own
        with `reason`, whichever comes first; its deadline is never later than this one's.
        `close()` it when its work ends, so this scope does not keep it."""
        deadline = None if seconds is None else time.monotonic() + seconds
        if self.deadline is not None and (deadline is None or self.deadline <= deadline):
            deadline, reason = self.deadline, self.deadline_reason
        child = Cancel(deadline, reason)
        child._detach = self.on_cancel(lambda: child.cancel(self.reason or CANCELLED))
        return child

    def close(self) -> None:
        """The work is over: a child scope unlinks from its parent (a scope of its own has
        nothing to let go of)."""
        self._detach()
