"""Temporaries a render killed outright left behind (a `kill -9`, a node that lost power: the
record that would have removed them died with the process), found by their shape beside the
files the next render writes, and removed; `rendervisor clean` sweeps the same way. So a
`.part` never outlives the output it was on its way to.

Only names shaped as ours (workers/exporter/atomic_files.py, `temporary_owner`) whose final
name is one this render writes are removed: another render writing other frames into the same
folder (a farm's tasks of one sequence) keeps its temporaries, and nothing else is touched.

Lists each folder once per render, through its held descriptor (output_folders.py), before
anything of this render is written there.
"""

from __future__ import annotations

import os
from typing import Callable, Iterable

from workers.exporter.atomic_files import temporary_owner
from workers.exporter.output_folders import OutputFolder


def temporaries_in(folder: OutputFolder) -> dict[str, list[str]]:
    """Final name -> the names of the temporaries in `folder` on their way to it."""
    owners: dict[str, list[str]] = {}
    for name in folder.names(folder.path):
        owner = temporary_owner(name)
        if owner is not None:
            owners.setdefault(owner, []).append(name)
    return owners


def remove_temporaries(folder: OutputFolder, names: Iterable[str]) -> int:
    """Remove the named temporaries from `folder`; how many were removed."""
    removed = 0
    for name in names:
        try:
            folder.unlink(os.path.join(folder.path, name))
            removed += 1
        except OSError:
            pass  # gone meanwhile, or not ours to remove after all: left as it is
    return removed


def sweep(folder: OutputFolder, belongs: Callable[[str], bool]) -> int:
    """Remove every temporary in `folder` whose final name `belongs` says is the caller's."""
    return remove_temporaries(folder, [name for owner, names in temporaries_in(folder).items()
                                       if belongs(owner) for name in names])


class Leftovers:
    """The temporaries of one render's folders, each folder listed once, as its first item
    starts; each item then takes those of its own files."""

    def __init__(self) -> None:
        self._found: dict[str, dict[str, list[str]]] = {}  # folder -> final name -> names

    def remove_for(self, folder: OutputFolder, files: Iterable[str]) -> int:
        """Remove the temporaries left for `files` (those directly in `folder`)."""
        found = self._found.get(folder.path)
        if found is None:
            found = self._found[folder.path] = temporaries_in(folder)
        names = [name for path in files if os.path.dirname(path) == folder.path
                 for name in found.pop(os.path.basename(path), ())]
        return remove_temporaries(folder, names)
