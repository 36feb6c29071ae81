""".cube 3D LUT files (the Adobe/Resolve text format), read for the `lut` effect
(docs/document.md, "LUTs and grading").

    read_cube(path) -> CubeLut        # cached per file and stamp; LutError with one sentence

A file holds an optional TITLE, LUT_3D_SIZE N (2 to MAX_CUBE_SIZE), optional DOMAIN_MIN and
DOMAIN_MAX (three numbers each, default 0 0 0 and 1 1 1), and N^3 lines of three numbers, red
changing fastest, then green, then blue. `#` starts a comment. A 1D LUT, a line that is none of
these, a number that is not finite, or a count of entries other than N^3 is refused in a
sentence naming the file and the line.

Runs in worker processes only: the supervisor checks a LUT's path against the roots and never
reads its bytes. Reads no more than MAX_CUBE_BYTES.
"""

from __future__ import annotations

import math
import os
import stat
from dataclasses import dataclass

import numpy as np

from protocol.model.limits import MAX_CUBE_BYTES

# Entries along each axis. 33 is the usual grading LUT, 65 the finest Resolve writes; a 65^3
# file is about 8 MB of text and parses in about a second here, once per worker.
MAX_CUBE_SIZE = 65
HINT = "export it again as a 3D .cube LUT (LUT_3D_SIZE 2 to 65)"


class LutError(ValueError):
    """A LUT file that cannot be applied; the message is the whole sentence."""


@dataclass(frozen=True)
class CubeLut:
    size: int
    domain_min: tuple[float, float, float]
    domain_max: tuple[float, float, float]
    # (size, size, size, 3) float32, indexed [blue][green][red]: the file's order.
    table: np.ndarray


_cache: dict = {}  # path -> (stamp, CubeLut): the last few files read by this process
_CACHED = 8


def read_cube(path: str) -> CubeLut:
    """The LUT in the .cube file at `path`, read once per version of the file."""
    try:
        info = os.stat(path)
    except OSError as error:
        raise LutError(f"the LUT file {path} cannot be read ({error.strerror}); check the "
                       "effect's path.") from None
    if not stat.S_ISREG(info.st_mode):
        # A FIFO would hold the worker in open() until some writer came.
        raise LutError(f"the LUT file {path} is not a regular file; {HINT}.")
    stamp = (info.st_mtime_ns, info.st_size)
    cached = _cache.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    if info.st_size > MAX_CUBE_BYTES:
        raise LutError(f"the LUT file {path} is over {MAX_CUBE_BYTES >> 20} MiB, larger than "
                       f"any 3D LUT of up to {MAX_CUBE_SIZE}^3 entries; {HINT}.")
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_CUBE_BYTES + 1)
    except OSError as error:
        raise LutError(f"the LUT file {path} cannot be read ({error.strerror}); check the "
                       "effect's path.") from None
    if len(data) > MAX_CUBE_BYTES:
        raise LutError(f"the LUT file {path} is over {MAX_CUBE_BYTES >> 20} MiB; {HINT}.")
    lut = parse_cube(data, path)
    if len(_cache) >= _CACHED:
        _cache.pop(next(iter(_cache)))
    _cache[path] = (stamp, lut)
    return lut


def parse_cube(data: bytes, name: str) -> CubeLut:
    """The LUT in `data`, the text of the file `name` (for the sentences)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise LutError(f"the LUT file {name} is not text (a .cube file is UTF-8 or ASCII); "
                       f"{HINT}.") from None
    size = None
    domain = {"DOMAIN_MIN": (0.0, 0.0, 0.0), "DOMAIN_MAX": (1.0, 1.0, 1.0)}
    lines = text.splitlines()
    values = np.empty(0)
    for index, line in enumerate(lines):
        number = index + 1
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        keyword = words[0]
        if _is_number(keyword):
            if size is None:
                raise _at(name, number, "an entry comes before LUT_3D_SIZE")
            values = _entries(lines, index, name)
            break
        if keyword == "TITLE":
            continue
        if keyword == "LUT_3D_SIZE":
            size = _size(words, name, number)
        elif keyword == "LUT_1D_SIZE":
            raise _at(name, number, "it is a 1D LUT, and the lut effect applies 3D LUTs")
        elif keyword in domain:
            if len(words) != 4:
                raise _at(name, number, f"{keyword} takes three numbers")
            domain[keyword] = tuple(_numbers(words[1:], name, number))
        elif keyword == "LUT_3D_INPUT_RANGE":
            if len(words) != 3:
                raise _at(name, number, f"{keyword} takes two numbers")
            low, high = _numbers(words[1:], name, number)
            domain["DOMAIN_MIN"], domain["DOMAIN_MAX"] = (low,) * 3, (high,) * 3
        else:
            raise _at(name, number, f"{keyword!r} is not a .cube keyword or an entry")
    if size is None:
        raise LutError(f"the LUT file {name} has no LUT_3D_SIZE line, so it is no 3D .cube "
                       f"LUT; {HINT}.")
    expected = size ** 3
    if len(values) != 3 * expected:
        raise LutError(f"the LUT file {name} has {len(values) // 3:,} entries where "
                       f"LUT_3D_SIZE {size} needs {expected:,}; {HINT}.")
    low, high = domain["DOMAIN_MIN"], domain["DOMAIN_MAX"]
    if not all(a < b for a, b in zip(low, high)):
        raise LutError(f"the LUT file {name} has DOMAIN_MIN {_spaced(low)} not below "
                       f"DOMAIN_MAX {_spaced(high)} on every channel; {HINT}.")
    table = np.array(values, np.float32).reshape(size, size, size, 3)
    return CubeLut(size, low, high, table)


def _entries(lines: list[str], first: int, name: str) -> np.ndarray:
    """The numbers of the entry lines from `lines[first]` on. Read at once when every line is
    three finite numbers (a 65^3 file in about a second); otherwise line by line, to
    name the first line that is not."""
    rest = [line for line in lines[first:] if line.strip()]
    try:
        values = np.array(" ".join(rest).split(), np.float64)
    except ValueError:
        values = None
    if values is not None and len(values) == 3 * len(rest) and np.isfinite(values).all() \
            and all(len(line.split()) == 3 for line in rest):
        return values
    found: list[float] = []
    for index in range(first, len(lines)):
        words = lines[index].split("#", 1)[0].split()
        if not words:
            continue
        if not _is_number(words[0]):
            raise _at(name, index + 1, f"{words[0]} comes after the entries began")
        if len(words) != 3:
            raise _at(name, index + 1, f"an entry is three numbers, not {lines[index].strip()!r}")
        found += _numbers(words, name, index + 1)
    return np.array(found, np.float64)


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def _numbers(words: list[str], name: str, number: int) -> list[float]:
    try:
        values = [float(word) for word in words]
    except ValueError:
        raise _at(name, number, f"{' '.join(words)!r} are not all numbers") from None
    if not all(math.isfinite(value) for value in values):
        raise _at(name, number, f"{' '.join(words)!r} holds a value that is not finite")
    return values


def _size(words: list[str], name: str, number: int) -> int:
    if len(words) != 2 or not words[1].isdigit() or not 2 <= int(words[1]) <= MAX_CUBE_SIZE:
        raise _at(name, number, f"LUT_3D_SIZE is a whole number from 2 to {MAX_CUBE_SIZE}, "
                                f"not {' '.join(words[1:])!r}")
    return int(words[1])


def _spaced(values) -> str:
    return " ".join(f"{value:g}" for value in values)


def _at(name: str, number: int, problem: str) -> LutError:
    return LutError(f"the LUT file {name} cannot be read at line {number}: {problem}; {HINT}.")
