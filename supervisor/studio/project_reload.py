"""`rendervisor studio PROJECT` follows its file: when the file changes on disk (a save from an
editor, a script, `rendervisor mcp` in another terminal), the studio opens it again.

A file caught half-written (an editor that truncates, then writes) fails to open: the document
shown stays as it was, the page says why, and the next change is tried again. Nothing is ever
written back.
"""

from __future__ import annotations

import os

from supervisor.engine.engine import Engine
from supervisor.errors import CommandError

# How often the file is looked at: a change shows within this, and a stat twice a second costs
# nothing. (No inotify: the same on every file system, a network share included.)
INTERVAL = 0.5


class ProjectReload:
    def __init__(self, engine: Engine, path: str) -> None:
        self.engine = engine
        self.path = path
        self.problem: str | None = None  # why the last change could not be opened
        self._stamp = _stamp(path)

    def check(self) -> bool:
        """Open the file again if it changed since last looked at; whether anything the page
        shows changed (the document, or the problem)."""
        stamp = _stamp(self.path)
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        if stamp is None:
            self.problem = f"{self.path} is gone; the studio shows it as it was last read."
            return True
        try:
            self.engine.run("project.open", {"path": self.path})
        except CommandError as error:
            self.problem = (f"{self.path} changed but could not be opened ({error}); the "
                            "studio shows it as it was, and tries again at its next change.")
            return True
        self.problem = None
        return True


def _stamp(path: str):
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns
