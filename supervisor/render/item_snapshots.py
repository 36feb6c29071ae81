"""The snapshot of each queue item that renders template values: the render's document with
the item's params applied over the defaults (supervisor/engine/template_values.py), as a copy
of its own, so the project itself never changes.

Its id is the render snapshot's id, the item's and a digest of the row
(`IDENTITY:REVISION:ITEM:DIGEST`, template_values.row_digest). The item's params are part of
the document at that revision and an item id is never reused; the digest covers the footage
as probed now, which a file replaced on disk changes at the same revision. So no two
documents ever share an id, and no cache that keeps a copy by its id (a render worker's
snapshot, the cluster's scattered documents) can draw one row's document for another's.
"""

from __future__ import annotations

from protocol.model.template_params import ParamError, TargetError
from supervisor.engine.template_values import row_digest, row_document
from supervisor.errors import CommandError


def item_snapshots(engine, snapshot_id: str, document: dict,
                   item_ids: list[str]) -> dict[str, tuple[str, dict] | str]:
    """Item id -> (snapshot id, document) for each of `item_ids` with params, or the
    sentence saying why its values cannot render (render/plan.py refuses that item alone)."""
    items = {item["id"]: item for item in document["renderQueue"]}
    probes: dict = {}  # a logo shared by many rows is probed once
    snapshots: dict[str, tuple[str, dict] | str] = {}
    for item_id in item_ids:
        given = items[item_id].get("params")
        if given is None:
            continue
        try:
            applied = row_document(engine, document, given, probes)
            snapshots[item_id] = (f"{snapshot_id}:{item_id}:{row_digest(given, applied)}",
                                  applied)
        except ParamError as error:
            snapshots[item_id] = f"its param {error.name!r}: {error}."
        except (TargetError, CommandError) as error:
            snapshots[item_id] = f"{str(error).rstrip('.')}."
    return snapshots
