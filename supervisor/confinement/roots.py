"""Where the session may read and write: --read-root and --write-root.

Without roots nothing is confined. With roots, every path must be absolute and resolve (symbolic
links followed, no `..`) inside a root; containment compares whole path components, so /data2
is not inside /data. A path that does not exist yet resolves through its nearest existing folder.
Reads are allowed under read and write roots; writes only under write roots. Every refusal names
the rule that failed and the path.

This module only decides; it never opens a file. Checking a name and then opening it leaves a gap
in which a symbolic link can be swapped in, so the writers and readers that must not be fooled open
first and check what they opened (supervisor/confinement/checked_files.py) with these same rules.
It must never grow a second set of rules: every file tool, every engine command and every render
(through `guard`, the engine's path guard: supervisor/render/plan.py checks each item's output with
it, footage_reads.py each file footage reads) asks here.
"""

from __future__ import annotations

import os
from typing import Iterable

# What a confined session does with the shell tool: the one place the tool's refusal, its
# description and the server's instructions take it from (a sandboxed shell would change it
# here).
SHELL_WHILE_CONFINED = ("shell is refused while the session is confined to roots: a command "
                        "could reach any file on the machine")
# Linux refuses longer paths (PATH_MAX) anyway; refusing them here gives a sentence instead of
# ENAMETOOLONG half way through a write, and bounds the work resolving one name can cost.
MAX_PATH_LENGTH = 4096


class ConfinementError(Exception):
    """A path is outside the session's roots; the message names the rule and the path."""


def shown(path: object) -> str:
    """A path as a refusal prints it: as it is, or quoted when it holds control characters
    (a newline would break the one-line message, a NUL would hide the rest)."""
    text = str(path)
    return text if text.isprintable() else repr(text)


class Confinement:
    def __init__(self, read_roots: Iterable[str] = (), write_roots: Iterable[str] = ()) -> None:
        # Roots are resolved once, at start: a root that is itself a symbolic link confines to
        # where it points, and later swaps of that link change nothing.
        self.read_roots = [os.path.realpath(root) for root in read_roots]
        self.write_roots = [os.path.realpath(root) for root in write_roots]
        self.confined = bool(self.read_roots or self.write_roots)

    def check_read(self, path: str) -> str:
        """The resolved path to read, or ConfinementError."""
        resolved = self._resolve(path)
        roots = self.read_roots + self.write_roots
        if self.confined and not _inside_any(resolved, roots):
            raise ConfinementError(
                f"reading {shown(path)} is refused: it resolves to {shown(resolved)}, outside "
                f"the read roots ({', '.join(roots)}); while confined, files are read only "
                "under a --read-root or --write-root")
        return resolved

    def check_write(self, path: str) -> str:
        """The resolved path to write, or ConfinementError."""
        resolved = self._resolve(path)
        if self.confined:
            if not self.write_roots:
                raise ConfinementError(
                    f"writing {shown(path)} is refused: this session has no --write-root, so "
                    "nothing is written while it is confined")
            if not _inside_any(resolved, self.write_roots):
                raise ConfinementError(
                    f"writing {shown(path)} is refused: it resolves to {shown(resolved)}, "
                    f"outside the write roots ({', '.join(self.write_roots)}); while confined, "
                    "files are written only under a --write-root")
        return resolved

    def guard(self, path: str, mode: str) -> str:
        """The engine's path guard (Engine(path_guard=...)): mode "read" or "write"."""
        if mode == "write":
            return self.check_write(path)
        if mode == "read":
            return self.check_read(path)
        raise ValueError(f"a path guard mode is read or write, not {mode!r}")

    def refuse_shell(self) -> None:
        if self.confined:
            raise ConfinementError(SHELL_WHILE_CONFINED)

    def _resolve(self, path: str) -> str:
        if not isinstance(path, str) or not path:
            raise ConfinementError("a path must be a non-empty string")
        if "\x00" in path:
            raise ConfinementError(f"{shown(path)} is refused: it contains a NUL byte, which no "
                                   "file name may hold")
        if len(path) > MAX_PATH_LENGTH:
            raise ConfinementError(f"a path of {len(path)} characters is refused: the longest "
                                   f"a path may be is {MAX_PATH_LENGTH} ({shown(path[:80])}...)")
        if not os.path.isabs(path):
            if self.confined:
                raise ConfinementError(f"{shown(path)} is refused: it is relative, and while "
                                       "confined every path must be absolute")
            path = os.path.abspath(path)
        if path.startswith("//"):  # POSIX lets `//` mean something else; Linux reads it as `/`
            path = "/" + path.lstrip("/")
        # `..` after a symbolic link climbs out of the link's target, not out of the folder the
        # text names, so a lexical cleanup could approve a path the kernel resolves elsewhere.
        # Refusing it is simpler than resolving it exactly, and no caller needs it.
        if self.confined and ".." in path.split(os.sep):
            raise ConfinementError(f"{shown(path)} is refused: it contains '..', and while "
                                   "confined paths must not")
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
    return os.path.normpath(os.path.join(os.path.realpath(head), *reversed(tail)))


def inside(path: str, root: str) -> bool:
    """Whether `path` is `root` or under it, by whole components (/data2 is not in /data)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _inside_any(path: str, roots: list[str]) -> bool:
    return any(inside(path, root) for root in roots)
