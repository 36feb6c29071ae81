"""lottie.bake in the supervisor: a Lottie footage item's expressions baked into keys on the
preview worker (workers/expression_tasks.py: the file is read and parsed there, never here),
the baked animation written beside the original (or to `output`), and the footage item pointed
at it as one undo step, so every layer showing it plays the expressions' motion.

The supervisor only moves bytes: it checks the paths against the roots, writes what the worker
returned atomically, and re-links the footage as footage.replace does.
"""

from __future__ import annotations

import os

from supervisor.engine.commands.lookup import find_footage
from supervisor.engine.commands.registry import COMMANDS
from supervisor.engine.project_file import ProjectFileError, write_atomically
from supervisor.errors import CommandError
from supervisor.render.preview_tasks import on_preview_worker
from supervisor.work import Work

BAKED_SUFFIX = "_baked.json"


def bake_lottie(service, engine, params: dict, work: Work | None) -> dict:
    _, document = engine.snapshot()
    footage = find_footage(document, params["footage"])
    if footage.get("kind") != "lottie":
        raise CommandError(f"footage {footage['name']!r} is {footage.get('kind', 'image')} "
                           "footage; lottie.bake bakes a Lottie animation's expressions.")
    source = footage["path"]
    output = params.get("output") or os.path.splitext(source)[0] + BAKED_SUFFIX
    if not os.path.isabs(output):
        folder = os.path.dirname(engine.project_path) if engine.project_path else os.getcwd()
        output = os.path.join(folder, output)
    if os.path.abspath(output) == os.path.abspath(source):
        raise CommandError(f"lottie.bake writes a new file and keeps {source} as it is; give "
                           "another output.")
    engine.check_path(source, "read")
    engine.check_path(output, "write")
    result = on_preview_worker(service.pool, "lottie_bake", {"path": source},
                               work.cancel if work is not None else None,
                               doing=f"Baking {source}",
                               advice="shorten the animation or simplify its expressions")
    if not result["expressions"]:
        raise CommandError(f"{source} has no expressions to bake; it plays as it is.")
    if not result["baked"]:
        raise CommandError(f"None of the {result['expressions']} expressions of {source} could "
                           f"be baked, so nothing was written: {'; '.join(result['failed'])}.")
    try:
        write_atomically(output, result["data"].decode("utf-8"),
                         verify=lambda real: engine.check_path(real, "write"))
    except ProjectFileError as error:
        raise CommandError(str(error).replace("cannot save", "cannot write")) from None
    replace = COMMANDS["footage.replace"].handler
    replaced = engine.edit("lottie.bake", lambda: replace(
        engine, {"footage": footage["id"], "path": output}, None))
    report = {"footage": replaced["footage"], "output": output,
              "expressions": result["expressions"], "baked": result["baked"]}
    if result["failed"]:
        report["failed"] = result["failed"]
    return report
