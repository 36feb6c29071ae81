"""Whether a sequence frame already on disk is a whole image, for `skipExisting`.

A frame that exists is left alone only when it is complete: it starts with its format's
signature and ends with its end marker (PNG's IEND chunk, JPEG's EOI). Our own frames reach
their names complete (a temporary, then a rename), but a frame copied by a sync tool that was
stopped, truncated by a full disk on another machine, or touched empty by a script is not, and
counting it as rendered would leave a hole in the sequence that no rerun fills.

Reads at most the first and last few bytes of a file; never writes.
"""

from __future__ import annotations

import os

# (signature at the start, end marker at the end) per sequence format.
MARKERS = {
    # IEND: a zero length, the chunk type, and its fixed CRC.
    "png": (b"\x89PNG\r\n\x1a\n", b"\x00\x00\x00\x00IEND\xaeB`\x82"),
    "jpeg": (b"\xff\xd8", b"\xff\xd9"),
    # TIFF (little-endian, as FFmpeg writes it) and OpenEXR end with no marker: their
    # signature alone is checked, so a copy cut short is taken for whole.
    "tiff": (b"II*\x00", b""),
    "exr": (b"\x76\x2f\x31\x01", b""),
}


def is_complete_frame(path: str, fmt: str) -> bool:
    """True when `path` is a regular file holding a whole `fmt` image (by its markers)."""
    start, end = MARKERS[fmt]
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size < len(start) + len(end):
                return False
            head = file.read(len(start))
            file.seek(size - len(end))
            return head == start and file.read(len(end)) == end
    except OSError:  # missing, unreadable, a folder: not a frame we can keep
        return False
