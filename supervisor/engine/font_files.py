"""Font files that text layers name (`fontFile`): checked when a command sets one, and, while
confined, before every preview and render, as footage is (supervisor/engine/footage_reads.py).

A command that sets a font file has it read on a probe worker (supervisor/engine/probes.py,
workers/probes/fonts.py: a WOFF or WOFF2 unpacked only after its declared sizes passed), and
refuses, in one sentence, a path that is not absolute, not a regular file, outside the roots, or
not a font. What the worker found (the faces, the characters they have) is kept, for the
warnings about text the font cannot show (supervisor/engine/font_warnings.py). A project opened
from a file brings font paths of its own, so each snapshot checks them against the roots
again; the worker that draws knows no roots. A font file that went missing later is not an
error: its text is drawn in the default family, and the command that set it, or doc_inspect,
says so.

Must never read a byte of a font file in the supervisor.
"""

from __future__ import annotations

import os

from supervisor.confinement.roots import shown
from supervisor.engine.named_files import snapshot_problem
from supervisor.errors import CommandError

FONT_HINT = "a .ttf, .otf, .ttc, .woff or .woff2 file"


def check_font_file(engine, path: str, work=None) -> str:
    """`path`, normalised, if it names a font file the session may read; CommandError else."""
    return read_font_file(engine, path, work)[0]


def read_font_file(engine, path: str, work=None) -> tuple[str, dict]:
    """(`path` normalised, what a probe worker found in the font file: {faces, coverage}),
    or CommandError."""
    if not os.path.isabs(path):
        raise CommandError(f"fontFile must be an absolute path, got {path!r}; give the full "
                           f"path of {FONT_HINT}.")
    path = os.path.normpath(path)
    found = engine.probes.read("font", path, f"fontFile {shown(path)}",
                               lambda real: engine.check_path(real, "read"),
                               work.cancel if work is not None else None)
    return path, found


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
