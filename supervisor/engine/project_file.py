"""Reading and writing project files, atomically.

A saved project is never left truncated or half-written, whatever kills the process and when:
the new text goes to a temporary file in the same folder (same file system, so the rename is
atomic), is fsynced, renamed over the target, and then the folder itself is fsynced so the
rename survives a power cut. A reader therefore sees the old file or the new one, never a mix.
A kill between the write and the rename leaves only a hidden `.NAME.*.tmp` file behind, which
the next save of the same project sweeps away.

Errors are one sentence naming the file and what to do (project.open and project.save pass them
on to the user as they are).
"""

from __future__ import annotations

import fnmatch
import glob
import os

from supervisor.confinement.checked_files import (NotRegularFile, Verify, open_folder, open_regular,
                                     replace_in_folder)

from protocol.model.document import DocumentError, loads
from protocol.model.limits import MAX_PROJECT_BYTES  # a larger file is not a project: see there


class ProjectFileError(Exception):
    """A project file that cannot be read or written; the message is the whole report."""


def read_project(path: str, verify: Verify | None = None) -> dict:
    """The checked document saved at `path`; `verify(real_path)` approves the file as opened
    (a confined session's read check), so a link swapped in after the path was checked reads
    nothing. A folder, a FIFO or a device at `path` is refused before a byte is read (a FIFO
    would wait for a writer forever)."""
    try:
        fd = open_regular(path, verify or (lambda real: None))
        with open(fd, "r", encoding="utf-8") as handle:
            size = os.fstat(fd).st_size
            if size > MAX_PROJECT_BYTES:
                raise ProjectFileError(f"cannot open {path}: at {size} bytes it is too large to "
                                       "be a project file; check the path.")
            text = handle.read()
    except NotRegularFile as error:
        raise ProjectFileError(f"cannot open {path}: it is {error.kind}, not a project file; "
                               "give the path of a .rvproj file.") from None
    except FileNotFoundError:
        raise ProjectFileError(f"cannot open {path}: there is no such file; check the path "
                               "(project.save writes a new one).") from None
    except PermissionError:
        raise ProjectFileError(f"cannot open {path}: permission denied; check the file's "
                               "permissions.") from None
    except UnicodeDecodeError:
        raise ProjectFileError(f"cannot open {path}: it is not a text file, so not a project "
                               "saved by rendervisor.") from None
    except OSError as error:
        raise ProjectFileError(f"cannot open {path}: {error.strerror or error}.") from None
    try:
        return loads(text)
    except DocumentError as error:
        raise ProjectFileError(f"cannot open {path}: it is not a valid rendervisor project "
                               f"({error}); fix or replace the file.") from None


def write_atomically(path: str, text: str, verify: Verify | None = None) -> int:
    """Replace `path` with `text` (UTF-8) so that it is always either the old or the new file;
    the number of bytes written.

    The folder is opened once and everything happens relative to that descriptor
    (supervisor/confinement/checked_files.py): `verify(real_path)`, given the folder's real path as
    the kernel opened it, refuses a folder swapped for a link to somewhere not allowed (a confined
    session passes its write check), and the rename replaces a link or hard link at the name
    rather than writing through it."""
    folder = os.path.dirname(path) or "."
    name = os.path.basename(path)
    if not os.path.isdir(folder):
        raise ProjectFileError(f"cannot save {path}: the folder {folder} does not exist; create "
                               "it first or save elsewhere.")
    if os.path.isdir(path):
        raise ProjectFileError(f"cannot save {path}: it is a folder; give a file name such as "
                               f"{os.path.join(path, 'project.rvproj')}.")
    data = text.encode("utf-8")
    try:
        folder_fd = open_folder(folder, verify or (lambda real: None))
    except OSError as error:
        raise ProjectFileError(f"cannot save {path}: {error.strerror or error}; check that the "
                               "folder is readable.") from None
    try:
        _sweep_leftovers(folder_fd, name)
        replace_in_folder(folder_fd, name, data)
    except OSError as error:
        raise ProjectFileError(f"cannot save {path}: {error.strerror or error}; nothing "
                               "was changed.") from None
    finally:
        os.close(folder_fd)
    return len(data)


def _sweep_leftovers(folder_fd: int, name: str) -> None:
    """Remove temporary files an earlier save of this project left when it was killed between
    writing and renaming: exactly `.NAME.XXXXXXXX.tmp` for this one name (checked_files's
    temporary names). (Saves of one project are serialised by the engine's lock, so none of
    these is live.)"""
    pattern = f".{glob.escape(name)}.{'?' * 8}.tmp"
    for leftover in fnmatch.filter(os.listdir(folder_fd), pattern):
        try:
            os.unlink(leftover, dir_fd=folder_fd)
        except OSError:
            pass
