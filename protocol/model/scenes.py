"""Scenes: a comp told as shots placed end to end, with a transition between two of them
(docs/document.md, "Scenes").

A comp's `scenes` list its scenes in order, each `{id, layer, duration, transition}`. A scene is
drawn by a precomp layer of the comp (its `layer`), an ordinary layer in every other way, so
what holds for precomps holds for scenes (their sound, their missing footage, a comp that
would show itself). The scene commands set each scene layer's time from the durations:

    scene 1   [0 ............ d1)
    scene 2             [d1 - t2 ............ d1 - t2 + d2)        t2: the transition into 2
    scene 3                                [ ... )

    start(1) = 0;  start(i) = end(i - 1) - t(i);  end(i) = start(i) + d(i)
    the scene's layer: inPoint start(i), outPoint end(i), startTime start(i)

A transition into a scene overlaps it with the scene before, both drawn (as Remotion's
TransitionSeries does): its window is [start(i), start(i) + t(i)), across which the progress p
runs from 0 to 1 through its easing. TRANSITIONS says what each kind does with p (the formulas,
which docs/commands.md repeats), workers/compositor/transitions.py draws it, and the mixer
crossfades the two scenes' sound over the window, linearly in time, whatever the kind.

Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from protocol.model.keyframes import check_interpolation, eased

# Where an incoming scene (or a wipe's edge) comes from.
EDGES = ("fromLeft", "fromRight", "fromTop", "fromBottom")
CORNERS = ("fromTopLeft", "fromTopRight", "fromBottomLeft", "fromBottomRight")
# The blur of a blurDissolve at its middle, as a fraction of the comp's height (20 px at 1080).
BLUR_DISSOLVE_SIGMA = 1 / 54


@dataclass(frozen=True)
class TransitionKind:
    formula: str  # what it draws at progress p, A the scene before and B the scene after
    directions: tuple = ()  # the first is the default
    easing: str = "linear"  # the default
    color: bool = False  # takes a color


TRANSITIONS: dict[str, TransitionKind] = {
    "crossfade": TransitionKind("A x (1 - p) + B x p"),
    "dip": TransitionKind("A fades to the color over the first half (mixed by 2p), and the "
                          "color to B over the second (by 2p - 1)", color=True),
    "push": TransitionKind("B comes in from the edge as A leaves by the other: both moved by "
                           "p of the comp's width (or height)", EDGES, "easyEase"),
    "slide": TransitionKind("B slides in from the edge over A, which stays: B is (1 - p) of "
                            "the comp's width (or height) off its place", EDGES, "easyEase"),
    "wipe": TransitionKind("a straight edge crosses the comp from that side: B is shown on "
                           "the first p of the width (or height), A on the rest", EDGES,
                           "easyEase"),
    "radialWipe": TransitionKind("a circle grows from that corner: B within p of the "
                                 "diagonal of the corner, A outside", CORNERS, "easyEase"),
    "clockWipe": TransitionKind("a hand sweeps from 12 o'clock around the center: B in the "
                                "swept p x 360 degrees, A in the rest",
                                ("clockwise", "counterclockwise"), "easyEase"),
    "iris": TransitionKind("open: B within a circle about the center of radius p of the half "
                           "diagonal, A outside; close: A within a circle of radius (1 - p), "
                           "B outside", ("open", "close"), "easyEase"),
    "zoom": TransitionKind("a crossfade (A x (1 - p) + B x p) while both scale about the "
                           "center: in, A by 2^p and B by 2^(p - 1); out, A by 2^-p and B by "
                           "2^(1 - p)", ("in", "out"), "easyEase"),
    "blurDissolve": TransitionKind("a crossfade of both scenes blurred (Gaussian sigma "
                                   "(1 - |2p - 1|) x height / 54: none at the ends, 20 px "
                                   "on a 1080 comp at the middle)"),
}
NONE = "none"  # transition.set's kind that removes a scene's transition


@dataclass(frozen=True)
class Window:
    """A transition drawn: the outgoing and incoming scenes' layer ids, its span, itself."""
    outgoing: str
    incoming: str
    start: float
    end: float
    transition: dict


def check_transition(transition: Any) -> dict:
    """A transition `{kind, duration, easing, direction?, color?}` with its defaults filled
    in; ValueError with a sentence fragment otherwise. The color is checked by the caller,
    which knows the document's color forms."""
    if not isinstance(transition, dict):
        raise ValueError(f"a transition is an object {{kind, duration, ...}}, got "
                         f"{transition!r}")
    kind = TRANSITIONS.get(transition.get("kind"))
    if kind is None:
        raise ValueError(f"kind is one of {', '.join(TRANSITIONS)} (or {NONE} to remove "
                         f"one), got {transition.get('kind')!r}")
    allowed = {"kind", "duration", "easing"} | ({"direction"} if kind.directions else set()) \
        | ({"color"} if kind.color else set())
    unknown = sorted(set(transition) - allowed)
    if unknown:
        raise ValueError(f"a {transition['kind']} transition does not take "
                         f"{', '.join(unknown)}; it takes {', '.join(sorted(allowed))}")
    duration = transition.get("duration")
    if isinstance(duration, bool) or not isinstance(duration, (int, float)) or duration <= 0:
        raise ValueError(f"duration is seconds above 0, got {duration!r}")
    checked = {"kind": transition["kind"], "duration": float(duration),
               "easing": check_interpolation(transition.get("easing", kind.easing))}
    if checked["easing"] == "hold":
        raise ValueError("hold is not an easing for a transition; use linear, easeIn, "
                         "easeOut, easyEase, a bezier or a named curve")
    if kind.directions:
        direction = transition.get("direction", kind.directions[0])
        if direction not in kind.directions:
            raise ValueError(f"a {transition['kind']} transition's direction is one of "
                             f"{', '.join(kind.directions)}, got {direction!r}")
        checked["direction"] = direction
    if kind.color:
        checked["color"] = transition.get("color", [0.0, 0.0, 0.0, 1.0])
    return checked


def placed(comp: dict) -> list[tuple[dict, float, float]]:
    """(scene, start, end) of each scene, in order, from the durations and transitions."""
    result, end = [], 0.0
    for index, scene in enumerate(comp.get("scenes") or []):
        transition = scene.get("transition")
        start = 0.0 if index == 0 else end - (transition["duration"] if transition else 0.0)
        end = start + scene["duration"]
        result.append((scene, start, end))
    return result


def lay_out(comp: dict) -> float:
    """Set each scene layer's time from the scenes; the end of the last scene (0 if none)."""
    layers = {layer["id"]: layer for layer in comp["layers"]}
    end = 0.0
    for scene, start, end in placed(comp):
        layer = layers[scene["layer"]]
        layer["inPoint"], layer["outPoint"], layer["startTime"] = start, end, start
    return end


def windows(comp: dict) -> list[Window]:
    """The transitions to draw, from the scene layers' times as stored (a scene's layer in
    point is where its transition starts)."""
    layers = {layer["id"]: layer for layer in comp.get("layers", [])}
    scenes = comp.get("scenes") or []
    found = []
    for before, scene in zip(scenes, scenes[1:]):
        transition = scene.get("transition")
        incoming = layers.get(scene.get("layer"))
        if transition and incoming is not None and before.get("layer") in layers:
            start = float(incoming["inPoint"])
            found.append(Window(before["layer"], scene["layer"], start,
                                start + float(transition["duration"]), transition))
    return found


def progress(window: Window, time: float) -> float:
    """The transition's eased progress at `time` (0 at its start, 1 at its end; an
    overshooting easing passes 1 on the way)."""
    span = window.end - window.start
    linear = min(1.0, max(0.0, (time - window.start) / span))
    return eased(window.transition.get("easing", "linear"), linear, span)


def timing_problem(comp: dict) -> str | None:
    """Why the scenes' times do not fit, or None: a transition overlaps the two scenes it
    joins, so a scene must last at least its transitions in and out together (they may not
    overlap each other)."""
    scenes = comp.get("scenes") or []
    names = {layer["id"]: layer["name"] for layer in comp.get("layers", [])}
    for index, scene in enumerate(scenes):
        into = (scene.get("transition") or {}).get("duration", 0.0) if index else 0.0
        following = scenes[index + 1].get("transition") if index + 1 < len(scenes) else None
        out = following["duration"] if following else 0.0
        if into + out > scene["duration"] + 1e-9:
            return (f"scene {index + 1} ({names.get(scene['layer'], scene['layer'])!r}) lasts "
                    f"{scene['duration']:g} s, less than its transitions in and out take "
                    f"together ({into:g} s and {out:g} s); make it longer or the transitions "
                    "shorter")
    return None
