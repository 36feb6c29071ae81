"""The record of every file the exporter creates, so cancel and failure can take them back, and
the one way the exporter creates, renames and removes files.

A path is recorded *before* the file is opened, so a crash between the two leaves the record
a superset of what exists, never a subset. Cleanup removes exactly the recorded paths and
never scans a folder for similar names: a user's `Main_old.mp4` next to our `Main.mp4`, or a
frame that existed before the render (and was skipped), is not ours to remove.

Every file operation goes through the output folder the record holds (`held`, an
OutputFolder: output_folders.py), relative to its descriptor and never through a link, so a
link swapped in at the folder's name or at a name inside it redirects nothing. A record
without one (the exporter called on its own) opens the nearest existing folder above a path
by name for each operation, and still never follows a link below it.

A worker keeps one record per chunk and hands `paths` to the supervisor (plain strings, so
they cross the msgpack wire), which can merge them with `add_all` and clean up for the whole
render. Finished outputs are `keep`-ed: they leave the record and survive a later cancel.
"""

from __future__ import annotations

import contextlib
import os
from typing import Iterator

from workers.exporter.output_folders import OutputFolder


class OpenedFiles:
    def __init__(self, paths: list[str] | None = None, folders: list[str] | None = None,
                 held: OutputFolder | None = None) -> None:
        # A dict keeps insertion order and makes add idempotent.
        self._paths: dict[str, None] = dict.fromkeys(paths or ())
        self._folders: dict[str, None] = dict.fromkeys(folders or ())
        self.held = held  # the caller's to close

    # -- the record ------------------------------------------------------------------------

    def add(self, path: str) -> str:
        """Record `path` (call before opening it); returns it, to read well inline."""
        self._paths[os.path.abspath(path)] = None
        return path

    def add_all(self, paths) -> None:
        for path in paths:
            self.add(path)

    def made(self, folder: str) -> None:
        """Record a folder the render made, so cleanup takes it back when it ends up empty."""
        self._folders[os.path.abspath(folder)] = None

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

    # -- files, in the held folder -------------------------------------------------------------

    def make_folders(self, path: str) -> None:
        """Create the missing folders above `path`, recording each, so cleanup can take back
        the ones that end up empty (a folder that existed before is never recorded)."""
        with self._folder(path) as folder:
            folder.make_folders(path, self.made)

    def create(self, path: str) -> int:
        """Record `path`, then create it (never an existing name, never through a link); an
        open descriptor to write it through."""
        self.add(path)
        with self._folder(path) as folder:
            return folder.create(path)

    def open_read(self, path: str) -> int:
        """A descriptor to read the file at `path` (a link there is refused)."""
        with self._folder(path) as folder:
            return folder.open_read(path)

    def rename(self, source: str, target: str) -> None:
        """Put `source` at `target` (whatever stood there is replaced, a link included); the
        record follows the file."""
        self.add(target)
        with self._folder(source) as folder:
            folder.rename(source, target)
        self.forget(source)

    def exists(self, path: str) -> bool:
        with self._folder(path) as folder:
            return folder.exists(path)

    def remove(self, path: str) -> bool:
        """Remove a file at `path` and forget it; False when it could not be removed (it stays
        recorded, for a later cleanup to try again)."""
        try:
            with self._folder(path) as folder:
                folder.unlink(path)
        except FileNotFoundError:
            pass
        except OSError:
            return False
        self.forget(path)
        return True

    def remove_all(self) -> list[str]:
        """Remove every recorded file that exists; returns the ones removed.

        Keeps going past a file that cannot be removed, so one stuck file does not leave the
        rest behind; the record then holds only what could not be removed."""
        removed = []
        for path in list(self._paths):
            try:
                with self._folder(path) as folder:
                    folder.unlink(path)
                removed.append(path)
            except FileNotFoundError:
                pass
            except OSError:
                continue
            del self._paths[path]
        # Deepest first, and only when empty: a folder someone else wrote into stays.
        for path in sorted(self._folders, key=len, reverse=True):
            try:
                with self._folder(path) as folder:
                    folder.rmdir(path)
                del self._folders[path]
            except FileNotFoundError:
                del self._folders[path]
            except OSError:
                pass
        return removed

    @contextlib.contextmanager
    def _folder(self, path: str) -> Iterator[OutputFolder]:
        """The held folder when it holds `path`; else the nearest existing folder above it,
        opened by name for this one operation."""
        if self.held is not None and self.held.holds(path):
            yield self.held
            return
        folder = OutputFolder.above(path)
        try:
            yield folder
        finally:
            folder.close()
