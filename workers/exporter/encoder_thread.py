"""A segment's encoder on a thread of its own, so a worker draws frame N+1 while its encoder
codes frame N.

    caller's thread:  draw N ─ convert N ─ put ─ draw N+1 ─ convert N+1 ─ put ─ ...
                                            │                              │
    encoder thread:                         └─ encode N, mux, progress ─┘ └─ encode N+1 ...

The caller converts each frame to the encoder's pixel format itself before handing it over (a
converted frame is a copy), so the array it draws into is free again at once, as it was when
everything ran on one thread. FFmpeg's encoders let go of the interpreter while they code a
frame, and Skia holds it only for a call at a time, so the two threads truly run side by side:
a worker alone on two cores uses both, and a worker whose chunk ends last no longer leaves a
core idle while it finishes. The frames reach the encoder in the order given, the same frames
as on one thread, so the file is the same, byte for byte.

Never: let the caller run more than DEPTH frames ahead (converted 1080p frames are 3 MiB
each), or leave the thread running once `finish` or `stop` has returned.
"""

from __future__ import annotations

import queue
import threading
from typing import Callable

# Converted frames waiting for the encoder. One keeps the encoder fed while the next is drawn;
# two absorb a frame that draws quickly after a slow one. More only holds memory: a worker's
# drawing and encoding cannot run further apart than their speeds allow.
DEPTH = 2
_END = None


class EncoderThread:
    """Runs `encode(frame, index)` for each frame put, on its own thread, in order."""

    def __init__(self, encode: Callable[[object, int], None]) -> None:
        self._encode = encode
        self._frames: queue.Queue = queue.Queue(maxsize=DEPTH)
        self._error: BaseException | None = None
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="segment encoder", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            item = self._frames.get()
            if item is _END:
                return
            if self._error is None and not self._stopping:
                try:
                    self._encode(*item)
                except BaseException as error:  # handed to the caller at its next put
                    self._error = error

    def put(self, frame, index: int) -> None:
        """Queue a frame; raises what the encoder raised on an earlier one."""
        self._raise()
        self._frames.put((frame, index))

    def finish(self) -> None:
        """Wait until every frame put is encoded; raises what the encoder raised."""
        self._frames.put(_END)
        self._thread.join()
        self._raise()

    def stop(self) -> None:
        """Drop the frames not encoded yet and wait for the thread to end (the caller failed
        or was cancelled)."""
        self._stopping = True
        self._frames.put(_END)
        self._thread.join()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error
