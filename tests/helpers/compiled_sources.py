"""rendervisor's own modules compiled to bytecode once, before the tests start processes.

The tests start hundreds of Python processes: `rendervisor render`, `info`, `watch` and `mcp`,
their forkservers, and small helper scripts. Each imports a few hundred of rendervisor's
modules. Installed with `pip install -e`, those are never compiled at install time, and where
PYTHONDONTWRITEBYTECODE is set (as some CI images and sandboxes do) no process writes the
bytecode it compiles: every process compiles them all again from source, about 0.3 s of CPU
for a CLI process and as much for its forkserver, some two fifths of their start-up. A `.pyc`
that is already there is still read, so compiling once here spares all of them. Python checks
each one against its source's size and time, so an edited module is never run stale.
"""

from __future__ import annotations

import compileall
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = ("supervisor", "workers", "protocol")


def compile_sources() -> None:
    """Write the missing or stale `__pycache__/*.pyc` of rendervisor's packages. A checkout
    that cannot be written to is left as it is: the tests then only run slower."""
    for package in PACKAGES:
        try:
            compileall.compile_dir(os.path.join(ROOT, package), quiet=2)
        except OSError:
            pass
