"""`rendervisor render --item NAME|INDEX` (repeatable): the queue items a farm task renders, as
aerender's -rqindex picks one. An item is named by its index from 1 (the order `rendervisor
info` lists), by its id, or by its comp's name or id (every item of that comp). Pure: the
document's queue in, the picked items out, in queue order.
"""

from __future__ import annotations

from supervisor.errors import UsageError


def pick_items(document: dict, picks: list[str]) -> list[dict]:
    """The queue items `picks` name, in queue order, each once; UsageError naming the queue
    when one names none."""
    queue = document["renderQueue"]
    comps = {comp["id"]: comp for comp in document["comps"]}
    chosen: set[int] = set()
    for pick in picks:
        found = _matches(queue, comps, pick.strip())
        if not found:
            raise UsageError(f"rendervisor render: --item {pick}: {_no_such_item(queue, comps)}")
        chosen.update(found)
    return [item for index, item in enumerate(queue) if index in chosen]


def _matches(queue: list[dict], comps: dict, pick: str) -> list[int]:
    if pick.isdigit():
        number = int(pick)
        return [number - 1] if 1 <= number <= len(queue) else []
    by_id = [index for index, item in enumerate(queue) if item["id"] == pick]
    if by_id:
        return by_id
    return [index for index, item in enumerate(queue)
            if item["comp"] == pick or comps.get(item["comp"], {}).get("name") == pick]


def _no_such_item(queue: list[dict], comps: dict) -> str:
    if not queue:
        return "the project's render queue is empty; render a comp with --comp NAME instead."
    listed = ", ".join(f"{index}. {item['id']} ({comps.get(item['comp'], {}).get('name')})"
                       for index, item in enumerate(queue, 1))
    return (f"no queue item has that index, id or comp; the queue has {listed} (give an "
            "index from 1, an id or a comp's name).")
