"""How a comp's layers go onto an editorial timeline (docs/interchange.md, "Export").

Each layer takes one of four roles:

    clip      a video, image or audio layer that an editor shows as rendervisor draws it (the
              footage filling the frame, nothing over it): a clip with its source range
    nested    a plain precomp layer: a nested stack of its source comp's own timeline
    graphics  anything else that draws (solids, shapes, text, Lottie, footage with effects,
              masks, a matte, a blend mode, a parent, a moved or faded picture): what an
              editor cannot be told, so it is pre-rendered, or listed in warnings
    none      a layer that shows nothing (disabled, a null)

Consecutive graphics layers form one run, pre-rendered together as one clip, so a title over
its backing plate is one file. Both sides read this: the supervisor to pre-render the runs,
the worker that writes the timeline to place them. Pure: no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from protocol.model.keyframes import frame_count, is_animated, static_value
from protocol.model.layers import content_box
from protocol.model.transforms import layer_matrix, mapped_rect

# Footage kinds an editor's timeline cannot name as one media file: why, as a clause.
EDITORS_CANNOT_READ = {"vector": "its footage is an SVG, which editors do not read",
                       "sequence": "its footage is an image sequence, which a timeline names "
                                   "frame by frame"}
# How far (in comp pixels) a layer's picture may sit from the frame and still count as filling
# it: an editor's "fit" puts footage within half a pixel of where rendervisor does.
FILL_TOLERANCE = 0.5


@dataclass(frozen=True)
class Run:
    """Consecutive graphics layers of one comp, top first, and the comp frames they cover
    (`first` inclusive, `end` exclusive)."""
    comp: str
    layers: tuple[str, ...]
    first: int
    end: int

    @property
    def key(self) -> str:
        """The run's name in a pre-render's files and in the timeline's payload."""
        return f"{self.comp}:{self.layers[0]}"


def layer_role(doc: dict, comp: dict, layer: dict, nests: bool = True) -> str:
    """One of "clip", "nested", "graphics", "none" (the module's docstring says which); a
    precomp is graphics in a format that holds no nested timeline (`nests` false)."""
    if not layer.get("enabled", True) or layer["type"] == "null":
        return "none"
    if layer["type"] == "audio":
        return "clip"
    if layer["type"] not in ("video", "image", "precomp") or not _plain(doc, comp, layer):
        return "graphics"
    if _footage_kind(doc, layer) in EDITORS_CANNOT_READ:
        return "graphics"
    if layer["type"] == "precomp":
        return "nested" if nests else "graphics"
    return "clip"


def why_graphics(doc: dict, comp: dict, layer: dict) -> str:
    """Why a graphics layer is not a clip, as a clause: "a text layer", "it has effects"."""
    if layer["type"] not in ("video", "image", "precomp"):
        return f"it is a {layer['type']} layer"
    kind = _footage_kind(doc, layer)
    if kind in EDITORS_CANNOT_READ:
        return EDITORS_CANNOT_READ[kind]
    return next((reason for reason, holds in _plainness(doc, comp, layer) if not holds),
                "the format holds no nested timeline")


def graphics_runs(doc: dict, comp: dict, nests: bool = True) -> list[Run]:
    """The comp's runs of consecutive graphics layers, top first."""
    runs: list[Run] = []
    current: list[dict] = []
    for layer in comp["layers"] + [None]:
        if layer is not None and layer_role(doc, comp, layer, nests) == "graphics":
            current.append(layer)
            continue
        if current:
            first, end = frame_range(comp, current)
            if end > first:
                runs.append(Run(comp["id"], tuple(item["id"] for item in current), first, end))
            current = []
    return runs


def frame_range(comp: dict, layers: list[dict]) -> tuple[int, int]:
    """The comp frames (first, end exclusive) on which any of `layers` shows."""
    rate, last = comp["frameRate"], frame_count(comp["duration"], comp["frameRate"])
    first = min(max(0, math.ceil(layer["inPoint"] * rate - 1e-9)) for layer in layers)
    end = max(min(last, math.ceil(layer["outPoint"] * rate - 1e-9)) for layer in layers)
    return first, max(first, end)


def nested_comps(doc: dict, comp: dict, nests: bool = True) -> list[dict]:
    """`comp` and every comp shown through its nested (plain precomp) layers, each once."""
    comps = {c["id"]: c for c in doc["comps"]}
    found: list[dict] = []

    def visit(current: dict) -> None:
        if any(seen["id"] == current["id"] for seen in found):
            return
        found.append(current)
        for layer in current["layers"]:
            if layer_role(doc, current, layer, nests) == "nested" and \
                    layer["content"]["source"] in comps:
                visit(comps[layer["content"]["source"]])

    visit(comp)
    return found


def _footage_kind(doc: dict, layer: dict) -> str | None:
    footage_id = layer["content"].get("footage")
    return next((item["kind"] for item in doc["footage"] if item["id"] == footage_id), None)


def _plain(doc: dict, comp: dict, layer: dict) -> bool:
    return all(holds for _, holds in _plainness(doc, comp, layer))


def _plainness(doc: dict, comp: dict, layer: dict):
    """(reason it would not be plain, whether it is plain in that respect), cheapest first."""
    content = layer["content"]
    transform = layer["transform"]
    yield "it has effects", not any(effect.get("enabled", True) for effect in layer["effects"])
    yield "it has masks", not layer.get("masks")
    yield "it uses a track matte", layer.get("trackMatte") is None
    yield "another layer uses it as a track matte", not _is_matte(comp, layer)
    yield f"its blend mode is {layer.get('blendMode')}", layer.get("blendMode", "normal") == "normal"
    yield "it has a parent", layer.get("parent") is None
    yield "its time is remapped", static_value(content.get("timeRemap")) is None \
        and not is_animated(content.get("timeRemap"))
    yield "it plays backwards or frozen", float(content.get("speed", 100)) > 0
    yield "it loops", not content.get("loop")
    yield "it is animated", not any(is_animated(value) for value in transform.values())
    yield "its opacity is not 100%", float(static_value(transform["opacity"])) == 100
    yield "it is turned", float(static_value(transform["rotation"])) % 360 == 0 \
        and not layer.get("autoOrient")
    yield "it does not fill the frame as an editor would show it", _fills_frame(doc, comp, layer)


def _is_matte(comp: dict, layer: dict) -> bool:
    """Whether the layer under `layer` takes it as its track matte."""
    layers = comp["layers"]
    index = next(i for i, candidate in enumerate(layers) if candidate["id"] == layer["id"])
    return index + 1 < len(layers) and layers[index + 1].get("trackMatte") is not None


def _fills_frame(doc: dict, comp: dict, layer: dict) -> bool:
    """Whether the layer's picture is where an editor's "fit" puts it: scaled evenly, centered,
    touching the frame on two opposite sides."""
    width, height = content_box(doc, layer)
    if width <= 0 or height <= 0:
        return False
    left, top, right, bottom = mapped_rect(layer_matrix(comp, layer, layer["inPoint"]),
                                           (0.0, 0.0, width, height))
    fit = min(comp["width"] / width, comp["height"] / height)
    expected_w, expected_h = width * fit, height * fit
    expected_left = (comp["width"] - expected_w) / 2
    expected_top = (comp["height"] - expected_h) / 2
    return all(abs(a - b) <= FILL_TOLERANCE for a, b in (
        (left, expected_left), (top, expected_top), (right, expected_left + expected_w),
        (bottom, expected_top + expected_h)))
