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

from supervisor.confinement.checked_files import NotRegularFile, open_regular
from supervisor.errors import CommandError
from supervisor.confinement.roots import shown
from workers.compositor.fonts import NotAFont, face_count

# The largest font file read whole to check it: a CJK collection is about 33 MB, a color emoji
# font 10 to 25; past this a "font" is more likely a mistake than a face, and reading it would
# hold a quick lane for seconds.
MAX_FONT_FILE_BYTES = 128 * 1024 * 1024
FONT_HINT = "a .ttf, .otf, .ttc, .woff or .woff2 file"


def check_font_file(engine, path: str) -> str:
    """`path`, normalised, if it names a font file the session may read; CommandError else."""
    if not os.path.isabs(path):
        raise CommandError(f"fontFile must be an absolute path, got {path!r}; give the full "
                           f"path of {FONT_HINT}.")
    path = os.path.normpath(path)
    try:
        fd = open_regular(path, lambda real: engine.check_path(real, "read"))
    except NotRegularFile as error:
        raise CommandError(f"fontFile {shown(path)} is {error.kind}, not a font file; give "
                           f"{FONT_HINT}.") from None
    except FileNotFoundError:
        raise CommandError(f"fontFile {shown(path)} does not exist; give {FONT_HINT}.") from None
    except OSError as error:
        raise CommandError(f"fontFile {shown(path)} cannot be read ({error.strerror}).") \
            from None
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
            if not isinstance(path, str):
                continue
            try:
                engine.check_path(path, "read")
                os.close(open_regular(path, lambda real: engine.check_path(real, "read")))
            except NotRegularFile as error:
                _refuse(comp, layer, f"{shown(path)} is {error.kind}")
            except CommandError as error:
                _refuse(comp, layer, str(error).rstrip("."))
            except OSError:
                pass  # missing: drawn in the default family, and doc_inspect says so


def _refuse(comp: dict, layer: dict, reason: str) -> None:
    raise CommandError(f"text layer {layer.get('name')!r} of comp {comp.get('name')!r} cannot be "
                       f"drawn: its fontFile: {reason}; point fontFile at a font inside the "
                       "roots with layer.set, or remove it.")
