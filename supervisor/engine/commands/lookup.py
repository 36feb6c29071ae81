"""Finding the comp, layer, effect, footage item, queue item or scene a command names.

Commands take an id, a name, or (layers, effects, queue items) a 1-based index. An id wins over
a name, and a name over an index, so a layer literally named "2" is still reachable by name. A
miss or an ambiguous name is a CommandError that lists what does exist, so the caller can pick.
"""

from __future__ import annotations

from typing import Any

from protocol.model.numbers import written_index
from supervisor.errors import CommandError

# Listing every candidate in an error stops being useful past a screenful.
MAX_LISTED = 20


def find_comp(doc: dict, ref: Any) -> dict:
    if not doc["comps"]:
        raise CommandError(f"there is no comp {ref!r}: the project has no comps yet; make one "
                           "with comp.new.")
    return _find(doc["comps"], ref, "comp", indexable=False)


def find_layer(comp: dict, ref: Any) -> dict:
    if not comp["layers"]:
        raise CommandError(f"there is no layer {ref!r} in comp {comp['name']!r}: it has no "
                           "layers yet; add one with layer.add.")
    return _find(comp["layers"], ref, "layer", indexable=True, where=f" in comp {comp['name']!r}")


def find_effect(layer: dict, ref: Any) -> dict:
    if not layer["effects"]:
        raise CommandError(f"layer {layer['name']!r} has no effects, so none is {ref!r}; add "
                           "one with effect.add.")
    return _find(layer["effects"], ref, "effect", indexable=True, name_key="effect",
                 where=f" on layer {layer['name']!r}")


def find_footage(doc: dict, ref: Any) -> dict:
    if not doc["footage"]:
        raise CommandError(f"there is no footage {ref!r}: the project has no footage; import "
                           "some with footage.import.")
    return _find(doc["footage"], ref, "footage item", indexable=False)


def find_item(doc: dict, ref: Any) -> dict:
    if not doc["renderQueue"]:
        raise CommandError(f"there is no render queue item {ref!r}: the queue is empty; add "
                           "one with renderQueue.add.")
    return _find(doc["renderQueue"], ref, "render queue item", indexable=True, name_key=None)


def find_scene(comp: dict, ref: Any) -> dict:
    """A scene by its id, the name of the layer that draws it, or its 1-based number."""
    scenes = comp.get("scenes") or []
    if not scenes:
        raise CommandError(f"there is no scene {ref!r} in comp {comp['name']!r}: it has no "
                           "scenes yet; add one with scene.add.")
    names = {layer["id"]: layer["name"] for layer in comp["layers"]}
    named = [{"id": scene["id"], "name": names.get(scene["layer"])} for scene in scenes]
    found = _find(named, ref, "scene", indexable=True, where=f" in comp {comp['name']!r}")
    return scenes[named.index(found)]


def comp_of_layer(doc: dict, layer_id: str) -> dict | None:
    for comp in doc["comps"]:
        if any(layer["id"] == layer_id for layer in comp["layers"]):
            return comp
    return None


def _find(candidates: list[dict], ref: Any, what: str, indexable: bool,
          name_key: str | None = "name", where: str = "") -> dict:
    if isinstance(ref, str):
        for candidate in candidates:
            if candidate["id"] == ref:
                return candidate
        if name_key:
            named = [c for c in candidates if c.get(name_key) == ref]
            if len(named) == 1:
                return named[0]
            if len(named) > 1:
                ids = ", ".join(c["id"] for c in named)
                raise CommandError(f"{len(named)} {what}s{where} are called {ref!r} ({ids}); "
                                   f"name the {what} by its id instead.")
    index = _as_index(ref) if indexable else None
    if index is not None:
        if 1 <= index <= len(candidates):
            return candidates[index - 1]
        raise CommandError(f"there is no {what} number {index}{where}; there are "
                           f"{len(candidates)}, numbered from 1.")
    raise CommandError(f"there is no {what} {ref!r}{where}; the ones there are: "
                       f"{_listing(candidates, name_key)}.")


def _as_index(ref: Any) -> int | None:
    if isinstance(ref, bool):
        return None
    if isinstance(ref, int):
        return ref
    return written_index(ref)


def _listing(candidates: list[dict], name_key: str | None) -> str:
    shown = [f"{c[name_key]!r} ({c['id']})" if name_key else c["id"]
             for c in candidates[:MAX_LISTED]]
    more = len(candidates) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")
