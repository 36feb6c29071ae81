"""Font files that text layers name (`fontFile`): checked when a command sets one, and, while
confined, before every preview and render, as footage is (supervisor/engine/footage_reads.py).

A command that sets a font file reads it through a checked descriptor
(supervisor/confinement/checked_files.py) and refuses, in one sentence, a path that is not absolute, not a
regular file, outside the roots, or not a font. A project opened from a file brings font paths
of its own, so each snapshot checks them against the roots again; the worker that draws knows
no roots. A font file that went missing later is not an error: its text is drawn in the
default family, and the command that set it, or doc_inspect, says so.

Must never read a byte of a file before its descriptor's real path passed the roots.
"""

from __future__ import annotations

import os

from supervisor.confinement.roots import shown
from supervisor.engine.named_files import open_named_file, snapshot_problem
from supervisor.errors import CommandError
from workers.compositor.fonts import NotAFont, face_count

# The largest font file read whole to check it: a CJK collection is about 33 MB, a color emoji
# font 10 to 25; past this a "font" is more likely a mistake than a face, and reading it would
# hold a quick lane for seconds.
MAX_FONT_FILE_BYTES = 128 * 1024 * 1024
FONT_HINT = "a .ttf, .otf, .ttc, .woff or .woff2 file"


def check_font_file(engine, path: str) -> str:
    """`path`, normalised, if it names a font file the session may read; CommandError else."""
    path, fd = open_named_file(engine, path, "fontFile", FONT_HINT, "a font file")
    with os.fdopen(fd, "rb") as handle:
        raw = handle.read(MAX_FONT_FILE_BYTES + 1)
    if len(raw) > MAX_FONT_FILE_BYTES:
        raise CommandError(f"fontFile {shown(path)} is over {MAX_FONT_FILE_BYTES >> 20} MiB, "
                           f"larger than any font; give {FONT_HINT}.")
    try:
        faces = face_count(raw)
    except NotAFont as error:
        raise CommandError(f"fontFile {shown(path)} {error}; give {FONT_HINT}.") from None
    if faces == 0:
        raise CommandError(f"fontFile {shown(path)} is not a font (Skia reads no face from "
                           f"it); give {FONT_HINT}.")
    return path


def check_font_files(engine, document: dict) -> None:
    """While confined, before drawing `document`: every text layer's font file inside the
    roots and a regular file, or CommandError naming the layer."""
    if not engine.confined:
        return
    for comp in document.get("comps", []):
        for layer in comp.get("layers", []):
            path = (layer.get("content") or {}).get("fontFile") if layer.get("type") == "text" \
                else None
            # Missing is no problem here: drawn in the default family, and doc_inspect says so.
            problem = snapshot_problem(engine, path) if isinstance(path, str) else None
            if problem is not None:
                _refuse(comp, layer, problem)


def _refuse(comp: dict, layer: dict, reason: str) -> None:
    raise CommandError(f"text layer {layer.get('name')!r} of comp {comp.get('name')!r} cannot be "
                       f"drawn: its fontFile: {reason}; point fontFile at a font inside the "
                       "roots with layer.set, or remove it.")
