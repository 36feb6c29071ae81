"""Settings an operator or a test gives in the environment, read when a front door starts.

They tune bounds that have no command-line flag (the preview deadline, the workers' memory
limit; docs/reliability.md lists them). A value that is not a positive number stops the
command at start with one line naming the variable, rather than running with a bound nobody
asked for.
"""

from __future__ import annotations

import math
import os

from supervisor.errors import UsageError


def positive_number(name: str, default: float, unit: str) -> float:
    """The number in environment variable `name`, or `default` when it is unset or empty."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise UsageError(f"rendervisor: the environment variable {name}={text!r} must be a "
                         f"number of {unit} above 0; fix it or unset it to use {default:g}.")
    return value
