"""Markers: named times on a comp or a layer, and key times given as `"marker:NAME"`
(docs/document.md, "Markers").

A marker's `time` is a comp time in seconds, like a key's; `duration` (0 or more) marks a span.
Names are unique where they are kept (a comp's own markers, or one layer's). A key time
`"marker:NAME"` is the time of the layer's marker of that name, else the comp's; it is resolved
when the key is added, so the key keeps its time if the marker later moves. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

MARKER_PREFIX = "marker:"
# A marker's fields besides its id: name -> value kind.
MARKER_FIELDS = {"name": "string", "time": "number", "duration": "nonNegative"}


def is_marker_reference(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(MARKER_PREFIX)


def resolve_time(comp: dict, layer: dict | None, value: Any) -> Any:
    """`value` as seconds: a number as it is, `"marker:NAME"` as that marker's time (the
    layer's first, then the comp's); ValueError naming the markers there are otherwise."""
    if not is_marker_reference(value):
        return value
    name = value[len(MARKER_PREFIX):]
    for marker in ((layer or {}).get("markers") or []) + (comp.get("markers") or []):
        if marker["name"] == name:
            return marker["time"]
    known = [m["name"] for m in ((layer or {}).get("markers") or [])
             + (comp.get("markers") or [])]
    where = f"layer {layer['name']!r} or comp {comp['name']!r}" if layer else \
        f"comp {comp['name']!r}"
    raise ValueError(f"{where} has no marker named {name!r}; "
                     + (f"the markers are {', '.join(map(repr, known))}" if known
                        else "add one with marker.add"))


def find_marker(markers: list[dict], ref: Any, where: str) -> dict:
    """A marker by id, name or 1-based index; ValueError listing them otherwise."""
    for marker in markers:
        if marker["id"] == ref or marker["name"] == ref:
            return marker
    if isinstance(ref, int) and not isinstance(ref, bool) and 1 <= ref <= len(markers):
        return markers[ref - 1]
    listed = ", ".join(f"{m['name']!r} ({m['id']}) at {m['time']:g} s" for m in markers)
    raise ValueError(f"{where} has no marker {ref!r}; "
                     + (f"its markers are {listed}" if markers else "it has no markers"))
