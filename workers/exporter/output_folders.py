"""An output folder held open by descriptor, so that no symbolic link swapped in after the
folder was checked can redirect what a render writes there.

    the supervisor, as an item starts:  OutputFolder.open(folder, verify)
        the nearest existing folder opened, its real path checked (verify: the session's write
        rule); the missing ones made and opened one at a time below it, with O_NOFOLLOW, each
        checked; the descriptor held until the item is settled (supervisor/render/run.py)
    each worker's chunk, the sound mix, a Dask chunk's writer:  OutputFolder.reopen(identity)
        the same folder opened by name and refused (FolderReplaced) unless it is that very
        folder (device and inode: the supervisor's open descriptor keeps the inode from being
        reused); from then on the name no longer matters
    every file:  created with O_EXCL | O_NOFOLLOW relative to the descriptor, renamed within it
        (renameat), read with O_NOFOLLOW, removed relative to it; a folder below it (the
        segment cache, a frame number field in a folder's name) is walked one name at a time
        with O_NOFOLLOW

So a link put at the folder's name (the folder renamed away, a link to /elsewhere renamed in
its place, in a loop) makes the next chunk refuse to start, never write through it, and a
link at any name inside the folder is replaced by a rename or refused by an open, never
followed. FFmpeg writes and reads through /proc/self/fd/N of a file opened here, so it never
resolves a name either.

Must never: resolve a name below the held folder by following a link, or write, rename or
remove anything by a path name once the folder is held.
"""

from __future__ import annotations

import contextlib
import errno
import os
from typing import Callable, Iterator

FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
Verify = Callable[[str], object]  # raises when the real path it is given may not be written


class FolderReplaced(OSError):
    """The folder at an output's name is no longer the one the render checked and holds."""

    def __init__(self, path: str) -> None:
        super().__init__(errno.ESTALE, f"the output folder {path} was replaced while the render "
                                       "ran (it is no longer the folder that was checked), so "
                                       "nothing more is written there; put it back, or render "
                                       "again to check the new one")


def real_path(fd: int) -> str:
    """Where an open descriptor really is, as the kernel resolved it when it was opened."""
    return os.readlink(f"/proc/self/fd/{fd}")


def fd_path(fd: int) -> str:
    """A name FFmpeg can open that reaches the open file `fd` itself, resolving no other name."""
    return f"/proc/self/fd/{fd}"


def folder_to_hold(output: str) -> str:
    """The folder a render of `output` holds: its own folder, or, when a folder's name holds a
    frame number field (`/o/[####]/f.png`: a folder per frame), the one above the first."""
    folder = os.path.dirname(os.path.abspath(output))
    while "[#" in os.path.basename(folder):
        folder = os.path.dirname(folder)
    return folder


class OutputFolder:
    """One folder held by descriptor, and the names below it."""

    def __init__(self, path: str, fd: int) -> None:
        self.path = os.path.normpath(path)
        self.fd = fd

    @classmethod
    def open(cls, folder: str, verify: Verify | None = None,
             made: Callable[[str], None] | None = None, create: bool = True) -> "OutputFolder":
        """`folder` held, made when missing (with `create`): the nearest existing folder opened
        by name, the rest made and opened below it one at a time with O_NOFOLLOW (each told to
        `made`); `verify` gets each one's real path, and refuses by raising."""
        folder = os.path.normpath(os.path.abspath(folder))
        head, missing = folder, []
        while create and not os.path.isdir(head):
            head, name = os.path.split(head)
            if not name:
                break
            missing.append(name)
        fd = os.open(head, FOLDER_FLAGS)
        try:
            if verify is not None:
                verify(real_path(fd))
            for name in reversed(missing):
                head = os.path.join(head, name)
                child = _child(fd, name, made, head)
                os.close(fd)
                fd = child
                if verify is not None:
                    verify(real_path(fd))
        except BaseException:
            os.close(fd)
            raise
        return cls(folder, fd)

    @classmethod
    def above(cls, path: str) -> "OutputFolder":
        """The nearest existing folder above `path`, opened by name: for a record that holds no
        folder (OpenedFiles), whose names below it are still never followed through a link."""
        head = os.path.dirname(os.path.normpath(os.path.abspath(path)))
        while not os.path.isdir(head) and head != os.path.dirname(head):
            head = os.path.dirname(head)
        return cls(head, os.open(head, FOLDER_FLAGS))

    @classmethod
    def reopen(cls, identity: list) -> "OutputFolder":
        """The folder `identity` ([path, device, inode], as `identity` gave it) held again, or
        FolderReplaced when the name now reaches another folder (or none)."""
        path, device, inode = identity
        try:
            fd = os.open(path, FOLDER_FLAGS)
        except OSError:
            raise FolderReplaced(path) from None
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) != (device, inode):
            os.close(fd)
            raise FolderReplaced(path)
        return cls(path, fd)

    @classmethod
    def of_job(cls, job: dict) -> "OutputFolder | None":
        """The folder a job's `folder` names (its identity), held again (`reopen`); None for a
        job that names none (its files are then reached through the folder above each)."""
        return cls.reopen(job["folder"]) if job.get("folder") is not None else None

    @property
    def identity(self) -> list:
        """[path, device, inode]: what a worker needs to hold the same folder (`reopen`)."""
        info = os.fstat(self.fd)
        return [self.path, info.st_dev, info.st_ino]

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def holds(self, path: str) -> bool:
        """Whether `path` names something below this folder."""
        path = os.path.normpath(os.path.abspath(path))
        return path.startswith(self.path.rstrip(os.sep) + os.sep)

    # -- names below the folder ------------------------------------------------------------

    @contextlib.contextmanager
    def parent_of(self, path: str,
                  made: Callable[[str], None] | None = None) -> Iterator[tuple[int, str]]:
        """(a descriptor of the folder holding `path`, its last name), the folders between
        walked with O_NOFOLLOW; with `made`, missing ones are made (each told to it)."""
        path = os.path.normpath(os.path.abspath(path))
        if not self.holds(path):
            raise ValueError(f"{path} is not inside the output folder {self.path}")
        names = os.path.relpath(path, self.path).split(os.sep)
        opened: list[int] = []
        fd, at = self.fd, self.path
        try:
            for name in names[:-1]:
                at = os.path.join(at, name)
                if made is not None:
                    fd = _child(fd, name, made, at)
                else:
                    fd = os.open(name, FOLDER_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
                opened.append(fd)
            yield fd, names[-1]
        finally:
            for descriptor in opened:
                os.close(descriptor)

    def make_folders(self, path: str, made: Callable[[str], None]) -> None:
        """Make the missing folders above `path` (each told to `made`)."""
        with self.parent_of(path, made):
            pass

    def create(self, path: str, mode: int = 0o666) -> int:
        """A new file at `path`, open for writing; never an existing name, never through a
        link (O_EXCL | O_NOFOLLOW)."""
        with self.parent_of(path) as (fd, name):
            return os.open(name, NEW_FILE_FLAGS, mode, dir_fd=fd)

    def open_read(self, path: str) -> int:
        """The file at `path`, open for reading; a link there is refused (ELOOP)."""
        with self.parent_of(path) as (fd, name):
            return os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)

    def rename(self, source: str, target: str) -> None:
        """Rename within the folder: whatever stands at `target` (a link too) is replaced."""
        with self.parent_of(source) as (source_fd, source_name), \
                self.parent_of(target) as (target_fd, target_name):
            os.rename(source_name, target_name, src_dir_fd=source_fd, dst_dir_fd=target_fd)

    def unlink(self, path: str) -> None:
        with self.parent_of(path) as (fd, name):
            os.unlink(name, dir_fd=fd)

    def rmdir(self, path: str) -> None:
        with self.parent_of(path) as (fd, name):
            os.rmdir(name, dir_fd=fd)

    def exists(self, path: str) -> bool:
        """Whether a name stands at `path` (a link is not followed)."""
        try:
            with self.parent_of(path) as (fd, name):
                os.stat(name, dir_fd=fd, follow_symlinks=False)
        except (FileNotFoundError, NotADirectoryError):
            return False
        return True

    def names(self, folder: str) -> list[str]:
        """The names in `folder` (this one, or one below it reached without a link)."""
        folder = os.path.normpath(os.path.abspath(folder))
        if folder == self.path:
            return os.listdir(self.fd)
        with self.parent_of(folder) as (fd, name):
            inner = os.open(name, FOLDER_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
        try:
            return os.listdir(inner)
        finally:
            os.close(inner)


def _child(fd: int, name: str, made: Callable[[str], None] | None, path: str) -> int:
    """The folder `name` in the open folder `fd`, made when missing (told to `made`), opened
    with O_NOFOLLOW: a link standing there is refused, never followed."""
    try:
        os.mkdir(name, 0o777, dir_fd=fd)
        if made is not None:
            made(path)
    except FileExistsError:
        pass  # there already, or made meanwhile: the O_NOFOLLOW open decides if it will do
    return os.open(name, FOLDER_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
