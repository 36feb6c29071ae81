"""Waiting for a state instead of sleeping for a time: a test on a machine shared with other
test runs must not guess how long something takes."""

from __future__ import annotations

import time
from typing import Callable


def wait_until(condition: Callable[[], object], timeout: float, what: str,
               every: float = 0.05) -> None:
    """Return as soon as `condition()` is true; fail saying `what` never happened after
    `timeout` seconds (a bound on a hang, not on speed: make it generous)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} within {timeout:g} s"
        time.sleep(every)
