"""What a confined session refuses before a render command reaches the render service: an
output a still, a pre-render or a proxy would write outside the write roots (or, for an unsaved
project, a default or relative output, which has no folder). Footage outside the read roots is
refused by the snapshot every render starts from (Engine.snapshot, footage_reads.py).

This runs before the service, so a refusal comes before the render slot is taken and before a
worker starts; the service checks again the exact files it plans to write
(supervisor/render/plan.py's `check_write`, which is the same rule), so neither check has to be
perfect alone. Queue items' outputs are the service's to check, item by item: an item whose output
is outside is reported failed, naming the rule and the path, and the others still render
(supervisor/render/plan.py).

Never resolves or writes an output itself; it only asks the engine's path guard.
"""

from __future__ import annotations

import os

from protocol.model.output_names import OutputNameError, expand_comp_name
from supervisor.engine.commands.lookup import find_comp
from supervisor.engine.commands.registry import COMMANDS
from supervisor.errors import CommandError

# Commands that write beside the project when no output is given.
_WRITES_BESIDE_PROJECT = ("comp.saveFrameAs", "render.preRender", "file.createProxy")


def check_render(engine, command_id: str, params: dict) -> None:
    """CommandError naming the rule and the path, or nothing (always nothing unconfined)."""
    if not engine.confined or command_id == "renderQueue.stop":
        return
    with engine.lock:
        if command_id in _WRITES_BESIDE_PROJECT and not params.get("queue"):
            for path in _outputs(engine, command_id, params):
                engine.check_path(path, "write")


def _outputs(engine, command_id: str, params: dict) -> list[str]:
    """The outputs a command names (absolute, `[compName]` expanded), or its default folder."""
    properties = COMMANDS[command_id].properties
    given = [params[name] for name, spec in properties.items()
             if spec.get("x-path") == "output" and isinstance(params.get(name), str)]
    comp_name = _comp_name(engine, params)
    folder = os.path.dirname(engine.project_path) if engine.project_path else None
    outputs = []
    for output in given:
        try:
            output = expand_comp_name(output, comp_name)
        except OutputNameError:
            continue  # no name at all: the service refuses it in its own words
        if not os.path.isabs(output):
            if folder is None:
                raise CommandError(
                    f"relative output {output!r} is refused: the project is unsaved, so it has "
                    "no folder, and while confined an output must name its folder; give an "
                    "absolute path inside a write root, or save the project first.")
            output = os.path.join(folder, output)
        outputs.append(output)
    if not given:
        if folder is None:
            raise CommandError(
                f"{command_id} without an output is refused: its default output goes beside "
                "the project, but the project is unsaved, so it has no folder; while confined "
                "give an absolute output inside a write root, or save the project first.")
        outputs.append(os.path.join(folder, "x"))  # a file beside the project: its folder
    return outputs


def _comp_name(engine, params: dict) -> str:
    try:
        if "comp" in params:
            return find_comp(engine.doc, params["comp"])["name"]
        return engine.doc["comps"][0]["name"] if engine.doc["comps"] else ""
    except CommandError:
        return ""  # the service reports the unknown comp in its own words
