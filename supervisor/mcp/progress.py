"""notifications/progress for one call: at most 10 a second, strictly increasing, none after
the response. Tools report as often as is natural; this decides what is sent.

A report that falls inside the rate limit is held, and the latest one held goes out before the
response (the response waits up to MIN_INTERVAL for it): without that, a render's last frames
land inside the limit and the client's last progress stops short of its total."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

MIN_INTERVAL = 0.1  # 10 notifications a second: enough to look live, cheap for any client
MESSAGE_LIMIT = 200  # characters; progress messages are status lines, not logs


class ProgressReporter:
    def __init__(self, token: Any, send: Callable[[dict], Any]) -> None:
        self.token = token
        self._send = send
        self._lock = threading.Lock()
        self._last_sent = -1.0
        self._last_value: float | None = None
        self._held: dict | None = None  # the latest report the rate limit kept back
        self.finished = False

    def report(self, progress: float, total: float | None = None,
               message: str | None = None) -> None:
        with self._lock:
            if self.finished:
                return
            if self._last_value is not None and progress <= self._last_value:
                return
            params: dict = {"progressToken": self.token, "progress": progress}
            if total is not None:
                params["total"] = total
            if message:
                params["message"] = message[:MESSAGE_LIMIT]
            if time.monotonic() - self._last_sent < MIN_INTERVAL:
                self._held = params
                return
            self._notify(params)

    def _notify(self, params: dict) -> None:
        # Sent under the lock so that `finish` (called before the response is written)
        # cannot be overtaken by a notification already on its way.
        self._last_sent = time.monotonic()
        self._last_value = params["progress"]
        self._held = None
        self._send({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})

    def finish(self, flush: bool = False) -> None:
        """No notification after this. With `flush` (the call is answered, not cancelled) the
        report held back goes first, once the rate limit allows it."""
        with self._lock:
            if flush and self._held is not None:
                time.sleep(max(0.0, self._last_sent + MIN_INTERVAL - time.monotonic()))
                self._notify(self._held)
            self.finished = True
