"""A worker's end of its private socket: whole frames out under one lock, frames in.

Only this process writes to its end, and only through `send`, whose lock keeps the job thread,
the heartbeat thread and the log handler from interleaving bytes of two frames.
"""

from __future__ import annotations

import socket
import threading

from protocol.wire import frames


class Channel:
    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._lock = threading.Lock()
        self._reader = frames.FrameReader()
        self._pending: list[dict] = []

    def send(self, frame: dict) -> None:
        data = frames.encode(frame)
        with self._lock:
            self._sock.sendall(data)

    def send_raw(self, data: bytes) -> None:
        """Bytes as they are, under the same lock: only for tests that break the pipe on purpose
        (the `misbehave` task)."""
        with self._lock:
            self._sock.sendall(data)

    def receive(self) -> dict | None:
        """The next frame, or None when the supervisor closed its end."""
        while not self._pending:
            data = self._sock.recv(1 << 20)
            if not data:
                return None
            self._pending.extend(self._reader.feed(data))
        return self._pending.pop(0)
