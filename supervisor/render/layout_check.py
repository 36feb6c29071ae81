"""layout_check in the supervisor: which layers to check at which moments, sent as one
`layout_check` job per moment (workers/layout_checks.py, where the checks are) spread over the
preview worker and idle render workers like a filmstrip's frames, and the findings gathered in
time order, top layer first.

The moments: the times given (every layer shown then is checked), or each layer's own in
point, midpoint and the frame before its out point (within the comp), each floored to the
frame showing it. At its in and out points a layer comes with the stretch from there to its
midpoint, over which it must be still to be checked whole: one that slides or fades in or
out is expected to be off the comp or faint then.
"""

from __future__ import annotations

import math

from protocol.cancel import Cancel
from protocol.model.legibility import ACTION_SAFE, TITLE_SAFE
from supervisor.errors import CommandError
from supervisor.render.frame_jobs import spread_results
from supervisor.render.stills import frame_at
from supervisor.runtime.pool import Pool
from workers.layout_checks import WHEN

# A check is one job per moment; past this many moments an agent should name its times.
MAX_MOMENTS = 64


def check_moments(comp: dict, times: list | None) -> dict[float, dict[str, list | None]]:
    """{frame time: {layer id: the [start, end] it must be still over, or None}} to check."""
    rate = comp["frameRate"]
    moments: dict[float, dict[str, list | None]] = {}
    if times is not None:
        for time in times:
            at = frame_at(comp, float(time)) / rate
            moments.setdefault(at, {}).update({layer["id"]: None for layer in comp["layers"]})
        return moments
    for layer in comp["layers"]:
        start = max(layer["inPoint"], 0.0)
        end = min(layer["outPoint"], comp["duration"])
        if end <= start:
            continue
        first = math.floor(start * rate + 1e-9) / rate
        last = max(first * rate, math.ceil(end * rate - 1e-9) - 1) / rate  # before the out point
        middle = math.floor((start + end) / 2 * rate + 1e-9) / rate
        for time, rest in ((middle, None), (first, [first, middle]), (last, [middle, last])):
            entry = moments.setdefault(time, {})
            if layer["id"] not in entry or rest is None:
                entry[layer["id"]] = rest
    return moments


def check_layout(pool: Pool, snapshot_id: str, document: dict, comp: dict, times: list | None,
                 title_safe: float | None, action_safe: float | None, cancel: Cancel) -> dict:
    """{findings: [...]} for `comp`; CommandError with a sentence for a moment that could not
    be checked; Cancelled when `cancel` is."""
    title_safe = TITLE_SAFE if title_safe is None else title_safe
    action_safe = ACTION_SAFE if action_safe is None else action_safe
    for name, value in (("title_safe", title_safe), ("action_safe", action_safe)):
        if not 0 < value <= 100:
            raise CommandError(f"{name} is a percent of the frame above 0 and at most 100, got "
                               f"{value}.")
    moments = check_moments(comp, times)
    if len(moments) > MAX_MOMENTS:
        raise CommandError(f"comp {comp['name']!r} has {len(moments)} moments to check, over "
                           f"{MAX_MOMENTS}; give times (at most {MAX_MOMENTS}).")
    payloads = [{"comp": comp["id"], "time": time, "titleSafe": title_safe,
                 "actionSafe": action_safe,
                 "layers": [{"id": layer, "rest": rest} for layer, rest in layers.items()]}
                for time, layers in sorted(moments.items())]
    results = spread_results(pool, "layout_check", payloads, snapshot_id, document, cancel,
                             comp, "the comp's size")
    return {"findings": merged([found for result in results for found in result["findings"]],
                               comp)}


def merged(findings: list[dict], comp: dict) -> list[dict]:
    """One finding per layer, kind and message (a static title off the comp is one finding,
    not one per moment), with `time` its first moment and `times` all of them when several;
    in order of first moment, top layer first."""
    groups: dict[tuple, dict] = {}
    for found in sorted(findings, key=lambda found: found["time"]):
        key = (found["layerId"], found["kind"], found["message"], found.get("ratio"))
        if key in groups:
            groups[key].setdefault("times", [groups[key]["time"]]).append(found["time"])
        else:
            groups[key] = dict(found)
    order = {layer["id"]: index for index, layer in enumerate(comp["layers"])}
    result = sorted(groups.values(), key=lambda found: (found["time"],
                                                        order.get(found["layerId"], 0)))
    for found in result:
        found["message"] = found["message"].replace(WHEN, "at " + _moments(
            found.get("times", [found["time"]])))
    return result


def _moments(times: list[float]) -> str:
    said = [f"{round(time, 3):g} s" for time in times]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
