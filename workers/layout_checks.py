"""The `layout_check` task: what is wrong with a comp's layout at one time, as findings a person
(or an agent) can act on. The thresholds are protocol/model/legibility.py's.

For each layer asked about that shows at that time (enabled, in its time, not fully
transparent, not used as a matte):
- offCanvas: its content (workers/compositor/layer_boxes.py, through its transform) reaches
  past the comp's edges; a layer that covers the whole comp (a background) is not flagged.
- unsafe (text): it leaves the title-safe area (and maybe action-safe too).
- overflow (text): its lines do not fit its paragraph box.
- tooSmall (text): its size on screen (after fit, times its scale) is below readable.
- lowContrast (text): measured on pixels. The comp is drawn three ways: whole, with the text's
  fill left out (what is behind the letters: the picture, and the text's own stroke), and the
  text's fill alone on transparency (where its letters are). Over the letters' solid pixels
  (at least CORE_COVERAGE of the fullest), each pixel's WCAG contrast between the whole frame
  (the text as seen) and the frame without the fill is taken, and the ratio that
  LOW_PERCENTILE of those pixels fall below is the text's: a caption half over a white box
  and half over a dark sky reads as its worse half.

A layer asked about at its in or out point (the default moments there) comes with the stretch
of time from that moment to its midpoint; if its transform (or a parent's) or its opacity has
keys within it, the layer is arriving or leaving (sliding, fading, popping in or out, or
waiting off the comp to enter), and it is checked for overflow alone then; if a layer over it
fades within it (a fade to black over the whole comp), its contrast is not measured then.
"""

from __future__ import annotations

import numpy as np

from protocol.model.keyframes import is_animated
from protocol.model.legibility import (LINEAR_8BIT, LUMINANCE_WEIGHTS, MIN_CONTRAST,
                                       readable_size, safe_rect)
from protocol.model.transforms import is_visible, layer_matrix, layer_opacity, mapped_rect
from workers.compositor import render_frame
from workers.compositor.layer_boxes import content_rect
from workers.compositor.text_layout import box_overflow, lay_out
from workers.exporter.deep_pixels import as_8_bits
from workers.render_tasks import FOOTAGE
from workers.snapshots import document_for
from workers.compositor.cube_files import LutError
from workers.tasks import TaskError, task

# Where a message says when: the supervisor puts "at 0 s and 1.5 s" there once it has merged
# the moments that found the same thing.
WHEN = "{when}"
# A layer's edge may sit this far past the comp's (rounding, anti-aliasing) without a finding.
EDGE_TOLERANCE = 0.5
# Transform properties whose keys move a layer's content, or fade it.
CHANGING = ("anchor", "position", "scale", "rotation", "opacity")
# Contrast is measured on frames of at most this side: glyph cores of readable text survive,
# and three renders per text layer stay cheap on a 4K comp.
CONTRAST_MAX_SIDE = 1920
CORE_COVERAGE = 0.8
LOW_PERCENTILE = 10
# Fewer solid glyph pixels than this (a hairline, a dot) measure nothing worth reporting.
MIN_CORE_PIXELS = 20

_LINEAR = np.array(LINEAR_8BIT)
_WEIGHTS = np.array(LUMINANCE_WEIGHTS)


@task("layout_check")
def layout_check(job):
    """Payload: snapshot (+ document), comp, time, layers ([{id, rest}]: the layers to check,
    and the [start, end] the layer must be still over to be checked whole, or null),
    titleSafe, actionSafe (percent). Returns {findings: [{layer, layerId, time, kind, message,
    ratio?}]}."""
    spec = job.payload
    document = document_for(spec)
    comp = next((c for c in document["comps"] if c["id"] == spec["comp"]), None)
    if comp is None:
        raise TaskError(f"the project has no comp {spec['comp']!r}")
    time = spec["time"]
    asked = {entry["id"]: entry["rest"] for entry in spec["layers"]}
    findings, texts = [], []
    for layer in shown_layers(comp, time):
        if layer["id"] not in asked or layer.get("type") == "null":
            continue
        overflow = overflow_finding(layer, time)
        findings += [overflow] if overflow else []
        rest = asked[layer["id"]]
        if rest is not None and changes_within(comp, layer, *rest):
            continue
        findings += geometry_findings(document, comp, layer, time, spec["titleSafe"],
                                      spec["actionSafe"])
        if layer["type"] == "text" and not (rest is not None and faded_over(comp, layer, *rest)):
            texts.append(layer)
    whole = None
    for layer in texts:
        job.cancel.check()
        if whole is None:
            try:
                whole = as_8_bits(render_frame(document, comp["id"], time, footage=FOOTAGE,
                                               scale=contrast_scale(comp)).pixels)
            except LutError as error:
                raise TaskError(str(error)) from None
        ratio = text_contrast(document, comp, layer, time, whole)
        if ratio is not None and ratio < MIN_CONTRAST:
            findings.append(finding(layer, time, "lowContrast", (
                f"{_name(layer)} has a contrast of {ratio:.1f}:1 with what is drawn behind it "
                f"{WHEN} (WCAG asks at least {MIN_CONTRAST:g}:1 for text); make the "
                "text lighter or what is behind it darker (or the other way round), or put a "
                "box or shadow behind it."), ratio=round(ratio, 2)))
    return {"findings": findings}


def shown_layers(comp: dict, time: float) -> list[dict]:
    """The layers drawn at `time`, top first: visible, not fully transparent, not a matte."""
    layers = comp.get("layers", [])
    mattes = {index - 1 for index, layer in enumerate(layers)
              if index > 0 and layer.get("trackMatte")}
    return [layer for index, layer in enumerate(layers)
            if index not in mattes and is_visible(layer, time) and layer_opacity(layer, time) > 0]


def changes_within(comp: dict, layer: dict, start: float, end: float) -> bool:
    """Whether the layer's transform (or a parent's) or its opacity is keyed to change at some
    time from `start` to `end`: its keys span reaches into that stretch."""
    by_id = {candidate["id"]: candidate for candidate in comp["layers"]}
    chain, current = [], layer
    while current is not None and current not in chain:
        chain.append(current)
        current = by_id.get(current.get("parent"))
    for member in chain:
        for key in CHANGING:
            if key == "opacity" and member is not layer:
                continue  # a parent's opacity is not inherited
            if keyed_within(member["transform"][key], start, end):
                return True
    return False


def faded_over(comp: dict, layer: dict, start: float, end: float) -> bool:
    """Whether a layer drawn over this one has its opacity keyed to change from `start` to
    `end`: a fade to (or from) black over the whole comp dims the text under it on purpose."""
    above = comp["layers"][:comp["layers"].index(layer)]
    return any(keyed_within(over["transform"]["opacity"], start, end) for over in above)


def keyed_within(prop: dict, start: float, end: float) -> bool:
    """Whether an animated property's keys span reaches into the stretch `start` to `end`."""
    return is_animated(prop) and len(prop["keys"]) > 1 and \
        prop["keys"][0]["time"] <= end and prop["keys"][-1]["time"] >= start


def overflow_finding(layer: dict, time: float) -> dict | None:
    overflow = box_overflow(layer["content"], time) if layer["type"] == "text" else None
    if overflow is None:
        return None
    return finding(layer, time, "overflow", (
        f"{_name(layer)} overflows its box {WHEN}: {overflow}; make the box bigger or "
        "the text shorter or smaller, or set fit: shrink."))


def geometry_findings(document: dict, comp: dict, layer: dict, time: float,
                      title_safe: float, action_safe: float) -> list[dict]:
    found = []
    width, height = float(comp["width"]), float(comp["height"])
    text = layer["type"] == "text"
    if text:
        matrix = layer_matrix(comp, layer, time)
        scale = abs(matrix[0][0] * matrix[1][1] - matrix[0][1] * matrix[1][0]) ** 0.5
        shown = lay_out(layer["content"], time).size * scale
        least = readable_size(width, height)
        if shown < least - 0.5:
            found.append(finding(layer, time, "tooSmall", (
                f"{_name(layer)} is {shown:.0f} px tall on screen {WHEN}; text under "
                f"{least:.0f} px is hard to read on a {width:g} x {height:g} frame: make it at "
                f"least {least:.0f} px.")))
    left, top, right, bottom = content_rect(document, comp, layer, time)
    if right <= left and bottom <= top:
        return found  # nothing drawn (an empty text)
    extent = mapped_rect(layer_matrix(comp, layer, time), (left, top, right, bottom))
    off = past_edges(extent, (0.0, 0.0, width, height))
    covers = extent[0] <= 0 and extent[1] <= 0 and extent[2] >= width and extent[3] >= height
    if off and not covers:
        found.append(finding(layer, time, "offCanvas", _off_canvas_message(
            layer, time, extent, off, width, height)))
    elif text:
        title = safe_rect(width, height, title_safe)
        past = past_edges(extent, title)
        if past:
            also = "" if not past_edges(extent, safe_rect(width, height, action_safe)) else (
                f", and outside action-safe ({action_safe:g}%) too")
            found.append(finding(layer, time, "unsafe", (
                f"{_name(layer)} is outside the title-safe area (the middle {title_safe:g}%: "
                f"x {title[0]:g}..{title[2]:g}, y {title[1]:g}..{title[3]:g}) {WHEN}: "
                f"{_edges(past)}{also}; move it in or make it smaller.")))
    return found


def past_edges(extent: tuple, bounds: tuple) -> dict[str, float]:
    """How far (px) `extent` reaches past each edge of `bounds`, for the edges it passes."""
    left, top, right, bottom = extent
    reach = {"left": bounds[0] - left, "top": bounds[1] - top, "right": right - bounds[2],
             "bottom": bottom - bounds[3]}
    return {edge: amount for edge, amount in reach.items() if amount > EDGE_TOLERANCE}


def _off_canvas_message(layer, time, extent, off, width, height) -> str:
    spans = (f"x {extent[0]:.0f}..{extent[2]:.0f}, y {extent[1]:.0f}..{extent[3]:.0f} of a "
             f"{width:g} x {height:g} comp")
    if extent[2] <= 0 or extent[0] >= width or extent[3] <= 0 or extent[1] >= height:
        return (f"{_name(layer)} is wholly outside the comp {WHEN} ({spans}), so it is "
                "not seen; move it in.")
    return (f"{_name(layer)} runs off the comp {WHEN}: {_edges(off)} ({spans}); move "
            "it in or make it smaller.")


def _edges(past: dict[str, float]) -> str:
    return ", ".join(f"{amount:.0f} px past the {edge} edge" for edge, amount in past.items())


def contrast_scale(comp: dict) -> float:
    return min(1.0, CONTRAST_MAX_SIDE / max(comp["width"], comp["height"]))


def text_contrast(document: dict, comp: dict, layer: dict, time: float,
                  whole: np.ndarray) -> float | None:
    """The text's contrast with what is behind it, measured on pixels (see the module's
    docstring), `whole` being the comp drawn as it is; None when too little of the text is
    solid to measure. What is behind a text's fill includes its own stroke: white captions
    outlined in black read against the outline, whatever the picture."""
    def drawn(content: dict, others: bool, transparent: bool = False) -> np.ndarray:
        layers = [dict(other, content=content) if other is layer else
                  dict(other, enabled=other.get("enabled", True) and others)
                  for other in comp["layers"]]
        changed = dict(document, comps=[dict(c, layers=layers) if c is comp else c
                                        for c in document["comps"]])
        return as_8_bits(render_frame(changed, comp["id"], time, footage=FOOTAGE,
                                      scale=contrast_scale(comp),
                                      transparent=transparent).pixels)

    fill_alone = drawn(dict(layer["content"], stroke=None), others=False, transparent=True)
    coverage = fill_alone[..., 3]
    if not coverage.any():
        return None
    core = coverage >= CORE_COVERAGE * coverage.max()
    if core.sum() < MIN_CORE_PIXELS:
        return None
    seen = _luminance(whole[core])
    behind = _luminance(drawn(dict(layer["content"], fill=[0, 0, 0, 0]), others=True)[core])
    ratios = (np.maximum(seen, behind) + 0.05) / (np.minimum(seen, behind) + 0.05)
    return float(np.percentile(ratios, LOW_PERCENTILE))


def _luminance(pixels: np.ndarray) -> np.ndarray:
    return _LINEAR[pixels[:, :3]] @ _WEIGHTS


def finding(layer: dict, time: float, kind: str, message: str, **extra) -> dict:
    return {"layer": layer["name"], "layerId": layer["id"], "time": round(time, 6),
            "kind": kind, "message": message, **extra}



def _name(layer: dict) -> str:
    return f"Layer {layer['name']!r}"


