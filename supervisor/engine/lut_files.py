"""The .cube files `lut` effects name: checked when a command sets one, and, while confined,
before every preview and render, as footage and font files are (named_files.py).

A command's path must be absolute, a regular file inside the roots and no larger than any
.cube file; its content is never read here: a LUT is parsed by the worker that draws it
(workers/compositor/cube_files.py), which names the line of a bad file in the preview's or
render's error.
"""

from __future__ import annotations

from protocol.model.effects import effect_files
from supervisor.confinement.roots import shown
from supervisor.engine.named_files import named_file_size, snapshot_problem
from supervisor.errors import CommandError
from workers.compositor.cube_files import MAX_CUBE_BYTES

LUT_HINT = "a .cube 3D LUT file"


def check_lut_file(engine, path: str) -> str:
    """`path`, normalised, if it names a file a LUT can be read from; CommandError else."""
    path, size = named_file_size(engine, path, "a lut effect's path", LUT_HINT)
    if size > MAX_CUBE_BYTES:
        raise CommandError(f"the LUT {shown(path)} is over {MAX_CUBE_BYTES >> 20} MiB, larger "
                           f"than any 3D LUT rendervisor applies; give {LUT_HINT}.")
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
