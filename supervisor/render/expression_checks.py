"""expression.check in the supervisor: an expression tried on the preview worker
(workers/expression_tasks.py), never here. The supervisor only names the property (its
canonical path, checked against the snapshot) and bounds the job as a preview is bounded
(the preview deadline, the workers' memory limit); the worker parses, evaluates and says what
went wrong, one sentence naming the line and column.
"""

from __future__ import annotations

from protocol.cancel import Cancelled
from protocol.model.expressions import check_source, expression_path
from supervisor.engine.commands.lookup import find_comp, find_layer
from supervisor.errors import CommandError
from supervisor.render.snapshot_jobs import run_with_snapshot
from supervisor.runtime.pool import DEADLINE, JobFailed
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
    cancel = work.cancel if work is not None else None
    worker = service.pool.acquire("preview", cancel)
    try:
        result = run_with_snapshot(service.pool, worker, "expression_check",
                                   {"comp": comp["id"], "layer": layer["id"], "path": path,
                                    "expression": given},
                                   snapshot_id, document, cancel=cancel)
    except JobFailed as error:
        if cancel is not None and cancel.cancelled:
            raise Cancelled(cancel.reason) from None
        if error.reason == DEADLINE:
            raise CommandError(f"Trying the expression on {path} of layer {layer['name']!r} "
                               f"took longer than the {service.pool.preview_deadline:g} s "
                               "preview deadline, so the preview worker was stopped and "
                               "replaced; simplify the expression.") from None
        raise CommandError(f"The expression on {path} of layer {layer['name']!r} could not be "
                           f"tried: {error}.") from None
    finally:
        service.pool.release(worker)
    return {"path": path, **result}
