"""The .cube files `lut` effects name: checked when a command sets one, and, while confined,
before every preview and render, as footage and font files are.

A command that sets a LUT's path opens it through a checked descriptor
(supervisor/confinement/checked_files.py) and refuses, in one sentence, a path that is not
absolute, not a regular file, outside the roots, or larger than any .cube file. It never reads
the file's content: a LUT is parsed by the worker that draws it (workers/compositor/
cube_files.py), which names the line of a bad file in the preview's or render's error. A project
opened from a file brings LUT paths of its own, so each snapshot checks them against the roots
again; the worker knows no roots.
"""

from __future__ import annotations

import os

from protocol.model.effects import effect_files
from supervisor.confinement.checked_files import NotRegularFile, open_regular
from supervisor.confinement.roots import shown
from supervisor.errors import CommandError
from workers.compositor.cube_files import MAX_CUBE_BYTES

LUT_HINT = "a .cube 3D LUT file"


def check_lut_file(engine, path: str) -> str:
    """`path`, normalised, if it names a file a LUT can be read from; CommandError else."""
    if not os.path.isabs(path):
        raise CommandError(f"a lut effect's path must be absolute, got {path!r}; give the full "
                           f"path of {LUT_HINT}.")
    path = os.path.normpath(path)
    try:
        fd = open_regular(path, lambda real: engine.check_path(real, "read"))
    except NotRegularFile as error:
        raise CommandError(f"the LUT {shown(path)} is {error.kind}, not a file; give "
                           f"{LUT_HINT}.") from None
    except FileNotFoundError:
        raise CommandError(f"the LUT {shown(path)} does not exist; give {LUT_HINT}.") from None
    except OSError as error:
        raise CommandError(f"the LUT {shown(path)} cannot be read ({error.strerror}).") \
            from None
    try:
        size = os.fstat(fd).st_size
    finally:
        os.close(fd)
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
                try:
                    engine.check_path(path, "read")
                    os.close(open_regular(path, lambda real: engine.check_path(real, "read")))
                except NotRegularFile as error:
                    _refuse(comp, layer, f"{shown(path)} is {error.kind}")
                except CommandError as error:
                    _refuse(comp, layer, str(error).rstrip("."))
                except OSError:
                    pass


def _refuse(comp: dict, layer: dict, reason: str) -> None:
    raise CommandError(f"layer {layer.get('name')!r} of comp {comp.get('name')!r} cannot be "
                       f"drawn: its lut effect's file: {reason}; point the effect at a .cube "
                       "file inside the roots with effect.set, or remove it.")
