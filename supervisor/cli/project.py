"""Opening a project for a command-line subcommand, and checking its inputs and outputs before
a render: every problem becomes one UsageError line (exit 2), never a traceback."""

from __future__ import annotations

import os
import sys
import tempfile

from supervisor.errors import UsageError
from supervisor.engine.engine import Engine
from supervisor.engine.input_files import missing_inputs
from supervisor.engine.probes import Probes
from supervisor.errors import CommandError


def open_engine(path: str, command: str, pool=None) -> Engine:
    """An engine holding the project at `path`, reading files on `pool`'s probe workers (this
    process's own pool without one); UsageError naming it when it cannot be opened (missing,
    unreadable, not JSON, not a valid project). What the open warns about (an item given the
    frame field its output lacked, options a render will refuse) goes to stderr."""
    engine = Engine(probes=Probes(pool))
    try:
        opened = engine.run("project.open", {"path": path})
    except CommandError as error:
        raise UsageError(f"rendervisor {command}: {error}") from None
    for warning in opened.get("warnings", []):
        print(f"rendervisor {command}: warning: {warning}", file=sys.stderr)
    return engine


def check_writable(output: str, command: str) -> None:
    """Refuse an output whose folder cannot be created or written, before any worker starts.

    The nearest folder that exists is tried with a real temporary file rather than os.access,
    which says yes to root even on a read-only file system."""
    folder = os.path.dirname(os.path.abspath(output))
    while not os.path.exists(folder):
        folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        raise UsageError(f"rendervisor {command}: cannot write {output}: {folder} is a file, "
                         "not a folder; choose another --output.")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise UsageError(f"rendervisor {command}: cannot write {output}: {folder} is not "
                         f"writable ({error.strerror or error}); choose another --output or "
                         "fix the folder's permissions.") from None


def check_inputs(engine, allow_missing: bool = False) -> None:
    """Refuse, before any worker starts, a render whose queued comps need a file this machine
    cannot read (footage, a sequence's frames, a font file), naming each file, who uses it and
    why; with `allow_missing` footage may be missing (it is drawn as a placeholder, and each
    item says so), any other file still may not."""
    comps = [item["comp"] for item in engine.doc["renderQueue"]]
    problems = [problem for problem in missing_inputs(engine.doc, comps)
                if not (allow_missing and problem.entry.kind == "footage")]
    if problems and allow_missing:
        raise UsageError(f"rendervisor render: {'; '.join(map(str, problems))}. "
                         "--allow-missing draws missing footage as a placeholder, but a font "
                         "or a param's file must be there; put "
                         f"{'them' if len(problems) > 1 else 'it'} back or point "
                         f"{engine.project_path} at {'them' if len(problems) > 1 else 'it'}. "
                         "Nothing was rendered.")
    if problems:
        raise UsageError(f"rendervisor render: {len(problems)} file"
                         f"{'s' if len(problems) > 1 else ''} the render needs "
                         f"{'are' if len(problems) > 1 else 'is'} missing or cannot be read: "
                         f"{'; '.join(map(str, problems))}. Put them back or point "
                         f"{engine.project_path} at them, or render with --allow-missing to "
                         "draw missing footage as a placeholder. Nothing was rendered.")
