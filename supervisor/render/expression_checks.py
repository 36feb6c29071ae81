"""expression.check in the supervisor: an expression tried on the preview worker
(workers/expression_tasks.py), never here. The supervisor only names the property (its
canonical path, checked against the snapshot) and bounds the job as a preview is bounded
(the preview deadline, the workers' memory limit); the worker parses, evaluates and says what
went wrong, one sentence naming the line and column.
"""

from __future__ import annotations

from protocol.model.expressions import check_source, expression_path
from supervisor.engine.commands.lookup import find_comp, find_layer
from supervisor.errors import CommandError
from supervisor.render.preview_tasks import on_preview_worker
from supervisor.work import Work


def check_expression(service, engine, params: dict, work: Work | None) -> dict:
    snapshot_id, document = engine.snapshot()
    comp = find_comp(document, params["comp"])
    layer = find_layer(comp, params["layer"])
    try:
        path, _ = expression_path(layer, params["path"])
        given = params.get("expression")
        if given is None:
            given = (layer.get("expressions") or {}).get(path)
            if given is None:
                raise ValueError(f"{path} of layer {layer['name']!r} has no expression; give "
                                 "one as expression to try it before setting it")
            given = None  # the stored one: the worker reads it from the snapshot
        else:
            check_source(given)
    except ValueError as error:
        raise CommandError(f"{error}.") from None
    result = on_preview_worker(
        service.pool, "expression_check",
        {"comp": comp["id"], "layer": layer["id"], "path": path, "expression": given},
        work.cancel if work is not None else None, snapshot=(snapshot_id, document),
        doing=f"Trying the expression on {path} of layer {layer['name']!r}",
        advice="simplify the expression")
    return {"path": path, **result}
