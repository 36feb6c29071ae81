"""Opening the file a probe was sent, as the supervisor checked it.

The supervisor opens the file first (supervisor/confinement/checked_files.py: a confined
session's roots approve the real path of the opened descriptor, and a FIFO or a device is
refused before a byte is read), keeps that descriptor open for the whole job, and sends the
file's identity (device and inode) with the path. Here the path is opened again, without
waiting, and must be that same regular file: a link swapped in between the two opens names
another inode and is refused, so a probe never reads a file the supervisor did not check.

Must never read a byte before the identity matched.
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from typing import Iterator

from workers.tasks import TaskError


@contextmanager
def opened(job_file: dict) -> Iterator[int]:
    """A read-only descriptor on the job's file (`{path, name, identity}`), closed after."""
    try:
        fd = os.open(job_file["path"], os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as error:
        raise TaskError(f"{job_file['name']} cannot be read ({error.strerror}).") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or \
                [info.st_dev, info.st_ino] != list(job_file["identity"]):
            raise TaskError(f"{job_file['name']} was replaced while it was being read; try "
                            "again once nothing is changing it.")
        os.set_blocking(fd, True)
        yield fd
    finally:
        os.close(fd)


def read_whole(job_file: dict, limit: int) -> bytes:
    """The job's file's bytes, at most `limit` (the supervisor refused a larger file by its
    size; one grown since is refused here, before more than the limit is read)."""
    with opened(job_file) as fd:
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    if size > limit:
        raise TaskError(f"{job_file['name']} grew past its {limit >> 20} MiB limit while it "
                        "was being read.")
    return b"".join(chunks)
