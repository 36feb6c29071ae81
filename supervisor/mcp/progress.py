"""notifications/progress for one call: at most 10 a second, strictly increasing, none after
the response. Tools report as often as is natural; this decides what is sent."""

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
        self.finished = False

    def report(self, progress: float, total: float | None = None,
               message: str | None = None) -> None:
        with self._lock:
            now = time.monotonic()
            if self.finished or now - self._last_sent < MIN_INTERVAL:
                return
            if self._last_value is not None and progress <= self._last_value:
                return
            self._last_sent = now
            self._last_value = progress
            params: dict = {"progressToken": self.token, "progress": progress}
            if total is not None:
                params["total"] = total
            if message:
                params["message"] = message[:MESSAGE_LIMIT]
            # Sent under the lock so that `finish` (called before the response is written)
            # cannot be overtaken by a notification already on its way.
            self._send({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})

    def finish(self) -> None:
        with self._lock:
            self.finished = True
