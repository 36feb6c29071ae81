"""How a watch node tells what it does: one event per thing that happened to a project (it
renders, ended done, failed or stopped, was skipped for now, waits for its file to settle) and
one when a pass found nothing to do.

Plain (the default): one line each, the local ISO time first (supervisor/cli/log_lines.py),
`2025-06-01T14:03:07+02:00 failed /drop/a.rvproj: ...`, on stdout and in `--log FILE`.
`--json`: one JSON object per line on stdout instead, `{"event", "time", "project",
"message"?, ...}` (the log file, if any, still gets the plain line).
"""

from __future__ import annotations

import json
import sys
import threading
from typing import TextIO

from supervisor.cli.log_lines import LogLines, now_iso, stamped


class WatchEvents:
    def __init__(self, as_json: bool = False, log_path: str | None = None,
                 out: TextIO = sys.stdout) -> None:
        self.as_json = as_json
        self.out = out
        # Plain lines go to stdout and the log; with --json, to the log alone.
        self.lines = LogLines(None if as_json else out, log_path, "watch")
        self._lock = threading.Lock()

    def project(self, event: str, project: str, message: str | None = None,
                **fields) -> None:
        """`event` (rendering, done, failed, stopped, skipped, waiting) of `project`."""
        line = f"{event} {project}" + (f": {message}" if message else "")
        self._emit(line, {"event": event, "project": project,
                          **({"message": message} if message else {}), **fields})

    def idle(self, folder: str, sentence: str) -> None:
        self._emit(sentence, {"event": "idle", "folder": folder, "message": sentence})

    def _emit(self, line: str, event: dict) -> None:
        if not self.as_json:
            self.lines.say(line)
            return
        self.lines.log(stamped(line))
        with self._lock:
            self.out.write(json.dumps({**event, "time": now_iso()}) + "\n")
            self.out.flush()

    def close(self) -> None:
        self.lines.close()
