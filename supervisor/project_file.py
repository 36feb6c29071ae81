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

import glob
import os
import tempfile

from protocol.document import DocumentError, loads

# A project file larger than this is not a project: refusing it keeps a mistaken path (a video,
# a disk image) from being read into memory whole.
MAX_PROJECT_BYTES = 64 * 1024 * 1024
NEW_FILE_MODE = 0o644


class ProjectFileError(Exception):
    """A project file that cannot be read or written; the message is the whole report."""


def read_project(path: str) -> dict:
    """The checked document saved at `path`."""
    try:
        size = os.path.getsize(path)
        if os.path.isdir(path):
            raise ProjectFileError(f"cannot open {path}: it is a folder, not a project file; "
                                   "give the path of a .rvproj file.")
        if size > MAX_PROJECT_BYTES:
            raise ProjectFileError(f"cannot open {path}: at {size} bytes it is too large to be a "
                                   "project file; check the path.")
        with open(path, "r", encoding="utf-8") as handle:
            text = handle.read()
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


def write_atomically(path: str, text: str) -> int:
    """Replace `path` with `text` (UTF-8) so that it is always either the old or the new file;
    the number of bytes written."""
    folder = os.path.dirname(path) or "."
    name = os.path.basename(path)
    if not os.path.isdir(folder):
        raise ProjectFileError(f"cannot save {path}: the folder {folder} does not exist; create "
                               "it first or save elsewhere.")
    if os.path.isdir(path):
        raise ProjectFileError(f"cannot save {path}: it is a folder; give a file name such as "
                               f"{os.path.join(path, 'project.rvproj')}.")
    data = text.encode("utf-8")
    _sweep_leftovers(folder, name)
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = NEW_FILE_MODE
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise ProjectFileError(f"cannot save {path}: {error.strerror or error}; check that the "
                               "folder is writable.") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise ProjectFileError(f"cannot save {path}: {error.strerror or error}; nothing "
                                   "was changed.") from None
        raise
    _fsync_folder(folder)
    return len(data)


def _fsync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # some file systems do not let a folder be opened; the rename already happened
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _sweep_leftovers(folder: str, name: str) -> None:
    """Remove temporary files an earlier save of this project left when it was killed between
    writing and renaming: exactly mkstemp's `.NAME.XXXXXXXX.tmp` for this one name.
    (Saves of one project are serialised by the engine's lock, so none of these is live.)"""
    pattern = f".{glob.escape(name)}.{'?' * 8}.tmp"
    for leftover in glob.glob(os.path.join(glob.escape(folder), pattern)):
        try:
            os.unlink(leftover)
        except OSError:
            pass
