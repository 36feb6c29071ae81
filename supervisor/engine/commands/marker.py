"""Marker commands: add, list, remove. A marker is a named comp time on a comp or one of its
layers (protocol/model/markers.py); prop.addKey, prop.removeKey and prop.get take `"marker:NAME"`
for a time."""

from __future__ import annotations

import copy

from protocol.model.document import DocumentError, allocate_id, check_markers
from protocol.model.markers import find_marker
from protocol.model.values import check_value
from supervisor.engine.commands.lookup import find_comp, find_layer
from supervisor.engine.commands.registry import COMP_REF, LAYER_REF, command
from supervisor.errors import CommandError

OPTIONAL_LAYER = {**LAYER_REF, "description": "the layer whose marker it is (id, name or "
                  "1-based index); leave out for a marker on the comp"}
MARKER_REF = {"type": ["string", "integer"],
              "description": "a marker's id, name, or 1-based index"}


def _holder(engine, params) -> tuple[dict, dict | None, list]:
    """The comp, the layer (or None) and the list of markers the params name."""
    comp = find_comp(engine.doc, params["comp"])
    layer = find_layer(comp, params["layer"]) if params.get("layer") is not None else None
    holder = layer if layer is not None else comp
    return comp, layer, holder.setdefault("markers", [])


def _where(comp: dict, layer: dict | None) -> str:
    return f"layer {layer['name']!r}" if layer else f"comp {comp['name']!r}"


@command("marker.add", "Add a marker",
         "Mark a comp time with a name, on the comp or on one of its layers, optionally with a "
         "duration; key times may then be given as \"marker:NAME\". Returns {marker} (its id).",
         {"comp": COMP_REF, "layer": OPTIONAL_LAYER,
          "time": {"type": "number", "description": "comp time in seconds"},
          "name": {"type": "string", "description": "unique among this comp's (or layer's) "
                   "markers"},
          "duration": {"type": "number", "description": "seconds the marker spans (0)"}},
         required=("comp", "time", "name"))
def marker_add(engine, params, ctx):
    comp, layer, markers = _holder(engine, params)
    if not params["name"]:
        raise CommandError("a marker needs a name, so that \"marker:NAME\" can find it.")
    if any(marker["name"] == params["name"] for marker in markers):
        raise CommandError(f"{_where(comp, layer)} already has a marker named "
                           f"{params['name']!r}; pick another name or remove that one.")
    marker = {"id": allocate_id(engine.doc, "marker"), "name": params["name"],
              "time": params["time"], "duration": params.get("duration", 0)}
    try:
        check_value("nonNegative", marker["duration"])
        markers.append(marker)
        check_markers(markers, "marker")
    except (ValueError, DocumentError) as error:
        raise CommandError(f"duration: {error}.") from None
    return {"marker": marker["id"], "name": marker["name"], "time": marker["time"],
            "layer": layer["id"] if layer else None}


@command("marker.list", "List markers",
         "The comp's markers and every layer's (or one layer's), in time order, each with the "
         "layer it is on (null for the comp's own).",
         {"comp": COMP_REF, "layer": OPTIONAL_LAYER}, required=("comp",), kind="read")
def marker_list(engine, params, ctx):
    comp = find_comp(engine.doc, params["comp"])
    if params.get("layer") is not None:
        holders = [find_layer(comp, params["layer"])]
    else:
        holders = [comp] + comp["layers"]
    listed = [{**copy.deepcopy(marker), "layer": None if holder is comp else holder["id"]}
              for holder in holders for marker in holder.get("markers", [])]
    return {"markers": sorted(listed, key=lambda marker: marker["time"])}


@command("marker.remove", "Remove a marker",
         "Remove a marker of the comp (or of a layer). Keys placed at it keep their times.",
         {"comp": COMP_REF, "layer": OPTIONAL_LAYER, "marker": MARKER_REF},
         required=("comp", "marker"))
def marker_remove(engine, params, ctx):
    comp, layer, markers = _holder(engine, params)
    try:
        marker = find_marker(markers, params["marker"], _where(comp, layer))
    except ValueError as error:
        raise CommandError(f"{error}.") from None
    markers.remove(marker)
    return {"removed": marker["id"], "name": marker["name"]}
