"""A worker's end of its private socket: whole frames out under one lock, frames in.

Only this process writes to its end, and only through `send`, whose lock keeps the job's
thread, the heartbeat thread and the log handler from interleaving bytes of two frames. Only
the worker's one main thread reads: between jobs (`receive`), and while a job runs, when the
job looks for a cancel (`take_waiting`).
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

    def send(self, frame: frames.Frame) -> None:
        data = frames.encode(frame)
        with self._lock:
            self._sock.sendall(data)

    def send_raw(self, data: bytes) -> None:
        """Bytes as they are, under the same lock: only for tests that break the pipe on purpose
        (the `misbehave` task)."""
        with self._lock:
            self._sock.sendall(data)

    def receive(self) -> frames.Frame | None:
        """The next frame, or None when the supervisor closed its end."""
        while not self._pending:
            data = self._sock.recv(1 << 20)
            if not data:
                return None
            self._pending.extend(self._reader.feed(data))
        return self._pending.pop(0)

    def take_waiting(self, kind: type) -> list[frames.Frame] | None:
        """Frames of the class `kind` that have arrived, read without waiting (other frames stay for
        `receive`); None when the supervisor closed its end."""
        while True:
            try:
                data = self._sock.recv(1 << 20, socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                break
            if not data:
                return None
            self._pending.extend(self._reader.feed(data))
        taken = [frame for frame in self._pending if isinstance(frame, kind)]
        if taken:
            self._pending = [frame for frame in self._pending if not isinstance(frame, kind)]
        return taken

    def fileno(self) -> int:
        """The socket, for a task that waits on other things too (readable: frames came)."""
        return self._sock.fileno()
