"""Where the session may read and write: --read-root and --write-root.

Without roots nothing is confined. With roots, every path must be absolute and resolve (symbolic
links followed, no `..`) inside a root; containment compares whole path components, so /data2
is not inside /data. A path that does not exist yet resolves through its nearest existing folder.
Reads are allowed under read and write roots; writes only under write roots. Every refusal names
the rule that failed and the path.
"""

from __future__ import annotations

import os


class ConfinementError(Exception):
    """A path is outside the session's roots; the message names the rule and the path."""


class Confinement:
    def __init__(self, read_roots: list[str] = (), write_roots: list[str] = ()) -> None:
        self.read_roots = [os.path.realpath(root) for root in read_roots]
        self.write_roots = [os.path.realpath(root) for root in write_roots]
        self.confined = bool(self.read_roots or self.write_roots)

    def check_read(self, path: str) -> str:
        """The resolved path to read, or ConfinementError."""
        resolved = self._resolve(path)
        if self.confined and not _inside_any(resolved, self.read_roots + self.write_roots):
            raise ConfinementError(f"{path} is outside the read roots "
                                   f"({', '.join(self.read_roots + self.write_roots)}): "
                                   "reading is allowed only under a --read-root or --write-root")
        return resolved

    def check_write(self, path: str) -> str:
        """The resolved path to write, or ConfinementError."""
        resolved = self._resolve(path)
        if self.confined:
            if not self.write_roots:
                raise ConfinementError(f"{path} cannot be written: this session has no "
                                       "--write-root, so nothing is written")
            if not _inside_any(resolved, self.write_roots):
                raise ConfinementError(f"{path} is outside the write roots "
                                       f"({', '.join(self.write_roots)}): writing is allowed "
                                       "only under a --write-root")
        return resolved

    def refuse_shell(self) -> None:
        if self.confined:
            raise ConfinementError("shell is refused while the session is confined to roots: a "
                                   "command could reach any file on the machine")

    def _resolve(self, path: str) -> str:
        if not isinstance(path, str) or not path:
            raise ConfinementError("a path must be a non-empty string")
        if "\x00" in path:
            raise ConfinementError(f"{path!r} contains a NUL byte, which no file name may hold")
        if not os.path.isabs(path):
            if self.confined:
                raise ConfinementError(f"{path} is relative: while confined every path must be "
                                       "absolute")
            path = os.path.abspath(path)
        if self.confined and ".." in path.split(os.sep):
            raise ConfinementError(f"{path} contains '..': while confined paths must not")
        return resolve_through_existing(path)


def resolve_through_existing(path: str) -> str:
    """Resolve symlinks in the longest existing prefix; append the rest as it is."""
    path = os.path.normpath(path)
    head, tail = path, []
    while not os.path.lexists(head):
        head, name = os.path.split(head)
        tail.append(name)
        if not name:
            break
    return os.path.join(os.path.realpath(head), *reversed(tail))


def _inside_any(path: str, roots: list[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip(os.sep) + os.sep) for root in roots)
