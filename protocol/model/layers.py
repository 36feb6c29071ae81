"""Layers: their attributes, their transform, each type's content, and new-layer defaults.

The tables here are the one statement of what a layer may hold (docs/document.md, "Layers");
the schema validator checks loaded documents against them, `layer.add`/`layer.set` check
command params against them, and the compositor reads `content_box` so that a layer's anchor and
its drawing agree. Pure: no I/O.
"""

from __future__ import annotations

import copy
from typing import Any

from protocol.model.audio import AUDIO_DEFAULTS, SOUNDING_TYPES
from protocol.model.keyframes import static_value
from protocol.model.time_remap import TIME_CONTENT, TIMED_TYPES

LAYER_TYPES = ("solid", "shape", "text", "image", "video", "precomp", "null", "lottie", "audio")
# Layer types that show (or play) a footage item, named by their content's `footage`.
FOOTAGE_TYPES = ("image", "video", "lottie", "audio")
BLEND_MODES = ("normal", "add", "multiply", "screen", "overlay", "darken", "lighten",
               "difference")
TRACK_MATTES = ("alpha", "alphaInverted", "luma", "lumaInverted", None)
SHAPES = ("rect", "ellipse", "polygon", "star", "path")
TEXT_ALIGNS = ("left", "center", "right", "justify")
TEXT_DIRECTIONS = ("auto", "ltr", "rtl")
VERTICAL_ALIGNS = ("top", "middle", "bottom")
TEXT_FITS = ("none", "shrink")

# Attributes every layer has besides transform, content and effects: name -> value kind.
ATTRIBUTES: dict[str, Any] = {
    "name": "string",
    "enabled": "bool",
    "inPoint": "number",
    "outPoint": "number",
    "startTime": "number",
    "parent": "idOrNull",
    "blendMode": BLEND_MODES,
    "trackMatte": TRACK_MATTES,
}

# Attributes added after version 1 documents were written: name -> (value kind, default). A
# loaded layer that leaves one out gets the default, so older projects draw as they did.
LATER_ATTRIBUTES: dict[str, tuple[Any, Any]] = {
    "autoOrient": ("bool", False),  # turn along the position's motion path
}

# Transform properties: name -> value kind; all animatable. The spatial ones move along a
# motion path when their keys have spatialIn/spatialOut tangents (protocol/model/motion_paths.py).
SPATIAL = ("anchor", "position")
TRANSFORM: dict[str, str] = {
    "anchor": "vec2",
    "position": "vec2",
    "scale": "vec2",
    "rotation": "number",
    "opacity": "number",
}

# Content, by type: name -> (value kind, animatable). Structural choices (which shape, which
# footage, which font) are not animatable; numbers, colors and text are.
CONTENT: dict[str, dict[str, tuple[Any, bool]]] = {
    "solid": {
        "color": ("color", True),
        "width": ("positive", True),
        "height": ("positive", True),
    },
    "shape": {
        "shape": (SHAPES, False),
        "size": ("size", True),
        "fill": ("fill", True),
        "stroke": ("colorOrNull", True),
        "strokeWidth": ("nonNegative", True),
        "strokeJoin": (("miter", "round", "bevel"), False),
        "strokeCap": (("butt", "round", "square"), False),
        "cornerRadius": ("nonNegative", True),
        "points": ("points", False),
        "innerRadius": ("positive", True),
        "path": ("bezierPath", True),
        # The stroke's trim (percent of the outline's length; the offset in degrees, 360 being
        # once around) and dash pattern, for every kind of shape.
        "trimStart": ("number", True),
        "trimEnd": ("number", True),
        "trimOffset": ("number", True),
        "dashes": ("dashes", False),
        "dashOffset": ("number", True),
    },
    "text": {
        "text": ("string", True),
        "font": ("string", False),
        "fontFile": ("path", False),
        "weight": ("weight", True),
        "size": ("positive", True),
        "fill": ("color", True),
        "stroke": ("colorOrNull", True),
        "strokeWidth": ("nonNegative", True),
        "strokeOver": ("bool", False),
        "background": ("colorOrNull", True),  # a box behind each line (absent: none)
        "align": (TEXT_ALIGNS, False),
        "direction": (TEXT_DIRECTIONS, False),
        "box": ("sizeOrNull", True),
        "verticalAlign": (VERTICAL_ALIGNS, False),
        "fit": (TEXT_FITS, False),
        "tracking": ("number", True),
        "lineHeight": ("positive", True),
        "bold": ("bool", False),
        "italic": ("bool", False),
        "animators": ("textAnimators", False),
    },
    "image": {"footage": ("string", False)},
    "video": {"footage": ("string", False)},
    "precomp": {"source": ("string", False)},
    "null": {},
    "lottie": {"footage": ("string", False)},
    "audio": {"footage": ("string", False)},
}
for _timed in TIMED_TYPES:
    CONTENT[_timed].update({key: (kind, animatable)
                            for key, (kind, animatable, _) in TIME_CONTENT.items()})

# Content a new layer of the type must be given (the rest has defaults).
REQUIRED_CONTENT: dict[str, tuple[str, ...]] = {
    "solid": ("color",),
    "shape": ("shape", "size"),
    "text": ("text",),
    "image": ("footage",),
    "video": ("footage",),
    "precomp": ("source",),
    "null": (),
    "lottie": ("footage",),
    "audio": ("footage",),
}

_SHAPE_DEFAULTS = {
    "fill": [1.0, 1.0, 1.0, 1.0], "stroke": None, "strokeWidth": 0, "strokeJoin": "miter",
    "strokeCap": "butt", "trimStart": 0, "trimEnd": 100, "trimOffset": 0, "dashes": [],
    "dashOffset": 0,
}
# Which shape keys belong to which kind of shape, beyond the common ones above.
SHAPE_EXTRAS = {
    "rect": {"cornerRadius": 0},
    "ellipse": {},
    "polygon": {"points": 5},
    "star": {"points": 5, "innerRadius": 0.5},
    "path": {},  # its `path` has no default: layer.add needs its points
}
_TEXT_DEFAULTS = {
    "font": "sans-serif", "weight": 400, "size": 72, "fill": [1.0, 1.0, 1.0, 1.0],
    "stroke": None, "strokeWidth": 0, "strokeOver": False, "align": "center",
    "direction": "auto", "box": None, "verticalAlign": "middle", "fit": "none",
    "tracking": 0, "lineHeight": 1.2, "bold": False, "italic": False,
}

NULL_BOX = (100.0, 100.0)


def default_content(layer_type: str, given: dict, comp: dict) -> dict:
    """The content of a new layer: `given` (already checked) over the type's defaults."""
    if layer_type == "solid":
        content = {"color": None, "width": comp["width"], "height": comp["height"]}
    elif layer_type == "shape":
        content = {"shape": given.get("shape"), "size": None, **copy.deepcopy(_SHAPE_DEFAULTS),
                   **SHAPE_EXTRAS.get(given.get("shape"), {})}
    elif layer_type == "text":
        content = {"text": None, **copy.deepcopy(_TEXT_DEFAULTS)}
    else:
        content = {key: None for key in CONTENT[layer_type]}
        content.update(_time_defaults(layer_type))
    content.update(copy.deepcopy(given))
    return content


def _time_defaults(layer_type: str) -> dict:
    if layer_type not in TIMED_TYPES:
        return {}
    return {key: default for key, (_, _, default) in TIME_CONTENT.items()}


def missing_defaults(layer_type: str, content: dict) -> dict:
    """The defaults of content keys a loaded layer leaves out: keys added after its document
    was written (a shape's trim and dashes, a precomp's or video's time remapping), so older
    projects read as they always drew."""
    if layer_type in TIMED_TYPES:
        defaults = _time_defaults(layer_type)
    elif layer_type == "shape":
        defaults = {**_SHAPE_DEFAULTS, **SHAPE_EXTRAS.get(content.get("shape"), {})}
    else:
        return {}
    return {key: copy.deepcopy(value) for key, value in defaults.items() if key not in content}


def content_box(doc: dict, layer: dict) -> tuple[float, float]:
    """The size [w, h] of the layer's content box in its own coordinates: the box whose center
    is a new layer's anchor, and in which the compositor draws the content with (0, 0) at its
    top-left. Text without a paragraph `box` has none (its origin is its alignment point):
    (0, 0)."""
    content = layer.get("content", {})
    kind = layer["type"]
    if kind == "solid":
        return float(static_value(content["width"])), float(static_value(content["height"]))
    if kind == "shape":
        w, h = static_value(content["size"])
        return float(w), float(h)
    if kind in ("image", "video", "lottie"):
        footage = next((f for f in doc.get("footage", []) if f["id"] == content.get("footage")),
                       None)
        if footage is None:
            return NULL_BOX
        return float(footage["width"]), float(footage["height"])
    if kind == "precomp":
        source = next((c for c in doc.get("comps", []) if c["id"] == content.get("source")), None)
        if source is None:
            return NULL_BOX
        return float(source["width"]), float(source["height"])
    if kind == "text":
        box = static_value(content.get("box"))
        return (float(box[0]), float(box[1])) if box else (0.0, 0.0)
    return NULL_BOX


def new_layer(doc: dict, comp: dict, layer_id: str, name: str, layer_type: str,
              content: dict, attributes: dict | None = None,
              transform: dict | None = None) -> dict:
    """A new layer, centered: its anchor the center of its content box, its position the center
    of the comp; visible over the whole comp unless `attributes` say otherwise."""
    layer = {
        "id": layer_id,
        "name": name,
        "type": layer_type,
        "enabled": True,
        "inPoint": 0.0,
        "outPoint": float(comp["duration"]),
        "startTime": 0.0,
        "parent": None,
        "blendMode": "normal",
        "trackMatte": None,
        **{key: default for key, (_, default) in LATER_ATTRIBUTES.items()},
        "transform": {},
        "content": content,
        "effects": [],
        "masks": [],
        "markers": [],
    }
    if layer_type in SOUNDING_TYPES:
        layer["audio"] = dict(AUDIO_DEFAULTS)
    layer.update(attributes or {})
    w, h = content_box(doc, layer)
    layer["transform"] = {
        "anchor": [w / 2, h / 2],
        "position": [comp["width"] / 2, comp["height"] / 2],
        "scale": [100.0, 100.0],
        "rotation": 0.0,
        "opacity": 100.0,
    }
    layer["transform"].update(transform or {})
    return layer
