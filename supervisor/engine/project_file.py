"""Reading and writing project files, atomically.

A saved project is never left truncated or half-written, whatever kills the process and when:
the new text goes to a temporary file in the same folder (same file system, so the rename is
atomic), is fsynced, renamed over the target, and then the folder itself is fsynced so the
rename survives a power cut. A reader therefore sees the old file or the new one, never a mix.
A kill between the write and the rename leaves only a hidden `.NAME.*.tmp` file behind, which
the next save of the same project sweeps away.

A project file is read, parsed and checked on a probe worker, never here (supervisor/engine/
probes.py): a file built to make a JSON parser recurse costs a worker, not the session.

Errors are one sentence naming the file and what to do (project.open and project.save pass them
on to the user as they are).
"""

from __future__ import annotations

import fnmatch
import glob
import os
from typing import TYPE_CHECKING

from protocol.cancel import Cancel
from supervisor.confinement.checked_files import Verify, open_folder, replace_in_folder
from supervisor.errors import CommandError

if TYPE_CHECKING:  # only its type: a process that saves projects needs no worker pool
    from supervisor.engine.probes import Probes


class ProjectFileError(Exception):
    """A project file that cannot be read or written; the message is the whole report."""


def read_project(probes: Probes, path: str, verify: Verify | None = None,
                 cancel: Cancel | None = None) -> dict:
    """The checked document saved at `path`, read, parsed and checked on a probe worker
    (workers/probes/projects.py); `verify(real_path)` approves the file as opened (a confined
    session's read check), so a link swapped in after the path was checked reads nothing. A
    folder, a FIFO or a device at `path` is refused before a byte is read (a FIFO would wait for
    a writer forever), and a file past MAX_PROJECT_BYTES (protocol/model/limits.py) by its
    size."""
    try:
        return probes.read("project", path, f"cannot open {path}",
                           verify or (lambda real: None), cancel)["document"]
    except CommandError as error:
        raise ProjectFileError(str(error)) from None


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
