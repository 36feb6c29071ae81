"""The plain lines a farm command writes for an operator: each begins with the local time in ISO
8601 (`2025-06-01T14:03:07+02:00 rendering: ...`), so a node's log says when, and with `--log
FILE` each is also appended to FILE, which a node left running keeps across restarts.

The log file is opened once, for appending (O_APPEND: lines of two commands writing to one log
never overwrite each other); a line is written whole with one write. A log that cannot be
written is said once on stderr and then left alone: the render matters more than its log.
"""

from __future__ import annotations

import datetime
import os
import sys
import threading
from typing import TextIO

from supervisor.errors import UsageError


def now_iso() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def stamped(line: str) -> str:
    return f"{now_iso()} {line}"


class LogLines:
    """Writes stamped lines to `stream` (None: to the log alone) and to the log file."""

    def __init__(self, stream: TextIO | None, log_path: str | None = None,
                 command: str = "render") -> None:
        self.stream = stream
        self.command = command
        self._lock = threading.Lock()
        self._log_fd: int | None = None
        if log_path is not None:
            self._log_fd = open_log(log_path, command)

    def say(self, line: str, to_stream: bool = True) -> None:
        text = stamped(line)
        with self._lock:
            if to_stream and self.stream is not None:
                print(text, file=self.stream, flush=True)
            self.log(text)

    def log(self, text: str) -> None:
        """Append an already stamped line to the log file, if there is one."""
        if self._log_fd is None:
            return
        try:
            os.write(self._log_fd, (text + "\n").encode("utf-8", "replace"))
        except OSError as error:
            print(f"rendervisor {self.command}: cannot write the log ({error.strerror}); "
                  "going on without it.", file=sys.stderr, flush=True)
            self.close()

    def close(self) -> None:
        if self._log_fd is not None:
            os.close(self._log_fd)
            self._log_fd = None


def open_log(path: str, command: str) -> int:
    try:
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as error:
        raise UsageError(f"rendervisor {command}: cannot open the log {path} "
                         f"({error.strerror or error}); give --log a file in a folder that "
                         "exists and can be written.") from None


def append_to_log(path: str, line: str) -> None:
    """One stamped line appended to the log at `path` (an error said before the command's own
    log was open); nothing when it cannot be."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return
    try:
        os.write(fd, (stamped(line) + "\n").encode("utf-8", "replace"))
    except OSError:
        pass
    finally:
        os.close(fd)
