"""Writing protocol lines to stdout: whole lines, one lock, and never a traceback.

Every frame the session sends goes through `LineWriter.send`. Serialising happens before the
lock (a slow or failing dumps never holds up another writer); the write and flush happen under
it, so two threads' lines never interleave. A closed pipe (BrokenPipeError, OSError, ValueError
from a closed file) marks the writer closed and calls `on_closed` once: the session then shuts
down instead of raising in whatever thread happened to write.
"""

from __future__ import annotations

import threading
from typing import BinaryIO, Callable

from protocol.wire import jsonrpc


class LineWriter:
    def __init__(self, stream: BinaryIO, on_closed: Callable[[], None]) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self._on_closed = on_closed
        self.closed = False

    def send(self, message: dict) -> bool:
        """Send one message; False if it could not be serialised or the pipe is closed.
        The caller decides what an unserialisable message becomes (see send_response)."""
        try:
            line = jsonrpc.encode(message)
        except (TypeError, ValueError, RecursionError, OverflowError):
            return False
        return self.send_line(line)

    def send_line(self, line: bytes) -> bool:
        with self._lock:
            if self.closed:
                return False
            try:
                self._stream.write(line)
                self._stream.flush()
                return True
            except (BrokenPipeError, OSError, ValueError):
                self.closed = True
        self._on_closed()
        return False

    def send_response(self, message: dict) -> bool:
        """A response whose result cannot be serialised becomes -32603 for that id."""
        try:
            line = jsonrpc.encode(message)
        except (TypeError, ValueError, RecursionError, OverflowError) as exc:
            line = jsonrpc.encode(jsonrpc.error(
                message.get("id"), jsonrpc.INTERNAL_ERROR,
                f"Internal error: the result could not be serialised as JSON ({exc})."))
        return self.send_line(line)
