"""Animation presets: the keys a common move adds to a layer (fade in, slide in, pop, wipe, ...),
from a table, so adding a preset is one entry.

Each preset says what params it takes (with their defaults), how long it lasts and when it plays
by default (`starts`: from the layer's in point, so that it ends at the layer's out point, or
over the layer's whole time), and how to plan it: given the layer as it is (`Subject`), the keys
to add per property path, a mask to add with the keys of its path, or a text animation preset
(protocol/model/text_presets.py) to play. docs/commands.md ("Presets") gives every preset's keys;
tests evaluate them. Values a preset keys to are the layer's own ("rest": its value at that
time before the preset), so a fade ends at the opacity the layer had, and a slide at its place.

Pure: no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

from protocol.model.bezier import rect_path
from protocol.model.keyframes import cubic_bezier
from protocol.model.numbers import is_number

Rect = tuple[float, float, float, float]  # left, top, right, bottom
Key = tuple[float, Any, Any]  # time, value, interpolation

EDGES = ("left", "right", "top", "bottom")
# Starts: "in" plays from the layer's in point; "out" ends at its out point; "span" covers the
# layer's whole time (its duration is then the layer's length); "with" starts at the in point
# of the other layer it names (crossfade's `to`).
STARTS = ("in", "out", "span", "with")
# Anti-aliasing reaches about a pixel past an outline; a wipe's mask ends this far outside the
# content so that, once open, it cuts nothing.
WIPE_MARGIN = 2.0
# The golden angle: successive shake offsets point in directions that never line up.
GOLDEN_ANGLE = 137.5
# A shake keys every 1/frequency s; past 60 a second the keys are finer than frames.
MAX_SHAKE_FREQUENCY = 60.0
# An audio fade is this many straight pieces of amplitude, keyed in dB.
FADE_STEPS = 8
SILENCE_LEVEL = -96.0  # protocol/model/audio.py's SILENCE_DB: a level that is silence
# countUp slows toward its last number: CSS's ease-out, cubic-bezier(0, 0, 0.58, 1).
EASE_OUT = partial(cubic_bezier, 0.0, 0.0, 0.58, 1.0)
# What cascade may stagger: presets of one layer.
CASCADED = ("fadeIn", "fadeOut", "slideIn", "slideOut", "pop", "wipe", "growFrom", "typewriter")
SOUNDING = ("audio", "video", "precomp")


@dataclass(frozen=True)
class Param:
    type: str  # number, string, vec2, numberOrNull, whole, text, layer, layers, preset, object
    default: Any
    description: str
    enum: tuple | None = None
    minimum: float | None = None  # lowest accepted
    above: bool = False  # the minimum itself is refused
    maximum: float | None = None  # highest accepted

    def listing(self) -> dict:
        entry = {"type": self.type, "default": self.default, "description": self.description}
        if self.enum:
            entry["enum"] = list(self.enum)
        return entry


@dataclass(frozen=True)
class Subject:
    """The layer a preset is planned for, as it is before the preset."""
    start: float
    end: float
    params: dict
    rest: Callable[[str, float], Any]  # a property's value ("position", "audio.level", time)
    box: Rect  # the content, in the layer's own coordinates (workers/compositor/layer_boxes.py)
    extent: Callable[[float], Rect]  # where the content lands in the comp at a time
    comp_size: tuple[float, float]
    frame_rate: float = 30.0
    # The value of another layer's property at a time (a `layer` param's: ref, name, time).
    rest_of: Callable[[Any, str, float], Any] = lambda ref, key, time: None


@dataclass
class Plan:
    keys: dict[str, list[Key]] = field(default_factory=dict)  # property path -> keys
    mask: list[Key] | None = None  # the path keys of a new mask (mode add)
    mask_feather: float = 0.0
    text: str | None = None  # a text animation preset to play instead of keys
    anchor: list | None = None  # a new anchor, the layer kept in place by its position
    others: dict = field(default_factory=dict)  # another layer's ref -> {path: keys}
    # Another layer's ref -> {"inPoint": t} or {"outPoint": t}: times it must show from or to.
    shows: dict = field(default_factory=dict)
    # Presets to apply after this one: (layer ref, preset, start, duration, params) each.
    then: list = field(default_factory=list)


@dataclass(frozen=True)
class Preset:
    description: str
    plan: Callable[[Subject], Plan]
    duration: float | None  # default seconds; None: the preset's own pace (typewriter)
    starts: str = "in"
    params: dict = field(default_factory=dict)
    layer_types: tuple | None = None  # None: any layer


def _fade_in(s: Subject) -> Plan:
    return Plan({"transform.opacity": [(s.start, 0, "linear"),
                                       (s.end, s.rest("opacity", s.end), "linear")]})


def _fade_out(s: Subject) -> Plan:
    return Plan({"transform.opacity": [(s.start, s.rest("opacity", s.start), "linear"),
                                       (s.end, 0, "linear")]})


def slide_offset(edge: str, extent: Rect, comp_size: tuple[float, float],
                 distance: float | None) -> tuple[float, float]:
    """How far off its place a slide by `edge` starts (or ends): `distance` px, or just far
    enough that the content's far edge meets that edge of the comp."""
    if distance is not None:
        return {"left": (-distance, 0.0), "right": (distance, 0.0), "top": (0.0, -distance),
                "bottom": (0.0, distance)}[edge]
    left, top, right, bottom = extent
    width, height = comp_size
    return {"left": (-right, 0.0), "right": (width - left, 0.0), "top": (0.0, -bottom),
            "bottom": (0.0, height - top)}[edge]


def _moved(point, offset) -> list:
    return [point[0] + offset[0], point[1] + offset[1]]


def _slide_in(s: Subject) -> Plan:
    rest = s.rest("position", s.end)
    offset = slide_offset(s.params["from"], s.extent(s.end), s.comp_size, s.params["distance"])
    return Plan({"transform.position": [(s.start, _moved(rest, offset), "easeOut"),
                                        (s.end, list(rest), "linear")]})


def _slide_out(s: Subject) -> Plan:
    rest = s.rest("position", s.start)
    offset = slide_offset(s.params["to"], s.extent(s.start), s.comp_size, s.params["distance"])
    return Plan({"transform.position": [(s.start, list(rest), "easeIn"),
                                        (s.end, _moved(rest, offset), "linear")]})


def _pop(s: Subject) -> Plan:
    return Plan({"transform.scale": [
        (s.start, [0, 0], {"back": {"overshoot": s.params["overshoot"]}}),
        (s.end, list(s.rest("scale", s.end)), "linear")]})


def wipe_paths(edge: str, box: Rect) -> tuple[dict, dict]:
    """A wipe's mask at its start (a sliver of no width along `edge`) and its end (the whole
    content with WIPE_MARGIN around it), as rect paths of the same four points."""
    left, top, right, bottom = (box[0] - WIPE_MARGIN, box[1] - WIPE_MARGIN,
                                box[2] + WIPE_MARGIN, box[3] + WIPE_MARGIN)
    width, height = right - left, bottom - top
    cx, cy = (left + right) / 2, (top + bottom) / 2
    closed = {"left": rect_path(left, cy, 0, height), "right": rect_path(right, cy, 0, height),
              "top": rect_path(cx, top, width, 0), "bottom": rect_path(cx, bottom, width, 0)}
    return closed[edge], rect_path(cx, cy, width, height)


def _wipe(s: Subject) -> Plan:
    closed, opened = wipe_paths(s.params["from"], s.box)
    return Plan(mask=[(s.start, closed, "easeOut"), (s.end, opened, "linear")],
                mask_feather=s.params["feather"])


def _typewriter(s: Subject) -> Plan:
    return Plan(text="typewriter")


def _ken_burns(s: Subject) -> Plan:
    scale = s.rest("scale", s.start)
    first, last = s.params["startScale"] / 100.0, s.params["endScale"] / 100.0
    plan = Plan({"transform.scale": [(s.start, [scale[0] * first, scale[1] * first], "linear"),
                                     (s.end, [scale[0] * last, scale[1] * last], "linear")]})
    pan = s.params["pan"]
    if pan[0] or pan[1]:
        rest = s.rest("position", s.start)
        plan.keys["transform.position"] = [(s.start, list(rest), "linear"),
                                           (s.end, _moved(rest, pan), "linear")]
    return plan


def shake_keys(start: float, end: float, amplitude: float, frequency: float,
               rest: Callable[[float], Any]) -> list[Key]:
    """Key k of n = max(2, round(duration x frequency)) at start + k (end - start) / n: the
    position there plus amplitude (1 - k/n) along k x GOLDEN_ANGLE degrees; none at k 0 and n."""
    count = max(2, round((end - start) * frequency))
    keys = []
    for k in range(count + 1):
        time = start + k * (end - start) / count
        base = rest(time)
        reach = 0.0 if k in (0, count) else amplitude * (1 - k / count)
        angle = math.radians(k * GOLDEN_ANGLE)
        keys.append((time, [base[0] + reach * math.cos(angle), base[1] + reach * math.sin(angle)],
                     "linear"))
    return keys


def _shake(s: Subject) -> Plan:
    return Plan({"transform.position": shake_keys(
        s.start, s.end, s.params["amplitude"], s.params["frequency"],
        lambda time: s.rest("position", time))})


def _grow_from(s: Subject) -> Plan:
    edge = s.params["from"]
    left, top, right, bottom = s.box
    anchor = {"left": [left, (top + bottom) / 2], "right": [right, (top + bottom) / 2],
              "top": [(left + right) / 2, top], "bottom": [(left + right) / 2, bottom],
              "anchor": None}[edge]
    sx, sy = s.rest("scale", s.end)
    first = {"left": [0, sy], "right": [0, sy], "top": [sx, 0], "bottom": [sx, 0],
             "anchor": [0, 0]}[edge]
    return Plan({"transform.scale": [(s.start, first, "easeOut"), (s.end, [sx, sy], "linear")]},
                anchor=anchor)


def counted(params: dict, value: float) -> str:
    """countUp's text for a value: rounded to `decimals`, thousands split by `separator`,
    put in `format` where it says {} (the first)."""
    digits = f"{abs(value):,.{int(params['decimals'])}f}".replace(",", "\0")
    number = ("-" if round(value, int(params["decimals"])) < 0 else "") + \
        digits.replace("\0", params["separator"])
    return params["format"].replace("{}", number, 1) if "{}" in params["format"] \
        else params["format"] + number


def count_keys(start: float, end: float, frame_rate: float, params: dict) -> list[Key]:
    """A hold key on each frame from start to end where the count changes: the text of
    from + (to - from) x easeOut((t - start) / (end - start)), the last exactly `to`."""
    first, last = float(params["from"]), float(params["to"])
    frames = max(1, math.ceil((end - start) * frame_rate - 1e-9))
    keys: list[Key] = []
    for frame in range(frames + 1):
        time = min(end, start + frame / frame_rate)
        fraction = (time - start) / (end - start)
        text = counted(params, last if frame == frames else
                       first + (last - first) * EASE_OUT(fraction))
        if not keys or keys[-1][1] != text:
            keys.append((time, text, "hold"))
    return keys


def _count_up(s: Subject) -> Plan:
    return Plan({"text": count_keys(s.start, s.end, s.frame_rate, s.params)})


def _audio_fade(s: Subject, rising: bool) -> Plan:
    """Level keys at k/FADE_STEPS of the way: the layer's level plus 20 log10 of the amplitude
    fraction there, so the amplitude runs along a straight line (each step exact at its key)."""
    level = s.rest("audio.level", s.end if rising else s.start)
    keys = []
    for step in range(FADE_STEPS + 1):
        fraction = step / FADE_STEPS
        amount = fraction if rising else 1.0 - fraction
        value = SILENCE_LEVEL if amount <= 0 else level + 20.0 * math.log10(amount)
        keys.append((s.start + fraction * (s.end - s.start), max(SILENCE_LEVEL, value),
                     "linear"))
    return Plan({"audio.level": keys})


def _crossfade(s: Subject) -> Plan:
    other = s.params["to"]
    mine = s.rest("opacity", s.start)
    theirs = s.rest_of(other, "opacity", s.end)
    return Plan({"transform.opacity": [(s.start, mine, "linear"), (s.end, 0, "linear")]},
                others={other: {"transform.opacity": [(s.start, 0, "linear"),
                                                      (s.end, theirs, "linear")]}},
                shows={"": {"outPoint": s.end}, other: {"inPoint": s.start}})


def _cascade(s: Subject) -> Plan:
    layers = [""] + list(s.params["layers"])  # "" is the layer the preset is applied to
    duration = (s.end - s.start) or None  # none given: each its preset's own
    return Plan(then=[(layer, s.params["preset"], s.start + index * s.params["stagger"],
                       duration, s.params["params"])
                      for index, layer in enumerate(layers)])


_FROM = Param("string", "left", "the edge it comes in from", enum=EDGES)
_DISTANCE = Param("numberOrNull", None, "px it travels; null: far enough to be wholly off the "
                  "comp at that edge", minimum=0)

PRESETS: dict[str, Preset] = {
    "fadeIn": Preset("opacity from 0 to the layer's own", _fade_in, 0.5),
    "fadeOut": Preset("opacity from the layer's own to 0, ending at its out point", _fade_out,
                      0.5, starts="out"),
    "slideIn": Preset("slides into its place from off an edge, slowing as it lands", _slide_in,
                      0.6, params={"from": _FROM, "distance": _DISTANCE}),
    "slideOut": Preset("slides from its place off an edge, speeding up, ending at its out "
                       "point", _slide_out, 0.6, starts="out",
                       params={"to": Param("string", "left", "the edge it leaves by",
                                           enum=EDGES),
                               "distance": _DISTANCE}),
    "pop": Preset("scales up from 0 past its own size and settles back (overshoot)", _pop, 0.5,
                  params={"overshoot": Param("number", 1.70158, "how far past it goes: 1.70158 "
                                             "passes by 10%", minimum=0)}),
    "wipe": Preset("a mask opens across the layer from one edge", _wipe, 0.6,
                   params={"from": Param("string", "left", "the edge the wipe starts at",
                                         enum=EDGES),
                           "feather": Param("number", 0, "the mask's soft edge, px",
                                            minimum=0)}),
    "typewriter": Preset("text: characters appear one by one (text.animate's typewriter)",
                         _typewriter, None, layer_types=("text",)),
    "kenBurns": Preset("a slow zoom (and pan) over the layer's whole time, for stills",
                       _ken_burns, None, starts="span",
                       params={"startScale": Param("number", 100, "percent of the layer's "
                                                   "scale at the start", minimum=0, above=True),
                               "endScale": Param("number", 115, "percent of it at the end",
                                                 minimum=0, above=True),
                               "pan": Param("vec2", [0, 0], "[dx, dy] px the layer moves over "
                                            "the time")}),
    "shake": Preset("position jolts that die away, for an impact", _shake, 0.5,
                    params={"amplitude": Param("number", 12, "the first jolt's reach, px",
                                               minimum=0),
                            "frequency": Param("number", 12, "jolts a second (at most 60)",
                                               minimum=0, above=True,
                                               maximum=MAX_SHAKE_FREQUENCY)}),
    "growFrom": Preset("grows from an edge of its content (or its anchor) to its size, as a "
                       "bar of a chart does: the anchor moves to that edge, the layer staying "
                       "in place", _grow_from, 0.8,
                       params={"from": Param("string", "bottom", "the edge it grows from, or "
                                             "anchor: both ways from its anchor",
                                             enum=(*EDGES, "anchor"))}),
    "countUp": Preset("text: a number counts from one value to another, slowing at the end",
                      _count_up, 1.5, layer_types=("text",),
                      params={"from": Param("number", 0, "the first number"),
                              "to": Param("number", 100, "the last number"),
                              "decimals": Param("whole", 0, "digits after the point",
                                                minimum=0, maximum=6),
                              "separator": Param("text", ",", "between thousands ('' for "
                                                 "none)"),
                              "format": Param("text", "{}", "the text, {} standing for the "
                                              "number, e.g. '$ {} M'")}),
    "audioFadeIn": Preset("sound: fades in from silence to the layer's level, its amplitude "
                          "rising along a straight line", partial(_audio_fade, rising=True),
                          1.0, layer_types=SOUNDING),
    "audioFadeOut": Preset("sound: fades from the layer's level to silence, ending at its out "
                           "point", partial(_audio_fade, rising=False), 1.0, starts="out",
                           layer_types=SOUNDING),
    "crossfade": Preset("this layer fades out as another fades in over it, both at once",
                        _crossfade, 0.5, starts="with",
                        params={"to": Param("layer", None, "the layer that fades in (id, "
                                            "name or index)")}),
    "cascade": Preset("one preset on this layer and others, each starting stagger seconds "
                      "after the one before", _cascade, None,
                      params={"layers": Param("layers", None, "the other layers, in order"),
                              "preset": Param("preset", "fadeIn", "the preset each plays",
                                              enum=CASCADED),
                              "stagger": Param("number", 0.1, "seconds between starts",
                                               minimum=0),
                              "params": Param("object", {}, "the preset's own params")}),
}


def resolved_params(name: str, given: dict) -> dict:
    """Every param of preset `name`: the given ones checked, the others their defaults;
    ValueError with a sentence fragment for a param it does not take or a bad value."""
    preset = PRESETS[name]
    unknown = [key for key in given if key not in preset.params]
    if unknown:
        takes = ", ".join(preset.params) or "no params"
        raise ValueError(f"{name} does not take {', '.join(map(repr, unknown))}; it takes "
                         f"{takes}")
    params = {}
    for key, spec in preset.params.items():
        value = given.get(key, spec.default)
        params[key] = _checked(name, key, spec, value)
    return params


def _checked(name: str, key: str, spec: Param, value: Any) -> Any:
    if spec.type == "numberOrNull" and value is None:
        return None
    if spec.type == "text":
        if not isinstance(value, str):
            raise ValueError(f"{name}'s {key} is a text, got {value!r}")
        return value
    if spec.type == "layer":
        if not _is_ref(value):
            raise ValueError(f"{name} needs {key}: a layer's id, name or index, got {value!r}")
        return value
    if spec.type == "layers":
        if not (isinstance(value, list) and value and all(map(_is_ref, value))):
            raise ValueError(f"{name} needs {key}: a list of layers (ids, names or indexes), "
                             f"got {value!r}")
        return list(value)
    if spec.type == "object":
        if not isinstance(value, dict):
            raise ValueError(f"{name}'s {key} is an object, got {value!r}")
        return dict(value)
    if spec.type == "whole" and (not isinstance(value, int) or isinstance(value, bool)):
        raise ValueError(f"{name}'s {key} is a whole number, got {value!r}")
    if spec.type == "vec2":
        if not (isinstance(value, list) and len(value) == 2 and all(map(is_number, value))):
            raise ValueError(f"{name}'s {key} is [dx, dy], got {value!r}")
        return list(value)
    if spec.type in ("string", "preset"):
        if value not in spec.enum:
            raise ValueError(f"{name}'s {key} is one of {', '.join(spec.enum)}, got {value!r}")
        return value
    if not is_number(value):
        raise ValueError(f"{name}'s {key} is a number, got {value!r}")
    if spec.minimum is not None and (value < spec.minimum or
                                     (spec.above and value == spec.minimum)):
        bound = "above" if spec.above else "at least"
        raise ValueError(f"{name}'s {key} must be {bound} {spec.minimum:g}, got {value!r}")
    if spec.maximum is not None and value > spec.maximum:
        raise ValueError(f"{name}'s {key} must be at most {spec.maximum:g}, got {value!r}")
    return value


def _is_ref(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def listing() -> list[dict]:
    """preset.list's entries."""
    return [{"name": name, "description": preset.description,
             "params": {key: spec.listing() for key, spec in preset.params.items()},
             "duration": preset.duration, "starts": preset.starts,
             **({"layerTypes": list(preset.layer_types)} if preset.layer_types else {})}
            for name, preset in PRESETS.items()]
