"""Image sequence patterns: `/shots/plate_[####].png`, where `[####]` is the frame number padded
to the count of `#`.

The footage prober (supervisor) and the compositor's footage cache (workers) both turn a pattern
and a number into a file name; doing it here means they cannot disagree. Pure: no I/O.
"""

from __future__ import annotations

import re

FRAME_FIELD = re.compile(r"\[(#+)\]")


def is_pattern(path: str) -> bool:
    return FRAME_FIELD.search(path) is not None


def sequence_path(pattern: str, number: int) -> str:
    """`/shots/plate_[####].png` with 7 -> `/shots/plate_0007.png`."""
    return FRAME_FIELD.sub(lambda m: str(number).zfill(len(m.group(1))), pattern)


def pattern_regex(pattern_name: str) -> re.Pattern:
    """A regex matching file names (no folder) the pattern names, the number in group 1. A number
    may be longer than its padding (frame 10000 of `[####]`), never shorter."""
    parts = FRAME_FIELD.split(pattern_name)
    # split gives [text, hashes, text, hashes, ..., text]
    regex = ""
    for index, part in enumerate(parts):
        regex += re.escape(part) if index % 2 == 0 else rf"(\d{{{len(part)},}})"
    return re.compile(f"^{regex}$")
