"""Waiting for a `rendervisor render` subprocess to be midway (some frames or segments on disk)
before a test interrupts or kills it.

The wait looks at the files every few milliseconds instead of reading progress events: those come
at most ten a second, so on a fast machine the last frames of a short render can be written
between two of them, and the signal meant to interrupt the render finds it over. A render that
ends before it is midway fails the wait at once, with its exit code, never by a timeout or a
wrong exit code later.
"""

from __future__ import annotations

import os
import subprocess
import time
from typing import Callable


def wait_midway(process: subprocess.Popen, ready: Callable[[], bool], what: str,
                timeout: float = 60.0) -> None:
    """Return once `ready()` while `process` still runs; fail if it ended first or if `what`
    (the state awaited, for the message) never came within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not ready():
        if process.poll() is not None:
            raise AssertionError(f"the render ended (exit {process.returncode}) before {what}")
        assert time.monotonic() < deadline, f"no {what} within {timeout:g} s"
        time.sleep(0.005)


def count_named(folder, prefix: str, suffix: str) -> int:
    """How many files in `folder` (none if it is not there yet) are named prefix...suffix."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return 0
    return sum(name.startswith(prefix) and name.endswith(suffix) for name in names)


def segments_cached(video) -> int:
    """Finished segments kept for a resume of `video` (a pathlib.Path)."""
    return count_named(video.parent / f".{video.name}.segments", "", ".seg")
