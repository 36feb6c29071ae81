"""The compositor: document snapshot + comp + time -> an RGBA frame, drawn with Skia, with
footage decoded through PyAV. Runs inside worker processes; never touches the supervisor's
state, stdin or stdout. Entry points are in frame.py; a job that draws many frames of one
snapshot compiles a RenderPlan (render_plan.py) once and draws them from it.

The names below are imported from their modules when first asked for, not with the package:
the supervisor reads a few plain tables of this package (the bundled fonts' files, the
built-in colour spaces' names), and importing one of them must not import Skia, PyAV and
numpy with the package. `rendervisor render` needs none of those in its own process, and
importing them there competes for the cores with the forkserver importing them for the
workers.
"""

from __future__ import annotations

import importlib

# Each public name -> the module of this package that defines it.
_HOMES = {"FootageCache": "footage", "RenderPlan": "render_plan", "RenderedFrame": "frame",
          "render_frame": "frame", "render_to_surface": "frame"}

__all__ = sorted(_HOMES)


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # asked for once
    return value
