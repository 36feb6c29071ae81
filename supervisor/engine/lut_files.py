"""The .cube files `lut` effects name: checked when a command sets one, and, while confined,
before every preview and render, as footage and font files are (named_files.py).

A command's path must be absolute, a regular file inside the roots and no larger than any
.cube file, and is parsed on a probe worker (supervisor/engine/probes.py, workers/probes/
luts.py) as the compositor will parse it, so a bad file is refused when set, naming its line.
Never parsed here; the worker that draws parses it again (a file can change after it was set).
"""

from __future__ import annotations

import os

from protocol.model.effects import effect_files
from supervisor.confinement.roots import shown
from supervisor.engine.named_files import snapshot_problem
from supervisor.errors import CommandError

LUT_HINT = "a .cube 3D LUT file"


def check_lut_file(engine, path: str, work=None) -> str:
    """`path`, normalised, if it names a LUT the session may read; CommandError else."""
    if not os.path.isabs(path):
        raise CommandError(f"a lut effect's path must be an absolute path, got {path!r}; give "
                           f"the full path of {LUT_HINT}.")
    path = os.path.normpath(path)
    engine.probes.read("lut", path, f"the LUT {shown(path)}",
                       lambda real: engine.check_path(real, "read"),
                       work.cancel if work is not None else None)
    return path


def check_lut_files(engine, document: dict) -> None:
    """While confined, before drawing `document`: every lut effect's file inside the roots and
    a regular file, or CommandError naming the layer. A missing file is the worker's to report."""
    if not engine.confined:
        return
    for comp in document.get("comps", []):
        for layer in comp.get("layers", []):
            for path in effect_files(layer):
                problem = snapshot_problem(engine, path)
                if problem is not None:
                    raise CommandError(
                        f"layer {layer.get('name')!r} of comp {comp.get('name')!r} cannot be "
                        f"drawn: its lut effect's file: {problem}; point the effect at a .cube "
                        "file inside the roots with effect.set, or remove it.")
