"""The layout checks a worker runs: `layout_check`, what is wrong with a comp's layout at one
time, as findings a person (or an agent) can act on, and `frame_detail`, how much a frame
shows (for emptyFrame, which the supervisor finds over stretches of frames). The thresholds are
protocol/model/legibility.py's and the constants below.

For each layer asked about that shows at that time (enabled, in its time, not fully
transparent, not used as a matte), in its own comp (the comp checked, or a scene's comp: the
`holder`, at its own time):
- offCanvas: its content (workers/compositor/layer_boxes.py, through its transform) reaches
  past the comp's edges, and so do its visible pixels: the layer drawn alone, with a margin
  round the comp, where its alpha is at least ALPHA_VISIBLE (a glow's or a gradient's
  transparent edge is not off the canvas); a layer that covers the whole comp (a background)
  is not flagged.
- unsafe (text): it leaves the title-safe area (and maybe action-safe too).
- overflow (text): its lines do not fit its paragraph box.
- tooSmall (text): its size on screen (after fit, times its scale) is below readable.
- lowContrast (text): measured on pixels of the comp as shown (the scene's comp inside the
  comp checked). It is drawn three ways: whole, with the text's fill left out (what is behind
  the letters: the picture, and the text's own stroke and box), and the text's fill alone on
  transparency (where its letters are). Over the letters' solid pixels (at least
  CORE_COVERAGE of the fullest), each pixel's WCAG contrast between the whole frame (the text
  as seen) and the frame without the fill is taken, and the ratio that LOW_PERCENTILE of
  those pixels fall below is the text's: a caption half over a white box and half over a dark
  sky reads as its worse half. Not measured at a moment the supervisor chose while another
  layer where the text is fades (a fade to black, a plate fading in): on its way somewhere.
- crowded (text): its lines' ink overlaps another settled text's on screen (any comp's: the
  view's own, a scene's, a precomp's) by more than CROWDED_SHARE of the smaller line.

The supervisor (supervisor/render/layout_check.py) chooses the moments: where each layer has
settled (protocol/model/settling.py), or the times it was given, at which everything shown is
checked as it is.
"""

from __future__ import annotations

import numpy as np

from protocol.model.legibility import (LINEAR_8BIT, LUMINANCE_WEIGHTS, MIN_CONTRAST,
                                       readable_size, safe_rect)
from protocol.model.settling import changing_spans, fading_spans, within
from protocol.model.time_remap import source_time
from protocol.model.transforms import (IDENTITY, is_visible, layer_matrix, layer_opacity,
                                       mapped_rect, multiply)
from workers.compositor import render_frame
from workers.compositor.layer_boxes import content_rect, line_ink_rects
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
# Contrast is measured on frames of at most this side: glyph cores of readable text survive,
# and three renders per text layer stay cheap on a 4K comp.
CONTRAST_MAX_SIDE = 1920
CORE_COVERAGE = 0.8
LOW_PERCENTILE = 10
# Fewer solid glyph pixels than this (a hairline, a dot) measure nothing worth reporting.
MIN_CORE_PIXELS = 20
# A pixel is seen from this alpha on (10%): a glow's fading edge under it is not.
ALPHA_VISIBLE = 26
# A layer is drawn alone to find its visible pixels at most this large (its longer side).
VISIBLE_MAX_SIDE = 1024
# Two lines of text crowd each other when their ink shares more than this of the smaller one.
CROWDED_SHARE = 0.05
# A step of luminance (0..1) a neighbouring pixel must differ by to be an edge one sees: white
# text on a dark ground faded under about 15% steps by less, and is as good as gone.
EDGE_STEP = 0.15
# Precomps inside precomps searched for text that might crowd.
MAX_DEPTH = 4

_LINEAR = np.array(LINEAR_8BIT)
_WEIGHTS = np.array(LUMINANCE_WEIGHTS)


@task("layout_check")
def layout_check(job):
    """Payload: snapshot (+ document), comp and time (the comp drawn, and when), holder and
    holderTime (the comp whose layers are checked, and its own time then: the comp itself, or
    a scene's comp), scene (the scene's name, or null), layers ([{id, waiting}]: the holder's
    layers to check, and whether the moment is before the layer's first move or after its
    last, where one out of sight is not judged), whole (true: check them as they are at this moment, even moving; false: the
    supervisor chose it as a moment they rest, and contrast is left out while something over
    them fades), titleSafe, actionSafe (percent). Returns {findings: [{layer, layerId, time,
    kind, message, ratio?, scene?}]}."""
    spec = job.payload
    document = document_for(spec)
    view = _comp(document, spec["comp"])
    holder = _comp(document, spec.get("holder", spec["comp"]))
    time, at = spec["time"], spec.get("holderTime", spec["time"])
    waiting = {entry["id"]: entry["waiting"] for entry in spec["layers"]}
    asked = set(waiting)
    whole = spec.get("whole", True)
    findings, texts = [], []
    for layer in shown_layers(holder, at):
        if layer["id"] not in asked or layer.get("type") == "null":
            continue
        if waiting[layer["id"]] and out_of_sight(document, holder, layer, at):
            continue  # waiting off the comp to enter, or gone
        overflow = overflow_finding(layer, at, time)
        findings += [overflow] if overflow else []
        findings += geometry_findings(document, holder, layer, at, spec["titleSafe"],
                                      spec["actionSafe"], time)
        if layer["type"] == "text" and (whole or not faded_over(document, holder, layer, at)):
            texts.append(layer)
    crowded = crowded_findings(document, view, time, holder, asked)
    findings += crowded
    # Text on text reads badly whatever its contrast: that finding says it all.
    texts = [layer for layer in texts if layer["id"] not in
             {found["layerId"] for found in crowded} | {found["with"] for found in crowded}]
    whole_frame = None
    for layer in texts:
        job.cancel.check()
        if whole_frame is None:
            whole_frame = drawn_frame(document, view["id"], time, scale=contrast_scale(view))
        ratio = text_contrast(document, view, time, holder, layer, whole_frame)
        if ratio is not None and ratio < MIN_CONTRAST:
            findings.append(finding(layer, time, "lowContrast", (
                f"{_name(layer)} has a contrast of {ratio:.1f}:1 with what is drawn behind it "
                f"{WHEN} (WCAG asks at least {MIN_CONTRAST:g}:1 for text); make the "
                "text lighter or what is behind it darker (or the other way round), or put a "
                "box or shadow behind it."), ratio=round(ratio, 2)))
    if spec.get("scene"):
        for found in findings:
            found["scene"] = spec["scene"]
            found["message"] = f"In scene {spec['scene']!r}: {found['message']}"
    return {"findings": findings}


@task("frame_detail")
def frame_detail(job):
    """Payload: snapshot (+ document), comp, times, maxSide. Returns {details: [the share of
    the frame's pixels on a visible edge, per time]}: how much there is to see."""
    spec = job.payload
    document = document_for(spec)
    comp = _comp(document, spec["comp"])
    scale = min(1.0, spec["maxSide"] / max(comp["width"], comp["height"]))
    details = []
    for time in spec["times"]:
        job.cancel.check()
        details.append(visible_detail(drawn_frame(document, comp["id"], time, scale=scale)))
    return {"details": details}


def visible_detail(pixels: np.ndarray) -> float:
    """The share of pixels where the picture steps by more than EDGE_STEP of luminance to a
    neighbour: text, shapes and pictures have edges; a plain or graded background, or a
    frame everything has faded out of, has next to none."""
    luma = pixels[..., :3].astype(np.float32) @ (_WEIGHTS / 255.0).astype(np.float32)
    across = np.abs(np.diff(luma, axis=1))[:-1, :]
    down = np.abs(np.diff(luma, axis=0))[:, :-1]
    return float((np.maximum(across, down) > EDGE_STEP).mean()) if across.size else 0.0


def drawn_frame(document: dict, comp_id: str, time: float, **options) -> np.ndarray:
    """The comp drawn at `time` as 8-bit RGBA (a deep comp's frame dithered, as previews see
    it); TaskError with the sentence for a LUT that cannot be read."""
    try:
        return as_8_bits(render_frame(document, comp_id, time, footage=FOOTAGE,
                                      **options).pixels)
    except LutError as error:
        raise TaskError(str(error)) from None


def _comp(document: dict, comp_id: str) -> dict:
    comp = next((c for c in document["comps"] if c["id"] == comp_id), None)
    if comp is None:
        raise TaskError(f"the project has no comp {comp_id!r}")
    return comp


def shown_layers(comp: dict, time: float) -> list[dict]:
    """The layers drawn at `time`, top first: visible, not fully transparent, not a matte."""
    layers = comp.get("layers", [])
    mattes = {index - 1 for index, layer in enumerate(layers)
              if index > 0 and layer.get("trackMatte")}
    return [layer for index, layer in enumerate(layers)
            if index not in mattes and is_visible(layer, time) and layer_opacity(layer, time) > 0]


def out_of_sight(document: dict, comp: dict, layer: dict, time: float) -> bool:
    """Whether nothing of the layer can be seen: wholly off the comp, or scaled to nothing."""
    matrix = layer_matrix(comp, layer, time)
    if abs(matrix[0][0] * matrix[1][1] - matrix[0][1] * matrix[1][0]) < 1e-9:
        return True
    left, top, right, bottom = screen_rect(document, comp, layer, time)
    return right <= 0 or bottom <= 0 or left >= comp["width"] or top >= comp["height"]


def faded_over(document: dict, comp: dict, layer: dict, time: float) -> bool:
    """Whether another layer drawn where this one is has its opacity changing at `time` (a
    fade to black over the whole comp, a plate fading in behind a title): the contrast then
    is on its way somewhere, and is not held against the text."""
    reach = screen_rect(document, comp, layer, time)
    return any(other is not layer and is_visible(other, time)
               and within(fading_spans(other), time)
               and _overlap(reach, screen_rect(document, comp, other, time)) > 0
               for other in comp["layers"])


def screen_rect(document: dict, comp: dict, layer: dict, time: float) -> tuple:
    """Where the layer's content lands in its comp at `time`."""
    return mapped_rect(layer_matrix(comp, layer, time),
                       content_rect(document, comp, layer, time))


def _overlap(a: tuple, b: tuple) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * \
        max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def crowded_findings(document: dict, view: dict, time: float, holder: dict,
                     asked: set) -> list[dict]:
    """Text overlapping text on screen: each asked text layer of `holder` against every other
    text shown then, wherever it is (the view comp's own, a scene's, a precomp's), line by line
    of their ink."""
    texts = screen_texts(document, view, time)
    found = []
    for number, (comp, layer, lines) in enumerate(texts):
        if comp is not holder or layer["id"] not in asked:
            continue
        for other_comp, other, other_lines in texts:
            if other is layer:
                continue
            shared = max((_overlap(a, b) / max(1.0, min(_area(a), _area(b)))
                          for a in lines for b in other_lines), default=0.0)
            if shared > CROWDED_SHARE:
                found.append(finding(layer, time, "crowded", (
                    f"{_name(layer)} overlaps the text of layer {other['name']!r} {WHEN} "
                    f"(their lines share {shared:.0%} of the smaller line's area); move one, "
                    "make one smaller, or show them at different times."),
                    **{"with": other["id"]}))
    return found


def _area(rect: tuple) -> float:
    return max(0.0, rect[2] - rect[0]) * max(0.0, rect[3] - rect[1])


def screen_texts(document: dict, comp: dict, time: float, matrix=IDENTITY,
                 depth: int = 0) -> list[tuple]:
    """(comp, text layer, its lines' ink rects in the top comp) of every settled text drawn at
    `time`, into precomps (scenes included) as deep as they go."""
    found = []
    comps = {c["id"]: c for c in document["comps"]}
    for layer in shown_layers(comp, time):
        if within(changing_spans(comp, layer), time):
            continue  # moving or fading: on its way, not crowding anything
        placed = multiply(matrix, layer_matrix(comp, layer, time))
        if layer["type"] == "text":
            lines = [mapped_rect(placed, rect) for rect in line_ink_rects(layer["content"],
                                                                         time)]
            if lines:
                found.append((comp, layer, lines))
        elif layer["type"] == "precomp" and depth < MAX_DEPTH:
            source = comps.get(layer["content"]["source"])
            if source is not None:
                found += screen_texts(document, source,
                                      source_time(layer, time, source["duration"]), placed,
                                      depth + 1)
    return found


def overflow_finding(layer: dict, at: float, time: float) -> dict | None:
    overflow = box_overflow(layer["content"], at) if layer["type"] == "text" else None
    if overflow is None:
        return None
    return finding(layer, time, "overflow", (
        f"{_name(layer)} overflows its box {WHEN}: {overflow}; make the box bigger or "
        "the text shorter or smaller, or set fit: shrink."))


def geometry_findings(document: dict, comp: dict, layer: dict, at: float,
                      title_safe: float, action_safe: float, time: float) -> list[dict]:
    """offCanvas, unsafe and tooSmall for `layer` of `comp` at its time `at` (reported at
    `time`, the moment of the comp checked)."""
    found = []
    width, height = float(comp["width"]), float(comp["height"])
    text = layer["type"] == "text"
    if text:
        matrix = layer_matrix(comp, layer, at)
        scale = abs(matrix[0][0] * matrix[1][1] - matrix[0][1] * matrix[1][0]) ** 0.5
        shown = lay_out(layer["content"], at).size * scale
        least = readable_size(width, height)
        if shown < least - 0.5:
            found.append(finding(layer, time, "tooSmall", (
                f"{_name(layer)} is {shown:.0f} px tall on screen {WHEN}; text under "
                f"{least:.0f} px is hard to read on a {width:g} x {height:g} frame: make it at "
                f"least {least:.0f} px.")))
    left, top, right, bottom = content_rect(document, comp, layer, at)
    if right <= left and bottom <= top:
        return found  # nothing drawn (an empty text)
    extent = mapped_rect(layer_matrix(comp, layer, at), (left, top, right, bottom))
    off = past_edges(extent, (0.0, 0.0, width, height))
    covers = extent[0] <= 0 and extent[1] <= 0 and extent[2] >= width and extent[3] >= height
    wholly = extent[2] <= 0 or extent[0] >= width or extent[3] <= 0 or extent[1] >= height
    if off and not covers and not wholly:
        seen = visible_extent(document, comp, layer, at, extent)
        off = {} if seen is None else past_edges(seen, (0.0, 0.0, width, height))
        extent = seen or extent
    if off and not covers:
        found.append(finding(layer, time, "offCanvas", _off_canvas_message(
            layer, extent, off, width, height)))
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


def visible_extent(document: dict, comp: dict, layer: dict, at: float,
                   extent: tuple) -> tuple | None:
    """Where the layer's pixels of at least ALPHA_VISIBLE alpha land in its comp at `at` (None:
    nowhere): the layer drawn alone on transparency, in a copy of its comp widened on every
    side by as far as its content reaches past it."""
    width, height = float(comp["width"]), float(comp["height"])
    margin = min(max(width, height), max(0.0, -extent[0], -extent[1], extent[2] - width,
                                          extent[3] - height)) + 2.0
    chain, by_id, current = set(), {other["id"]: other for other in comp["layers"]}, layer
    while current is not None and current["id"] not in chain:
        chain.add(current["id"])
        current = by_id.get(current.get("parent"))
    layers = []
    for other in comp["layers"]:
        moved = dict(other, enabled=other is layer, trackMatte=None)
        if other["id"] in chain and other.get("parent") is None:
            moved["transform"] = dict(other["transform"], position=_shifted(
                other["transform"]["position"], margin))
        layers.append(moved)
    wide = dict(comp, layers=layers, width=width + 2 * margin, height=height + 2 * margin,
                scenes=[])
    changed = dict(document, comps=[wide if c is comp else c for c in document["comps"]])
    scale = min(1.0, VISIBLE_MAX_SIDE / max(wide["width"], wide["height"]))
    alpha = drawn_frame(changed, comp["id"], at, scale=scale, transparent=True)[..., 3]
    rows = np.flatnonzero((alpha >= ALPHA_VISIBLE).any(axis=1))
    columns = np.flatnonzero((alpha >= ALPHA_VISIBLE).any(axis=0))
    if not rows.size:
        return None
    return (columns[0] / scale - margin, rows[0] / scale - margin,
            (columns[-1] + 1) / scale - margin, (rows[-1] + 1) / scale - margin)


def _shifted(position, by: float):
    if isinstance(position, dict):
        return {"keys": [dict(key, value=[key["value"][0] + by, key["value"][1] + by])
                         for key in position["keys"]]}
    return [position[0] + by, position[1] + by]


def past_edges(extent: tuple, bounds: tuple) -> dict[str, float]:
    """How far (px) `extent` reaches past each edge of `bounds`, for the edges it passes."""
    left, top, right, bottom = extent
    reach = {"left": bounds[0] - left, "top": bounds[1] - top, "right": right - bounds[2],
             "bottom": bottom - bounds[3]}
    return {edge: amount for edge, amount in reach.items() if amount > EDGE_TOLERANCE}


def _off_canvas_message(layer, extent, off, width, height) -> str:
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


def text_contrast(document: dict, view: dict, time: float, holder: dict, layer: dict,
                  whole: np.ndarray) -> float | None:
    """The text's contrast with what is behind it, measured on pixels of `view` at `time` (see
    the module's docstring), `whole` being `view` drawn as it is; `holder` is the comp the
    layer is in (`view` itself, or a scene's comp inside it). None when too little of the
    text is solid to measure. What is behind a text's fill includes its own stroke and box:
    white captions outlined in black read against the outline, whatever the picture."""
    def drawn(content: dict, others: bool, transparent: bool = False) -> np.ndarray:
        def layers_of(comp: dict) -> list:
            if comp is holder:
                return [dict(other, content=content) if other is layer else
                        dict(other, enabled=other.get("enabled", True) and others)
                        for other in comp["layers"]]
            # The view, around a scene's comp: everything but the layers showing it.
            return [dict(other, enabled=other.get("enabled", True) and (
                others or other.get("content", {}).get("source") == holder["id"]))
                for other in comp["layers"]]

        changed = dict(document, comps=[dict(c, layers=layers_of(c))
                                        if c is holder or c is view else c
                                        for c in document["comps"]])
        return drawn_frame(changed, view["id"], time, scale=contrast_scale(view),
                           transparent=transparent)

    alone = dict(layer["content"], stroke=None, background=None)
    fill_alone = drawn(alone, others=False, transparent=True)
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
