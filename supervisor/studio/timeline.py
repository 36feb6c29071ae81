"""The project as the studio's timeline draws it: each comp with its settings and its layers,
each layer with its in and out points and the times of its keyframes by property.

Pure: a document in, JSON values out; no engine, no lock (the caller hands a snapshot).
"""

from __future__ import annotations

from protocol.model.keyframes import frame_count, is_animated
from protocol.model.property_paths import paths_of, resolve


def timeline(document: dict) -> dict:
    return {"name": document.get("name"),
            "comps": [comp_view(comp) for comp in document["comps"]],
            "renderQueue": [{"id": item["id"], "comp": item["comp"],
                             "output": item.get("output"), "status": item["status"]}
                            for item in document["renderQueue"]]}


def comp_view(comp: dict) -> dict:
    return {"id": comp["id"], "name": comp["name"], "width": comp["width"],
            "height": comp["height"], "frameRate": comp["frameRate"],
            "duration": comp["duration"],
            "frames": frame_count(comp["duration"], comp["frameRate"]),
            "markers": [{"name": marker.get("name", ""), "time": marker["time"]}
                        for marker in comp.get("markers") or []],
            "layers": [layer_view(layer) for layer in comp["layers"]]}


def layer_view(layer: dict) -> dict:
    return {"id": layer["id"], "name": layer["name"], "type": layer["type"],
            "enabled": layer.get("enabled", True), "inPoint": layer["inPoint"],
            "outPoint": layer["outPoint"], "parent": layer.get("parent"),
            "keys": animated(layer)}


def animated(layer: dict) -> list[dict]:
    """[{path, times}] for each animated property of the layer, in the catalog's order."""
    found = []
    for path in paths_of(layer):
        try:
            value = resolve(layer, path).value
        except (ValueError, KeyError, TypeError):  # a path the layer does not carry now
            continue
        if is_animated(value):
            found.append({"path": path, "times": [key["time"] for key in value["keys"]]})
    return found
