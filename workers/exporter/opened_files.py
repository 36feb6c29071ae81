"""The record of every file the exporter creates, so cancel and failure can take them back.

A path is recorded *before* the file is opened, so a crash between the two leaves the record
a superset of what exists, never a subset. Cleanup removes exactly the recorded paths and
never scans a folder for similar names: a user's `Main_old.mp4` next to our `Main.mp4`, or a
frame that existed before the render (and was skipped), is not ours to remove.

A worker keeps one record per chunk and hands `paths` to the supervisor (plain strings, so
they cross the msgpack wire), which can merge them with `add_all` and clean up for the whole
render. Finished outputs are `keep`-ed: they leave the record and survive a later cancel.
"""

from __future__ import annotations

import os


class OpenedFiles:
    def __init__(self, paths: list[str] | None = None, folders: list[str] | None = None) -> None:
        # A dict keeps insertion order and makes add idempotent.
        self._paths: dict[str, None] = dict.fromkeys(paths or ())
        self._folders: dict[str, None] = dict.fromkeys(folders or ())

    def make_folders(self, path: str) -> None:
        """Create the missing folders above `path`, recording each, so cleanup can take back
        the ones that end up empty (a folder that existed before is never recorded)."""
        missing = []
        folder = os.path.dirname(os.path.abspath(path))
        while not os.path.isdir(folder):
            missing.append(folder)
            folder = os.path.dirname(folder)
        for folder in reversed(missing):
            self._folders[folder] = None
            os.makedirs(folder, exist_ok=True)

    def add(self, path: str) -> str:
        """Record `path` (call before opening it); returns it, to read well inline."""
        self._paths[os.path.abspath(path)] = None
        return path

    def add_all(self, paths) -> None:
        for path in paths:
            self.add(path)

    def merge(self, other: "OpenedFiles") -> None:
        """Take over another record's files and folders (a worker's chunk, at the supervisor)."""
        self.add_all(other.paths)
        self._folders.update(dict.fromkeys(other.folders))

    def forget(self, path: str) -> None:
        """The file is no longer ours to remove: renamed away, removed by us, or kept."""
        self._paths.pop(os.path.abspath(path), None)

    def keep(self, paths=None) -> None:
        """The given files (all, when None) are finished outputs: a later cleanup spares them."""
        if paths is None:
            self._paths.clear()
            self._folders.clear()
        else:
            for path in paths:
                self.forget(path)

    @property
    def paths(self) -> list[str]:
        return list(self._paths)

    @property
    def folders(self) -> list[str]:
        return list(self._folders)

    def __contains__(self, path: str) -> bool:
        return os.path.abspath(path) in self._paths

    def __len__(self) -> int:
        return len(self._paths)

    def remove_all(self) -> list[str]:
        """Remove every recorded file that exists; returns the ones removed.

        Keeps going past a file that cannot be removed, so one stuck file does not leave the
        rest behind; the record then holds only what could not be removed."""
        removed = []
        for path in list(self._paths):
            try:
                os.unlink(path)
                removed.append(path)
            except FileNotFoundError:
                pass
            except OSError:
                continue
            del self._paths[path]
        # Deepest first, and only when empty: a folder someone else wrote into stays.
        for folder in sorted(self._folders, key=len, reverse=True):
            try:
                os.rmdir(folder)
                del self._folders[folder]
            except FileNotFoundError:
                del self._folders[folder]
            except OSError:
                pass
        return removed
