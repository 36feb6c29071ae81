"""Files a document names besides footage (a text's fontFile, a lut effect's .cube, a project's
OpenColorIO config), checked against a confined session's roots again before every preview and
render (`snapshot_problem`): a project opened from a file brings paths of its own, written
before this session's roots existed, and the worker that reads them knows no roots. A config
file set by a command is opened here through a checked descriptor (`named_file_size`) and only
measured; fonts and LUTs are read on probe workers (supervisor/engine/probes.py).

Must never read a byte of a file before its descriptor's real path passed the roots.
"""

from __future__ import annotations

import os

from supervisor.confinement.checked_files import NotRegularFile, open_regular
from supervisor.confinement.roots import shown
from supervisor.errors import CommandError


def named_file_size(engine, path: str, setting: str, hint: str) -> tuple[str, int]:
    """(`path` normalised, its size in bytes) when it names a regular file the session may
    read; CommandError naming `setting` and what to give (`hint`) otherwise."""
    if not os.path.isabs(path):
        raise CommandError(f"{setting} must be an absolute path, got {path!r}; give the full "
                           f"path of {hint}.")
    path = os.path.normpath(path)
    try:
        fd = open_regular(path, lambda real: engine.check_path(real, "read"))
    except NotRegularFile as error:
        raise CommandError(f"{setting} {shown(path)} is {error.kind}, not a file; give "
                           f"{hint}.") from None
    except FileNotFoundError:
        raise CommandError(f"{setting} {shown(path)} does not exist; give {hint}.") from None
    except OSError as error:
        raise CommandError(f"{setting} {shown(path)} cannot be read ({error.strerror}).") \
            from None
    try:
        return path, os.fstat(fd).st_size
    finally:
        os.close(fd)


def snapshot_problem(engine, path: str) -> str | None:
    """Why a file a document names may not be read in this confined session (outside the
    roots, or not a regular file), or None: allowed, or missing, which the worker reports."""
    try:
        engine.check_path(path, "read")
        os.close(open_regular(path, lambda real: engine.check_path(real, "read")))
    except NotRegularFile as error:
        return f"{shown(path)} is {error.kind}"
    except CommandError as error:
        return str(error).rstrip(".")
    except OSError:
        return None
    return None
