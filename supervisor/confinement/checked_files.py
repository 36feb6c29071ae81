"""Opening files so that a symbolic link swapped in after the confinement check cannot redirect
the read or the write.

Checking a name and then opening it by that name leaves a gap: between the two, a folder or the
file itself can be replaced by a link to somewhere outside the roots. So here a file or a folder
is opened first, and what was opened is checked: the kernel names an open descriptor's real path
in /proc/self/fd, and that path goes through the session's rules (supervisor/confinement/roots.py)
before a byte is read or written.

A write goes into a folder held open by descriptor: missing folders are made one at a time,
each relative to its checked parent and opened with O_NOFOLLOW; the new content goes to a
temporary created there with O_EXCL | O_NOFOLLOW; a rename within that same descriptor puts it
in place. A link or a hard link standing at the final name is therefore replaced, never written
through, and the folder cannot be swapped once it is open.

A file that must be a plain file (a project, a status or claim file a watch node reads) is
opened with O_NONBLOCK and looked at with fstat before a byte is read (`open_regular`): a FIFO
or a device standing at the name would otherwise block open() or read() forever, in a thread
that then ignores SIGTERM.

This module must never write by path name after a check, and never follow a link when it
creates something, and never read from what it opened before knowing it is a regular file
where one is expected.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from typing import Callable

from workers.exporter.output_folders import OutputFolder, real_path

Verify = Callable[[str], object]  # raises when the real path it is given is not allowed

NEW_FILE_MODE = 0o644
# What a name stands for when it is not a regular file, for the sentence that refuses it.
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
# Longest final name that still leaves room for the temporary's prefix and suffix (NAME_MAX is
# 255 on Linux file systems); longer names get a short temporary name instead.
_LONG_NAME = 200


def open_folder(folder: str, verify: Verify, create: bool = False) -> int:
    """A descriptor on `folder` whose real path `verify` approved. With `create`, missing
    folders are made one by one below the nearest existing one, each checked as it is opened
    (the walk a render's output folder takes too: workers/exporter/output_folders.py)."""
    return OutputFolder.open(folder, verify, create=create).fd


def open_to_read(path: str, verify: Verify, dir_fd: int | None = None) -> int:
    """A read-only descriptor on `path` (relative to `dir_fd` if given) whose real path `verify`
    approved. O_NONBLOCK keeps a FIFO put in the file's place from hanging the open; callers
    look at fstat before reading."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=dir_fd)
    try:
        verify(real_path(fd))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


class NotRegularFile(OSError):
    """A name that stands for a folder, a FIFO, a socket or a device where a file was expected;
    `kind` says which ("a FIFO (named pipe)")."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(errno.EINVAL, f"it is {kind}, not a regular file", path)
        self.kind = kind


def open_regular(path: str, verify: Verify = lambda real: None) -> int:
    """A read-only descriptor on the regular file at `path` (real path approved by `verify`),
    opened without waiting (open_to_read) and checked before anything is read from it;
    NotRegularFile for anything else."""
    fd = open_to_read(path, verify)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotRegularFile(path, kind_of(mode))
    return fd


def kind_of(mode: int) -> str:
    """What a file of `mode` that is not a regular file is, in words ("a FIFO (named pipe)")."""
    return next((kind for is_kind, kind in _KINDS if is_kind(mode)), "a special file")


def special_kind(path: str) -> str:
    """kind_of the file at `path` (links followed), for a refusal of a name that is not a
    regular file."""
    return kind_of(os.stat(path).st_mode)


def read_small_file(path: str, limit: int) -> bytes:
    """The bytes of the regular file at `path` (open_regular); OSError for anything else, or
    when it is longer than `limit` (a record file grown to gigabytes is not read whole)."""
    with os.fdopen(open_regular(path), "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"it is longer than {limit} bytes", path)
    return data


def temporary_name(name: str) -> str:
    """A hidden temporary beside `name`: `.NAME.XXXXXXXX.tmp` (the shape project saves sweep)."""
    token = secrets.token_hex(4)
    return f".{name}.{token}.tmp" if len(name) <= _LONG_NAME else f".rv-{token}.tmp"


def replace_in_folder(folder_fd: int, name: str, data: bytes, mode: int | None = None) -> None:
    """Put `data` at `name` in the open folder, atomically: a reader sees the old file or the
    new one. The file keeps its permission bits (new files get NEW_FILE_MODE unless `mode`)."""
    if mode is None:
        mode = existing_mode(folder_fd, name)
    temporary = temporary_name(name)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600, dir_fd=folder_fd)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.rename(temporary, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
    except BaseException:
        try:
            os.unlink(temporary, dir_fd=folder_fd)
        except OSError:
            pass
        raise
    try:
        os.fsync(folder_fd)  # so the rename survives a power cut
    except OSError:
        pass


def existing_mode(folder_fd: int, name: str) -> int:
    """The permission bits of the regular file at `name` in the folder, else NEW_FILE_MODE (a
    link at the name is replaced, so its target's bits do not matter)."""
    try:
        info = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except OSError:
        return NEW_FILE_MODE
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else NEW_FILE_MODE
