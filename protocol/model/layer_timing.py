"""A layer's place in time: sliding it, and whether it has anything to show or play then
(docs/document.md, "Time").

- A slide moves the whole layer along the comp's time, as dragging a layer's bar does in an
  editor: its start time, its in and out points, every key of every property it has and its
  own markers move by the same amount, so a one-second sound moved to 1 s plays from 1 s to
  2 s and its fade-in comes with it.
- A layer shows (or, for sound, plays) nothing when its time lies wholly outside the comp, or
  when its source (a clip, a sound, a precomp's comp) runs outside the layer's in and out
  points; an edit that leaves a layer so is not an error (it may be on the way to another
  edit) but is said in `warnings`.

Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from protocol.model.keyframes import is_animated
from protocol.model.time_remap import TIMED_TYPES


def slide(layer: dict, delta: float) -> None:
    """Move the layer `delta` seconds later (earlier if negative), keys and markers too."""
    if not delta:
        return
    for key in ("startTime", "inPoint", "outPoint"):
        layer[key] = layer.get(key, 0.0) + delta
    for name in ("transform", "content", "effects", "masks", "audio"):
        _shift_keys(layer.get(name), delta)
    for marker in layer.get("markers") or []:
        marker["time"] += delta


def _shift_keys(node: Any, delta: float) -> None:
    if is_animated(node):
        for key in node["keys"]:
            key["time"] += delta
        return
    if isinstance(node, dict):
        for value in node.values():
            _shift_keys(value, delta)
    elif isinstance(node, list):
        for value in node:
            _shift_keys(value, delta)


def nothing_shown(comp: dict, layer: dict, source_seconds: float | None) -> str | None:
    """Why the layer shows or plays nothing at any time of the comp, as a sentence, or None
    when it does. `source_seconds` is the length of its source (None: a still, or not
    known)."""
    name, verb = layer["name"], _verb(layer)
    span = f"{_s(layer['inPoint'])} to {_s(layer['outPoint'])}"
    if layer["inPoint"] >= comp["duration"]:
        return (f"layer {name!r} {verb} nothing: its time, {span}, is after the comp ends at "
                f"{_s(comp['duration'])}; move it earlier with startTime (its in and out "
                "points move with it).")
    if layer["outPoint"] <= 0:
        return (f"layer {name!r} {verb} nothing: its time, {span}, is before the comp starts; "
                "move it later with startTime (its in and out points move with it).")
    content = layer.get("content", {})
    if layer["type"] not in TIMED_TYPES or not source_seconds or content.get("loop") or \
            content.get("timeRemap") is not None:
        return None
    speed = float(content.get("speed", 100)) / 100
    if speed == 0:
        return None
    # Comp times at which the source's first and last moments play.
    ends = sorted((layer["startTime"], layer["startTime"] + source_seconds / speed))
    if ends[1] > layer["inPoint"] and ends[0] < layer["outPoint"]:
        return None
    return (f"layer {name!r} {verb} nothing: its source plays from {_s(ends[0])} to "
            f"{_s(ends[1])} of comp time (startTime {_s(layer['startTime'])}), outside its "
            f"in and out points ({span}); set startTime to move the source (the in and out "
            "points move with it), or inPoint and outPoint to where it plays.")


def _verb(layer: dict) -> str:
    return {"audio": "plays", "video": "shows and plays"}.get(layer["type"], "shows")


def _s(seconds: float) -> str:
    return f"{round(seconds, 3):g} s"
