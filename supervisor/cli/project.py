"""Opening a project for a command-line subcommand, and checking outputs before a render:
every problem becomes one UsageError line (exit 2), never a traceback."""

from __future__ import annotations

import os
import tempfile

from supervisor.errors import UsageError
from supervisor.engine.engine import Engine
from supervisor.engine.probes import Probes
from supervisor.errors import CommandError


def open_engine(path: str, command: str, pool=None) -> Engine:
    """An engine holding the project at `path`, reading files on `pool`'s probe workers (this
    process's own pool without one); UsageError naming it when it cannot be opened (missing,
    unreadable, not JSON, not a valid project)."""
    try:
        return Engine(path, probes=Probes(pool))
    except CommandError as error:
        raise UsageError(f"rendervisor {command}: {error}") from None


def check_writable(output: str, command: str) -> None:
    """Refuse an output whose folder cannot be created or written, before any worker starts.

    The nearest folder that exists is tried with a real temporary file rather than os.access,
    which says yes to root even on a read-only file system."""
    folder = os.path.dirname(os.path.abspath(output))
    while not os.path.exists(folder):
        folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        raise UsageError(f"rendervisor {command}: cannot write {output}: {folder} is a file, "
                         "not a folder; choose another --output.")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise UsageError(f"rendervisor {command}: cannot write {output}: {folder} is not "
                         f"writable ({error.strerror or error}); choose another --output or "
                         "fix the folder's permissions.") from None
