"""The summary of an imported timeline, as a worker sends it (workers/interchange/timeline_import.py)
and the supervisor checks it before building a comp from it: small, typed, and never trusted.

    {name, rate, duration, markers: [{name, time, duration}],
     tracks: [{name, kind: "video"|"audio", items: [ITEM...]}]  (bottom track first),
     warnings: [sentence...]}            (the top level only)
    ITEM: {type: "clip", name, start, duration, sourceStart, speed, markers, media: path|null,
           enabled, level: dB|null}
        | {type: "nested", name, start, duration, sourceStart, speed, markers, timeline: {...}}
        | {type: "transition", name, kind, at, before, after}

Times are seconds: `start`, `at` and markers' times on the record side, from the timeline's
start; `sourceStart` into the item's media. `speed` is percent (100 normal, 0 a freeze).
Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from protocol.model.limits import MAX_TEXT_LENGTH
from protocol.model.numbers import is_number

# A timeline file is read whole: an hour-long feature's FCP XML is a few megabytes.
MAX_TIMELINE_BYTES = 64 * 1024 * 1024
# Items (clips, gaps, transitions) of one timeline, nested ones counted: a feature has a few
# thousand; each becomes a layer, and a comp of tens of thousands is no longer editable.
MAX_ITEMS = 10_000
# Timelines inside timelines: editors nest a handful deep.
MAX_NESTING = 16

_TIMING = {"name": str, "start": "number", "duration": "number", "sourceStart": "number",
           "speed": "number", "markers": list}
_ITEMS = {
    "clip": {**_TIMING, "media": (str, type(None)), "enabled": bool,
             "level": ("number", type(None))},
    "nested": {**_TIMING, "timeline": dict},
    "transition": {"name": str, "kind": str, "at": "number", "before": "number",
                   "after": "number"},
}


class SummaryError(ValueError):
    """A summary not of the shape above; the message says where."""


def check_summary(summary: Any) -> dict:
    """`summary` if it has the shape above (within the limits), else SummaryError."""
    _check_timeline(summary, "timeline", 0)
    _expect(summary, "warnings", list, "timeline")
    for warning in summary["warnings"]:
        _check_type(warning, str, "timeline.warnings")
    return summary


def _check_timeline(timeline: Any, place: str, depth: int) -> None:
    if depth > MAX_NESTING:
        raise SummaryError(f"{place}: nested more than {MAX_NESTING} deep")
    _check_type(timeline, dict, place)
    for key, kind in (("name", str), ("rate", "number"), ("duration", "number"),
                      ("markers", list), ("tracks", list)):
        _expect(timeline, key, kind, place)
    if timeline["rate"] <= 0:
        raise SummaryError(f"{place}.rate: must be above 0")
    _check_markers(timeline["markers"], f"{place}.markers")
    for index, track in enumerate(timeline["tracks"]):
        where = f"{place}.tracks[{index}]"
        _check_type(track, dict, where)
        _expect(track, "name", str, where)
        _expect(track, "items", list, where)
        if track.get("kind") not in ("video", "audio"):
            raise SummaryError(f"{where}.kind: expected video or audio")
        if len(track["items"]) > MAX_ITEMS:
            raise SummaryError(f"{where}.items: more than {MAX_ITEMS} items")
        for number, item in enumerate(track["items"]):
            _check_item(item, f"{where}.items[{number}]", depth)


def _check_item(item: Any, place: str, depth: int) -> None:
    _check_type(item, dict, place)
    fields = _ITEMS.get(item.get("type"))
    if fields is None:
        raise SummaryError(f"{place}.type: expected one of {', '.join(_ITEMS)}")
    for key, kind in fields.items():
        _expect(item, key, kind, place)
    if "markers" in fields:
        _check_markers(item["markers"], f"{place}.markers")
    if item["type"] == "nested":
        _check_timeline(item["timeline"], f"{place}.timeline", depth + 1)


def _check_markers(markers: list, place: str) -> None:
    for index, marker in enumerate(markers):
        where = f"{place}[{index}]"
        _check_type(marker, dict, where)
        for key, kind in (("name", str), ("time", "number"), ("duration", "number")):
            _expect(marker, key, kind, where)


def _expect(node: dict, key: str, kind: Any, place: str) -> None:
    if key not in node:
        raise SummaryError(f"{place}: missing {key}")
    _check_type(node[key], kind, f"{place}.{key}")


def _check_type(value: Any, kind: Any, place: str) -> None:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for option in kinds:
        if option == "number":
            if is_number(value):
                return
        elif isinstance(value, option) and not (option is int and isinstance(value, bool)):
            if isinstance(value, str) and len(value) > MAX_TEXT_LENGTH:
                raise SummaryError(f"{place}: longer than {MAX_TEXT_LENGTH} characters")
            return
    raise SummaryError(f"{place}: unexpected {type(value).__name__}")
