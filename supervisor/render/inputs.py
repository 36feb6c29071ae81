"""What a render must never write: the files its project reads. The one check every render's
outputs pass before anything is written (queue renders in supervisor/render/plan.py, stills in
supervisor/render/stills.py, pre-renders and proxies in derived_footage.py, `rendervisor preview`),
confined or not.

A project's inputs are the files of every footage item in the render's snapshot (whether or
not the comp rendered shows it: a render must not destroy what another comp, or a later
render, reads) and the project file itself. A file written is an input when it is one by
its real path (symbolic links followed, in the name or in a folder above it), by its inode
(a hard link to an input is that input under another name), or when an image sequence's
pattern names it: a frame written there would become part of the footage, whether that
frame exists yet or not. `footage_reads.files_of` says which files footage reads, so this
check and confinement agree on it.

Reads the disk (resolves names, stats files, lists sequence folders) and never writes.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from typing import Iterable

from protocol.model.sequences import is_pattern, pattern_regex
from supervisor.confinement.roots import resolve_through_existing, shown
from supervisor.engine.footage_reads import files_of


@dataclass(frozen=True)
class Overwrite:
    """The first file a render would write over one of its inputs."""
    written: str  # the file as the render names it
    input: str  # `footage 'clip.mp4' (/shots/clip.mp4) of this project`, `the project file ...`
    link: str  # how the name reaches the input: "", ", which resolves to X", ", a hard link to X"
    more: int  # how many other files the render writes are inputs too

    def sentence(self, who: str, todo: str, nothing: str = "nothing was written") -> str:
        more = f" (and {self.more} more)" if self.more else ""
        return (f"{who} would overwrite {self.input} with {shown(self.written)}{self.link}{more}; "
                f"{nothing}: {todo}.")


def find_overwrite(document: dict, project_path: str | None, written: Iterable[str],
                   spare: Iterable[str] = ()) -> Overwrite | None:
    """The first of the files `written` that is an input of `document` (saved at
    `project_path`), or None; for a render of one output (a still, a pre-render, a proxy)."""
    return ProjectInputs(document, project_path, spare).overwrite(written)


class ProjectInputs:
    """The inputs of `document` (saved at `project_path`), gathered once so that a render of
    many items lists a long sequence's folder once. Footage whose id is in `spare` is left
    out: a proxy being made again replaces its own footage, which no render reads."""

    def __init__(self, document: dict, project_path: str | None,
                 spare: Iterable[str] = ()) -> None:
        self._resolver = _Resolver()
        self._files: dict[str, str] = {}  # real path -> the input's description
        self._inodes: dict[tuple[int, int], tuple[str, str]] = {}  # -> (description, path)
        self._patterns: list[tuple[str, re.Pattern, str]] = []  # (real folder, regex, ...)
        left_out = set(spare)
        for footage in document.get("footage", []):
            path = footage.get("path")
            if footage.get("id") in left_out or not isinstance(path, str):
                continue
            name = footage.get("name", footage.get("id"))
            self._add_footage(path, f"footage {name!r} ({shown(path)}) of this project")
        if project_path:
            self._add_file(project_path, f"the project file {shown(project_path)}")

    def overwrite(self, written: Iterable[str]) -> Overwrite | None:
        """The first of the files `written` that is one of these inputs, or None."""
        first, count = None, 0
        for path in written:
            found = self._met_by(path)
            if found is not None:
                count += 1
                first = first or (path, *found)
        return None if first is None else Overwrite(*first, more=count - 1)

    def _add_file(self, path: str, description: str) -> None:
        real, info = self._resolver.resolve(path)
        self._files.setdefault(real, description)
        if info is not None and stat.S_ISREG(info.st_mode):
            self._inodes.setdefault((info.st_dev, info.st_ino), (description, path))

    def _add_footage(self, path: str, description: str) -> None:
        for file in files_of(path):
            self._add_file(file, description)
        if is_pattern(path):
            folder, name = os.path.split(path)
            real_folder, _info = self._resolver.resolve(folder)
            self._patterns.append((real_folder, pattern_regex(name), description))

    def _met_by(self, path: str) -> tuple[str, str] | None:
        """(the input's description, how `path` reaches it) if writing `path` overwrites an
        input, else None."""
        real, info = self._resolver.resolve(path)
        description = self._files.get(real)
        if description is None and info is not None:
            description, other = self._inodes.get((info.st_dev, info.st_ino), (None, ""))
            if description is not None:
                return description, f", a hard link to {shown(other)}"
        if description is None:
            folder, _, name = real.rpartition(os.sep)
            folder = folder or os.sep
            description = next((description for real_folder, regex, description
                                in self._patterns
                                if folder == real_folder and regex.match(name)), None)
        if description is None:
            return None
        if real == os.path.normpath(os.path.abspath(path)):
            return description, ""
        return description, f", which resolves to {shown(real)}"


class _Resolver:
    """Real paths and file status of many files in few folders: a folder is resolved once,
    then each file costs one lstat (a render of 100 000 frames is one folder, not 100 000
    walks up the tree)."""

    def __init__(self) -> None:
        self._folders: dict[str, str] = {}

    def resolve(self, path: str) -> tuple[str, os.stat_result | None]:
        """(the real path, its status, or None if nothing is there yet)."""
        if not path.startswith(os.sep) or "/." in path or "//" in path:
            path = os.path.abspath(path)  # absolute, without `.`, `..` or doubled slashes
        # str.rpartition rather than os.path.split and join: this runs once per frame.
        folder, _, name = path.rpartition(os.sep)
        real_folder = self._folders.get(folder)
        if real_folder is None:
            real_folder = self._folders[folder] = resolve_through_existing(folder or os.sep)
        real = real_folder.rstrip(os.sep) + os.sep + name
        try:
            info = os.lstat(real)
        except OSError:
            return real, None
        if stat.S_ISLNK(info.st_mode):
            real = os.path.realpath(real)
            try:
                info = os.stat(real)
            except OSError:
                return real, None  # a dangling link: its target is what would be written
        return real, info
