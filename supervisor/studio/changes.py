"""What the page's streams wait on: a count of changes per topic, bumped from any thread, and a
wake-up on the studio's event loop.

    engine revision moves ─┐
    a call event ──────────┼─► poke(topic) ──► versions[topic] += 1 ──► one call_soon_threadsafe
    a project file reload ─┘     (any thread, returns at once)          per burst ──► every
                                                                        stream's wait() returns

`poke` is called under the engine's lock and on the MCP reader, so it only counts and, once per
burst, hands the loop a callback: a thousand progress reports before the loop runs cost one
wake-up.
"""

from __future__ import annotations

import asyncio
import threading

TOPICS = ("document", "activity")


class Changes:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._versions = {topic: 0 for topic in TOPICS}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._woken: asyncio.Event | None = None
        self._pending = False

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Called on the studio's loop as it starts: from now on pokes wake its streams."""
        self._woken = asyncio.Event()
        with self._lock:
            self._loop = loop

    def poke(self, topic: str) -> None:
        with self._lock:
            self._versions[topic] += 1
            if self._pending or self._loop is None:
                return
            self._pending = True
            loop = self._loop
        try:
            loop.call_soon_threadsafe(self._wake)
        except RuntimeError:  # the loop has closed: the studio is ending
            pass

    def versions(self) -> dict:
        with self._lock:
            return dict(self._versions)

    def _wake(self) -> None:
        with self._lock:
            self._pending = False
        woken, self._woken = self._woken, asyncio.Event()
        woken.set()

    async def wait(self, seen: dict, timeout: float) -> dict:
        """The versions once they differ from `seen`, or after `timeout` seconds."""
        current = self.versions()
        if current != seen:
            return current
        try:
            await asyncio.wait_for(self._woken.wait(), timeout)
        except asyncio.TimeoutError:
            pass
        return self.versions()
