"""layout_check in the supervisor: which layers to check at which moments, sent as one
`layout_check` job per moment (workers/layout_checks.py, where the checks are) spread over the
preview worker and idle render workers like a filmstrip's frames, the stretches where almost
nothing shows (emptyFrame, from `frame_detail` jobs), and the findings gathered in time order,
top layer first.

What is checked: the comp's own layers, and the layers of each of its scenes' comps while that
scene shows on its own (outside its transitions, and while its layer neither moves nor fades),
as the comp shows them (a scene played at another speed or remapped is not looked into).

The moments: the times given (every layer shown then is checked as it is), or where each layer
rests (protocol/model/settling.py): in each stretch of its time in which it neither moves nor
fades, its first frame, its middle one and its last. A stretch before a layer's first move or
after its last is where it may wait to enter or be gone: there a layer out of sight (wholly off
the comp, scaled to nothing, transparent) is not held to the frame. A text whose text is keyed (captions, a
count) is checked in its longest stretches of one non-empty text instead (at most TEXT_CUES),
so a caption is judged while a cue shows, never between cues.

emptyFrame: the comp is drawn small every EMPTY_STEP frames (outside scene transitions, where
a dip or a blur is meant) and a stretch of at least EMPTY_MIN_SECONDS in which almost nothing
shows (frame_detail under EMPTY_DETAIL: no edges to see, whatever the background; what has
faded under about 15% is not seen) is a finding, unless it touches the comp's start or end,
where a fade from or to black belongs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from protocol.cancel import Cancel
from protocol.model.keyframes import is_animated
from protocol.model.legibility import ACTION_SAFE, TITLE_SAFE
from protocol.model.scenes import placed, windows
from protocol.model.settling import settled_spans
from supervisor.errors import CommandError
from supervisor.render.frame_jobs import spread_results
from supervisor.render.stills import frame_at
from supervisor.runtime.pool import Pool
from workers.layout_checks import WHEN

# A check is one job per moment; past this many moments of one comp an agent should name its
# times.
MAX_MOMENTS = 64
TEXT_CUES = 3
# The emptyFrame scan: every EMPTY_STEP frames, drawn EMPTY_MAX_SIDE wide, EMPTY_BATCH a job;
# a frame with fewer than EMPTY_DETAIL of its pixels on an edge (workers/layout_checks.py,
# visible_detail: a plain, graded or faded-out frame) is empty, and EMPTY_MIN_SECONDS of them
# (three frames at 30 fps: a cut's single black frame is not one) are a finding.
EMPTY_STEP = 2
EMPTY_MAX_SIDE = 320
EMPTY_BATCH = 24
EMPTY_DETAIL = 0.0005
EMPTY_MIN_SECONDS = 0.1


@dataclass
class Target:
    """A comp whose layers are checked: the comp itself, or a scene's comp (its `scene`
    name, its start in the comp and the comp times it shows on its own)."""
    comp: dict
    scene: str | None = None
    start: float = 0.0
    shows: tuple = ()  # (start, end) comp times; empty: always (the comp itself)

    def comp_time(self, own: float) -> float:
        return self.start + own

    def own_stretches(self) -> list[tuple[float, float]] | None:
        return None if self.scene is None else [(a - self.start, b - self.start)
                                                for a, b in self.shows]


def targets_of(document: dict, comp: dict) -> list[Target]:
    """The comp, and each scene comp it plays plainly (speed 100, no remap, no loop)."""
    comps = {c["id"]: c for c in document["comps"]}
    layers = {layer["id"]: layer for layer in comp["layers"]}
    transitions = windows(comp)
    found = [Target(comp)]
    for scene, start, end in placed(comp):
        layer = layers[scene["layer"]]
        content = layer["content"]
        if content.get("timeRemap") is not None or content.get("speed", 100) != 100 or \
                content.get("loop") or not layer.get("enabled", True):
            continue
        alone = (max([start] + [w.end for w in transitions if w.incoming == layer["id"]]),
                 min([end] + [w.start for w in transitions if w.outgoing == layer["id"]]))
        # Where the scene's layer itself moves or fades, its contents are on their way too.
        shows = tuple(settled_spans(comp, layer, *alone)) if alone[1] > alone[0] else ()
        if shows:
            found.append(Target(comps[content["source"]], layer["name"], layer["startTime"],
                                shows))
    return found


def check_moments(comp: dict, times: list | None,
                  stretches: list | None = None) -> dict[float, dict[str, bool]]:
    """{frame time (of `comp`'s own): {id of a layer to check then: whether the layer is
    waiting to enter or has left then}}; `stretches` limits the default moments to those
    (comp times of its own)."""
    rate = comp["frameRate"]
    moments: dict[float, dict[str, bool]] = {}
    if times is not None:
        for time in times:
            moments.setdefault(frame_at(comp, float(time)) / rate, {}).update(
                {layer["id"]: False for layer in comp["layers"]})
        return moments
    for layer in comp["layers"]:
        for time, waiting in _resting_moments(comp, layer, stretches):
            entry = moments.setdefault(time, {})
            entry[layer["id"]] = entry.get(layer["id"], True) and waiting
    return moments


def _resting_moments(comp: dict, layer: dict, stretches: list | None) -> list[tuple]:
    """(time, waiting) of the moments the layer is checked at; `waiting` for a stretch before
    its first move or after its last (where it may wait off the comp to enter, or be gone)."""
    rate = comp["frameRate"]
    start, end = max(layer["inPoint"], 0.0), min(layer["outPoint"], comp["duration"])
    spans = settled_spans(comp, layer, start, end)
    moved = len(spans) > 1 or (spans and spans[0] != (start, end))
    rests = []
    for index, (a, b) in enumerate(spans):
        waiting = moved and (index == 0 and a == start or index == len(spans) - 1 and b == end)
        for low, high in stretches if stretches is not None else [(a, b)]:
            if min(b, high) > max(a, low):
                rests.append((max(a, low), min(b, high), waiting))
    text = layer["content"].get("text") if layer["type"] == "text" else None
    if is_animated(text):
        cues = [(max(a, low), min(b, high), waiting) for low, high in _text_stretches(text, end)
                for a, b, waiting in rests if min(b, high) > max(a, low)]
        cues = sorted(cues, key=lambda cue: cue[0] - cue[1])[:TEXT_CUES]
        return sorted({(_frame(rate, (a + b) / 2, b), waiting) for a, b, waiting in cues})
    moments = set()
    for a, b, waiting in rests:
        first = math.ceil(a * rate - 1e-9) / rate
        last = max(first, math.ceil(b * rate - 1e-9) / rate - 1 / rate)  # before b
        if first >= b:
            continue
        moments.update((time, waiting) for time in (first, _frame(rate, (a + b) / 2, b), last))
    return sorted(moments)


def _frame(rate: float, time: float, before: float) -> float:
    return min(math.floor(time * rate + 1e-9), math.ceil(before * rate - 1e-9) - 1) / rate


def _text_stretches(text: dict, end: float) -> list[tuple[float, float]]:
    """The stretches a keyed text holds one non-empty text (its keys are holds)."""
    keys = text["keys"]
    spans = []
    for index, key in enumerate(keys):
        following = keys[index + 1]["time"] if index + 1 < len(keys) else end
        if str(key["value"]).strip() and following > key["time"]:
            spans.append((key["time"], following))
    return spans


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
    payloads = []
    for target in targets_of(document, comp):
        own_times = times if target.scene is None else (
            None if times is None else [time - target.start for time in times
                                        if any(a <= time < b for a, b in target.shows)])
        if own_times == []:
            continue
        moments = check_moments(target.comp, own_times, target.own_stretches())
        if len(moments) > MAX_MOMENTS:
            where = "" if target.scene is None else f" (in scene {target.scene!r})"
            raise CommandError(f"comp {target.comp['name']!r}{where} has {len(moments)} "
                               f"moments to check, over {MAX_MOMENTS}; give times (at most "
                               f"{MAX_MOMENTS}).")
        payloads += [{"comp": comp["id"], "time": target.comp_time(time),
                      "holder": target.comp["id"], "holderTime": time, "scene": target.scene,
                      "layers": [{"id": layer, "waiting": waiting}
                                 for layer, waiting in layers.items()],
                      "whole": times is not None, "titleSafe": title_safe,
                      "actionSafe": action_safe}
                     for time, layers in sorted(moments.items())]
    results = spread_results(pool, "layout_check", payloads, snapshot_id, document, cancel,
                             comp, "the comp's size") if payloads else []
    found = [finding for result in results for finding in result["findings"]]
    if times is None:
        found += empty_frames(pool, snapshot_id, document, comp, cancel)
    return {"findings": merged(found, comp)}


def empty_frames(pool: Pool, snapshot_id: str, document: dict, comp: dict,
                 cancel: Cancel) -> list[dict]:
    """emptyFrame findings: the stretches inside the comp in which almost nothing shows."""
    rate = comp["frameRate"]
    last = frame_at(comp, comp["duration"] - 1 / rate)
    step = EMPTY_STEP
    transitions = windows(comp)
    frames = [frame for frame in range(0, last + 1, step)
              if not any(w.start <= frame / rate < w.end for w in transitions)]
    if last not in frames:
        frames.append(last)
    batches = [frames[i:i + EMPTY_BATCH] for i in range(0, len(frames), EMPTY_BATCH)]
    payloads = [{"comp": comp["id"], "time": batch[0] / rate, "maxSide": EMPTY_MAX_SIDE,
                 "times": [frame / rate for frame in batch]} for batch in batches]
    results = spread_results(pool, "frame_detail", payloads, snapshot_id, document, cancel,
                             comp, "the comp's size")
    details = [detail for result in results for detail in result["details"]]
    found, run = [], []
    for frame, detail in zip(frames, details):
        if detail < EMPTY_DETAIL:
            run.append(frame)
            continue
        found += _empty_stretch(comp, run, frames)
        run = []
    found += _empty_stretch(comp, run, frames)
    return found


def _empty_stretch(comp: dict, run: list[int], frames: list[int]) -> list[dict]:
    if not run or run[0] == frames[0] or run[-1] == frames[-1]:
        return []  # none, or at the comp's start or end: a fade from or to black
    rate = comp["frameRate"]
    following = frames[frames.index(run[-1]) + 1]
    start, end = run[0] / rate, following / rate
    if end - start < EMPTY_MIN_SECONDS:
        return []
    return [{"layer": None, "layerId": None, "time": round(start, 6), "end": round(end, 6),
             "kind": "emptyFrame",
             "message": (f"Almost nothing shows from {round(start, 3):g} s to "
                         f"{round(end, 3):g} s: the frame is "
                         "its background alone (what was on screen has gone and what comes "
                         "next has not arrived); overlap the two with a transition "
                         "(transition.set, or the crossfade preset), or start the next part "
                         "sooner.")}]


def merged(findings: list[dict], comp: dict) -> list[dict]:
    """One finding per layer, kind and message (a static title off the comp is one finding,
    not one per moment), with `time` its first moment and `times` all of them when several;
    in order of first moment, top layer first."""
    groups: dict[tuple, dict] = {}
    for found in sorted(findings, key=lambda found: found["time"]):
        key = (found["layerId"], found["kind"], found["message"], found.get("ratio"))
        if found["kind"] == "crowded":  # one finding a pair, whichever side found it
            key = ("crowded", frozenset((found["layerId"], found["with"])))
        if key in groups:
            if found["time"] not in groups[key].get("times", [groups[key]["time"]]):
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
