"""When a layer has settled: the stretches of time in which nothing that moves it on screen or
fades it is changing, so a check of its layout judges it where it rests, not halfway through a
slide, a fade or a wipe (layout_check: supervisor/render/layout_check.py and
workers/layout_checks.py).

A layer changes between two consecutive keys of different values of its anchor, position,
scale or rotation (or a parent's: a parent's move carries it), of its own opacity, or of its
masks; each such pair of keys is an open interval (t1, t2) of change, so at a key's own time
the layer is at rest. A keyed text's text is not a change of place: a caption changing cue is
settled throughout.

Pure: no I/O.
"""

from __future__ import annotations

from protocol.model.keyframes import is_animated

MOVING = ("anchor", "position", "scale", "rotation")
# A stretch shorter than this (a frame at 120 fps) is no rest: between two moves.
MIN_REST = 1 / 120


def changing_spans(comp: dict, layer: dict) -> list[tuple[float, float]]:
    """The open intervals (start, end) in which the layer moves or fades, merged, in order."""
    by_id = {other["id"]: other for other in comp.get("layers", [])}
    props, current, seen = [], layer, set()
    while current is not None and current["id"] not in seen:
        seen.add(current["id"])
        props += [current["transform"][key] for key in MOVING]
        current = by_id.get(current.get("parent"))
    props.append(layer["transform"]["opacity"])
    for mask in layer.get("masks") or []:
        props += [mask.get(key) for key in ("path", "feather", "opacity", "expansion")]
    spans = sorted(span for prop in props for span in _changes(prop))
    merged: list[list[float]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def fading_spans(layer: dict) -> list[tuple[float, float]]:
    """The open intervals in which the layer's own opacity changes."""
    return _changes(layer["transform"]["opacity"])


def _changes(prop) -> list[tuple[float, float]]:
    if not is_animated(prop):
        return []
    keys = prop["keys"]
    return [(left["time"], right["time"]) for left, right in zip(keys, keys[1:])
            if left["value"] != right["value"] and left.get("interpolation") != "hold"]


def within(spans: list[tuple[float, float]], time: float) -> bool:
    """Whether `time` is inside one of the open intervals."""
    return any(start < time < end for start, end in spans)


def settled_spans(comp: dict, layer: dict, start: float, end: float) -> list[tuple[float, float]]:
    """The stretches of [start, end] in which the layer is at rest, at least MIN_REST long."""
    rests, cursor = [], start
    for change_start, change_end in changing_spans(comp, layer):
        if change_end <= cursor:
            continue
        if change_start >= end:
            break
        if change_start - cursor >= MIN_REST:
            rests.append((cursor, min(change_start, end)))
        cursor = max(cursor, change_end)
    if end - cursor >= MIN_REST:
        rests.append((cursor, end))
    return [(a, b) for a, b in rests if b - a >= MIN_REST]
