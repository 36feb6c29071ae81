"""Temporary names next to a final output, and the rename that puts one in place.

A final path only ever holds a complete file: frames and videos are written under a hidden
temporary name in the same folder (so the rename stays on one filesystem and is atomic), then
renamed over the final name. A reader never sees a half-written frame or a video without its
index, and a crash leaves only a recorded temporary that cleanup removes; a process killed
outright leaves one its record died with, which the next render of that output, or
`rendervisor clean`, finds by its shape (`temporary_owner`).
"""

from __future__ import annotations

import os
import re
import secrets

from workers.exporter.opened_files import OpenedFiles

TEMPORARY_SUFFIX = ".part"
# `.NAME[.LABEL].TOKEN.part`, LABEL `seg000030` or `audio`, TOKEN 12 hex digits (new_token).
TEMPORARY_NAME = re.compile(r"^\.(.+?)(?:\.(?:seg\d{6,}|audio))?\.[0-9a-f]{12}\.part$",
                            re.DOTALL)


def new_token() -> str:
    """A random part for temporary names. It keeps two workers (or two machines sharing a
    folder) from ever writing into the same temporary."""
    return secrets.token_hex(6)


def temporary_path(final_path: str, label: str = "", token: str | None = None) -> str:
    """A hidden name in `final_path`'s folder for a file on its way there.

    With a `token` chosen in advance (a chunk's), the name is known before any worker runs,
    so the supervisor can record it up front and still clean up after a worker killed
    mid-write; without one, a fresh random name."""
    folder, name = os.path.split(os.path.abspath(final_path))
    tag = f".{label}" if label else ""
    return os.path.join(folder, f".{name}{tag}.{token or new_token()}{TEMPORARY_SUFFIX}")


def publish(temporary: str, final_path: str, opened: OpenedFiles) -> None:
    """Rename a finished temporary onto its final name (in the record's held folder); the
    record follows the file."""
    opened.rename(temporary, final_path)


def temporary_owner(name: str) -> str | None:
    """The final name a file named like one of our temporaries (`temporary_path`: a frame's,
    a segment's, a sound track's, a join's) is on its way to; None for any other name."""
    match = TEMPORARY_NAME.match(name)
    return match.group(1) if match else None
