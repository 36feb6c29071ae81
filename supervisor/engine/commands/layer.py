"""Layer commands: add, set, get, remove, duplicate, move, list.

What a layer may hold is protocol/model/layers.py's tables; this module only maps command params
onto them. layer.add and layer.set share `apply_params`, so a value one accepts the other accepts.
"""

from __future__ import annotations

import copy

from protocol.model.bezier import PATH_KEYS
from protocol.model.document import (DocumentError, allocate_id, check_property, numbered_name,
                                     precomp_cycle, renew_ids, unique_name)
from protocol.model.keyframes import is_animated, static_value
from protocol.model.layer_timing import nothing_shown, slide
from protocol.model.layers import (ATTRIBUTES, BLEND_MODES, CONTENT, FOOTAGE_TYPES,
                                   LATER_ATTRIBUTES, LAYER_TYPES, REQUIRED_CONTENT, SHAPE_EXTRAS,
                                   TRANSFORM, content_box, default_content, new_layer)
from protocol.model.numbers import is_number
from protocol.model.reparenting import keep_on_screen
from protocol.model.values import check_value
from supervisor.engine.commands.footage import article, check_shown_by, import_footage
from supervisor.engine.commands.lookup import find_comp, find_footage, find_layer
from supervisor.engine.commands.overview import layer_summary
from supervisor.engine.commands.registry import (COLOR, COLOR_FORMAT, COMP_REF, FILL, LAYER_REF,
                                                 READ_PATH, VEC2, command, described, formatted,
                                                 probes_given)
from supervisor.engine.font_files import check_font_file
from supervisor.engine.font_warnings import font_warnings
from supervisor.errors import CommandError
from workers.compositor.bundled_families import BUNDLED_FAMILIES

ATTRIBUTE_PARAMS = {
    "name": {"type": "string"},
    "enabled": {"type": "boolean", "description": "false hides the layer"},
    "inPoint": {"type": "number", "description": "comp time (s) the layer appears"},
    "outPoint": {"type": "number", "description": "comp time (s) the layer is gone (exclusive)"},
    "startTime": {"type": "number", "description": "comp time (s) of the layer's own time 0 "
                  "(where a video or precomp starts)"},
    "parent": {"type": ["string", "integer", "null"], "description": "a layer of the same comp "
               "(id, name or index) whose transform this one follows, or null"},
    "blendMode": {"type": "string", "enum": list(BLEND_MODES)},
    "trackMatte": {"type": ["string", "null"], "enum": ["alpha", "alphaInverted", "luma",
                                                        "lumaInverted", None],
                   "description": "use the layer above as this layer's matte"},
    "autoOrient": {"type": "boolean", "description": "turn the layer along its position's "
                   "motion path (added to its rotation)"},
}
KEEP_TRANSFORM = {"type": "boolean", "description": "with parent: true (default) converts the "
                  "layer's position, rotation and scale into the new parent's space at the "
                  "layer's in point, so it stays where it is on screen (After Effects' parent "
                  "setter); false keeps the values, and the layer jumps"}
TRANSFORM_PARAMS = {
    "anchor": described(VEC2, "[x, y] in the layer's own coordinates (default: the center of its "
                              "content)"),
    "position": described(VEC2, "[x, y] in the comp (default: the comp's center)"),
    "scale": described(VEC2, "[sx, sy] in percent"),
    "rotation": {"type": "number", "description": "degrees, clockwise"},
    "opacity": {"type": "number", "description": "percent"},
}
CONTENT_PARAMS = {
    "color": formatted(COLOR, "solid: its color"),
    "width": {"type": "number", "description": "solid: width (default the comp's)"},
    "height": {"type": "number", "description": "solid: height (default the comp's)"},
    "shape": {"type": "string", "enum": ["rect", "ellipse", "polygon", "star", "path"],
              "description": "shape: which shape"},
    "size": {"type": ["array", "number"], "description": "shape: [w, h]; text: font size in px"},
    "fill": formatted(FILL, "shape: a color, a gradient or null; text: a color (no gradient)"),
    "stroke": {"type": ["array", "string", "null"],
               "description": f"shape, text: the stroke's color, or null for none; "
                              f"{COLOR_FORMAT}"},
    "strokeWidth": {"type": "number", "description": "shape, text: stroke width in px"},
    "strokeJoin": {"type": "string", "enum": ["miter", "round", "bevel"]},
    "strokeCap": {"type": "string", "enum": ["butt", "round", "square"]},
    "cornerRadius": {"type": "number", "description": "rect: corner radius"},
    "points": {"type": ["integer", "array"], "description": "polygon, star: corner count; path: "
               "a list of [x, y] in the content box"},
    "inTangents": {"type": "array", "description": "path: one [dx, dy] per point, relative to "
                   "it, the handle the curve arrives along (default all [0, 0]: straight)"},
    "outTangents": {"type": "array", "description": "path: one [dx, dy] per point, relative to "
                    "it, the handle the curve leaves along"},
    "innerRadius": {"type": "number", "description": "star: inner radius over outer (0.5)"},
    "closed": {"type": "boolean", "description": "path: closed (default true)"},
    "trimStart": {"type": "number", "description": "shape: where the stroke starts, percent of "
                  "the outline's length (0)"},
    "trimEnd": {"type": "number", "description": "shape: where the stroke ends, percent (100)"},
    "trimOffset": {"type": "number", "description": "shape: turns the trimmed stroke along "
                   "the outline, degrees (360 = once around)"},
    "dashes": {"type": "array", "description": "shape: the stroke's dash pattern [on, off, ...] "
               "in px; [] for a solid stroke"},
    "dashOffset": {"type": "number", "description": "shape: shifts the dash pattern along the "
                   "stroke, px"},
    "text": {"type": "string", "description": "text: the text; lines separated by \\n"},
    "font": {"type": "string", "description": "text: a font family: bundled ones draw the "
             "same everywhere (" + ", ".join(BUNDLED_FAMILIES) + ", and Noto Sans for "
             "other scripts); font.list lists them and this machine's; any other name draws in "
             "Roboto (default sans-serif), with a warning"},
    "fontFile": formatted(READ_PATH, "text: a font file (.ttf, .otf, .ttc, .woff, .woff2) to "
                                     "draw with instead of font"),
    "weight": {"type": "number", "description": "text: 100 to 900 (400 regular, 700 bold); "
               "a variable font is drawn at exactly that weight"},
    "strokeOver": {"type": "boolean", "description": "text: the stroke over the fill "
                   "(default false: under it)"},
    "background": {"type": ["array", "string", "null"],
                   "description": f"text: a box of this color behind each line (0.3 em past "
                                  f"its ends, a line high), as captions have; null for none; "
                                  f"{COLOR_FORMAT}"},
    "align": {"type": "string", "enum": ["left", "center", "right", "justify"],
              "description": "text: which edge of the lines sits on the layer's position "
                             "(without a box the position is this alignment point; center "
                             "default)"},
    "direction": {"type": "string", "enum": ["auto", "ltr", "rtl"],
                  "description": "text: the base direction (auto: from the first letter)"},
    "box": {"type": ["array", "null"], "description": "text: a paragraph box [w, h]: lines "
            "wrap at w, the anchor defaults to its center; null for none"},
    "verticalAlign": {"type": "string", "enum": ["top", "middle", "bottom"],
                      "description": "text: where the lines sit in the box (or on the anchor)"},
    "fit": {"type": "string", "enum": ["none", "shrink"],
            "description": "text: shrink the size until the text fits its box"},
    "tracking": {"type": "number", "description": "text: extra px between characters"},
    "lineHeight": {"type": "number", "description": "text: line height as a multiple of size"},
    "bold": {"type": "boolean"},
    "italic": {"type": "boolean"},
    "footage": {"type": "string", "description": "image, video, lottie, audio: a footage id or "
                "name"},
    "source": {"type": "string", "description": "precomp: the comp it shows (id or name)"},
    "timeRemap": {"type": ["number", "null"], "description": "precomp, video, audio: the "
                  "source's time in seconds to show (animate with prop.addKey to freeze, slow "
                  "or reverse); null for none"},
    "speed": {"type": "number", "description": "precomp, video, audio: percent of real time "
              "the source plays at (100; negative plays backwards; sound changes pitch with "
              "it)"},
    "loop": {"type": "boolean", "description": "precomp, video, audio: repeat the source from "
             "its start at its end"},
}
_SHAPE_COMMON = ("shape", "size", "fill", "stroke", "strokeWidth", "strokeJoin", "strokeCap",
                 "trimStart", "trimEnd", "trimOffset", "dashes", "dashOffset")


@command("layer.add", "Add a layer",
         "Add a layer of a type: solid {color, width?, height?}, shape {shape, size, fill?, "
         "stroke?, strokeWidth?, cornerRadius?, points?, ...}, text {text, font? or fontFile?, "
         "size?, weight?, fill?, stroke?, align?, box?, fit?, direction?, ...}, image {footage, "
         "or path to import: a still or an SVG}, video {footage or path: a clip, or an image "
         "sequence, which plays on a video layer}, lottie {footage or path: a Lottie "
         "animation}, audio {footage or path: a sound file, or a video's sound}, precomp "
         "{source}, null. Audio, video and precomp layers are heard (prop.set audio.level in dB, "
         "audio.muted). The new layer is centered (anchor at its content's center, position "
         "at the comp's center) and goes on top (index 1, drawn last) unless index says "
         "otherwise. Coordinates are comp pixels, (0, 0) the top-left, "
         "y down. A text without a box has its anchor [0, 0] at its alignment point (align, "
         "verticalAlign: the middle of its lines by default), so position places that point. "
         "Returns {layer} (its id), and warnings when a text's font is not installed or a "
         "character has no font, or when footage has parts that will not draw as meant. "
         'Example: {"comp": "Main", "type": "shape", "shape": "rect", "size": [400, 120], '
         '"cornerRadius": 16, "fill": "#1e90ff", "position": [640, 600]}.',
         {"comp": COMP_REF, "type": {"type": "string", "enum": list(LAYER_TYPES)},
          **ATTRIBUTE_PARAMS, **TRANSFORM_PARAMS, **CONTENT_PARAMS,
          "path": formatted(READ_PATH, "image, video, lottie, audio: a file to import as "
                                       "footage first"),
          "index": {"type": "integer", "description": "1-based position (1, the default, is "
                    "the top)"}},
         required=("comp", "type"), waits_on=probes_given("path", "fontFile"))
def layer_add(engine, params, work):
    doc = engine.doc
    comp = find_comp(doc, params["comp"])
    kind = params["type"]
    params = dict(params)
    warnings: list[str] = []
    if "path" in params:
        if kind not in FOOTAGE_TYPES:
            raise CommandError(f"path is for image, video, lottie and audio layers; a {kind} "
                               "layer does not take one.")
        if "footage" in params:
            raise CommandError("give footage or path, not both.")
        footage, _, warnings = import_footage(engine, params.pop("path"), work=work)
        params["footage"] = footage["id"]
    given = _content_params(doc, kind, params, creating=True)
    _check_font_file(engine, given, work)
    content = default_content(kind, given, comp)
    index = params.get("index", 1)
    if not 1 <= index <= len(comp["layers"]) + 1:
        raise CommandError(f"index {index} is outside 1..{len(comp['layers']) + 1} for comp "
                           f"{comp['name']!r}.")
    name = params.get("name") or _default_name(doc, comp, kind, content)
    layer = new_layer(doc, comp, allocate_id(doc, "layer"), name, kind, content,
                      attributes=_video_timing(doc, comp, kind, content,
                                               params.get("startTime", 0.0)))
    comp["layers"].insert(index - 1, layer)
    apply_params(doc, comp, layer, params)
    if kind == "precomp" and precomp_cycle(doc, comp["id"]):
        raise CommandError(f"comp {comp['name']!r} cannot show itself, directly or through "
                           "other precomps; pick another source.")
    result = {"layer": layer["id"], "name": layer["name"], "index": index}
    if warnings:
        result["warnings"] = warnings
    return _with_warnings(engine, result, layer)


@command("layer.set", "Change a layer",
         "Change a layer's attributes (name, enabled, inPoint, outPoint, startTime, parent, "
         "blendMode, trackMatte, autoOrient), its transform as static values (anchor, "
         "position, scale, rotation, opacity: an animated one loses its keys, and the result's "
         "warnings say so; use prop.addKey to animate), or its type's own params (color, "
         "text, size, fill, ...). startTime slides the layer: its in and out points, keys and "
         "markers move with it (inPoint and outPoint given in the same call are set after the "
         "slide). A change that leaves the layer nothing to show or play is made and said in "
         "warnings. A new parent keeps the layer where it is on screen (its transform is "
         "converted into the parent's space); keepTransform: false keeps the values and lets "
         "it jump.",
         {"comp": COMP_REF, "layer": LAYER_REF, **ATTRIBUTE_PARAMS, **TRANSFORM_PARAMS,
          **CONTENT_PARAMS, "keepTransform": KEEP_TRANSFORM},
         required=("comp", "layer"), waits_on=probes_given("fontFile"))
def layer_set(engine, params, work):
    doc = engine.doc
    comp = find_comp(doc, params["comp"])
    layer = find_layer(comp, params["layer"])
    given = _content_params(doc, layer["type"], params, creating=False, layer=layer)
    _check_font_file(engine, given, work)
    timed = [key for key in ("inPoint", "outPoint", "startTime") if key in params]
    scene = _scene_of(comp, layer)
    if timed and scene is not None:
        raise CommandError(f"layer {layer['name']!r} draws scene {scene} of comp "
                           f"{comp['name']!r}, whose time it follows; change the scene with "
                           f"scene.set {{duration, index}} instead of {', '.join(timed)}.")
    warnings = _replaced_keys(layer, params, given)
    if "startTime" in params:
        slide(layer, _checked_attribute("startTime", params["startTime"]) - layer["startTime"])
    if "shape" in given and given["shape"] != layer["content"]["shape"]:
        _reshape(layer["content"], given["shape"])
    box_before = content_box(doc, layer)
    layer["content"].update(given)
    if "anchor" not in params and layer["type"] == "text":
        _follow_box(doc, layer, box_before)
    if "parent" in params and params.get("keepTransform", True):
        parent = _parent_id(comp, layer, params["parent"])
        if parent != layer["parent"]:
            keep_on_screen(comp, layer, parent)  # before the call's own transform values
    apply_params(doc, comp, layer, params)
    if layer["type"] == "precomp" and precomp_cycle(doc, comp["id"]):
        raise CommandError(f"comp {comp['name']!r} cannot show itself, directly or through "
                           "other precomps; pick another source.")
    empty = nothing_shown(comp, layer, _source_seconds(doc, layer))
    warnings += [empty] if empty else []
    result = layer_summary(comp, layer)
    if warnings:
        result["warnings"] = warnings
    return _with_warnings(engine, result, layer)


@command("layer.get", "Read a layer",
         "The layer's whole stored form: attributes, transform and content (animated properties "
         "with their keys), effects.",
         {"comp": COMP_REF, "layer": LAYER_REF}, required=("comp", "layer"), kind="read")
def layer_get(engine, params, work):
    comp = find_comp(engine.doc, params["comp"])
    layer = find_layer(comp, params["layer"])
    return {"index": comp["layers"].index(layer) + 1, **copy.deepcopy(layer)}


@command("layer.remove", "Remove a layer",
         "Remove a layer; layers parented to it lose their parent.",
         {"comp": COMP_REF, "layer": LAYER_REF}, required=("comp", "layer"))
def layer_remove(engine, params, work):
    comp = find_comp(engine.doc, params["comp"])
    layer = find_layer(comp, params["layer"])
    scene = _scene_of(comp, layer)
    if scene is not None:
        raise CommandError(f"layer {layer['name']!r} draws scene {scene} of comp "
                           f"{comp['name']!r}; remove it with scene.remove, which moves the "
                           "scenes after it up.")
    comp["layers"].remove(layer)
    orphans = []
    for other in comp["layers"]:
        if other["parent"] == layer["id"]:
            other["parent"] = None
            orphans.append(other["id"])
    return {"removed": layer["id"], "name": layer["name"], "unparented": orphans}


@command("layer.duplicate", "Duplicate a layer",
         "Copy a layer (keys, effects and all; new ids) just above the original; returns {layer}.",
         {"comp": COMP_REF, "layer": LAYER_REF, "name": {"type": "string"}},
         required=("comp", "layer"))
def layer_duplicate(engine, params, work):
    doc = engine.doc
    comp = find_comp(doc, params["comp"])
    original = find_layer(comp, params["layer"])
    duplicate = copy.deepcopy(original)
    duplicate["id"] = allocate_id(doc, "layer")
    renew_ids(doc, duplicate)
    duplicate["name"] = params.get("name") or unique_name(
        original["name"], {layer["name"] for layer in comp["layers"]})
    index = comp["layers"].index(original)
    comp["layers"].insert(index, duplicate)
    return {"layer": duplicate["id"], "name": duplicate["name"], "index": index + 1}


@command("layer.move", "Move a layer in the stack",
         "Move a layer to a 1-based index (1 is the top, drawn last).",
         {"comp": COMP_REF, "layer": LAYER_REF,
          "index": {"type": "integer", "description": "the new 1-based index"}},
         required=("comp", "layer", "index"))
def layer_move(engine, params, work):
    comp = find_comp(engine.doc, params["comp"])
    layer = find_layer(comp, params["layer"])
    index = params["index"]
    if not 1 <= index <= len(comp["layers"]):
        raise CommandError(f"index {index} is outside 1..{len(comp['layers'])}, the layers of "
                           f"comp {comp['name']!r}.")
    comp["layers"].remove(layer)
    comp["layers"].insert(index - 1, layer)
    return {"layer": layer["id"], "index": index,
            "order": [other["name"] for other in comp["layers"]]}


@command("layer.list", "List layers",
         "A comp's layers from the top (index 1) down, with their type, timing, transform and "
         "content; animated properties show their first value and key count.",
         {"comp": COMP_REF}, required=("comp",), kind="read")
def layer_list(engine, params, work):
    comp = find_comp(engine.doc, params["comp"])
    return {"comp": comp["id"], "layers": [layer_summary(comp, layer)
                                           for layer in comp["layers"]]}


# -- shared by add and set ---------------------------------------------------------------------


def _content_params(doc: dict, kind: str, params: dict, creating: bool,
                    layer: dict | None = None) -> dict:
    """The content params in `params`, checked for a layer of type `kind`."""
    spec = CONTENT[kind]
    given = {key: params[key] for key in CONTENT_PARAMS if key in params}
    allowed = set(spec)
    what = article(kind) + " layer"
    if kind == "shape":
        shape = given.get("shape") or (layer["content"]["shape"] if layer else None)
        allowed = set(_SHAPE_COMMON) | set(SHAPE_EXTRAS.get(shape, {}))
        if shape == "path":
            allowed |= set(PATH_KEYS)
        if shape:
            what = article(shape) + " shape"
    wrong = [key for key in given if key not in allowed]
    if wrong:
        takes = ", ".join(sorted(allowed)) or "no content params"
        raise CommandError(f"{what} does not take {', '.join(map(repr, wrong))}; it takes "
                           f"{takes}.")
    if creating:
        missing = [key for key in REQUIRED_CONTENT[kind] if key not in given]
        if kind == "shape" and given.get("shape") == "path" and "points" not in given:
            missing.append("points")
        if missing:
            raise CommandError(f"{article(kind)} layer needs {', '.join(map(repr, missing))}.")
    checked = {}
    if kind == "shape" and allowed.issuperset(PATH_KEYS):
        path_params = {key: given.pop(key) for key in PATH_KEYS if key in given}
        if path_params or "path" not in (layer or {}).get("content", {}):
            checked["path"] = _path_value(path_params, layer)
    for key, value in given.items():
        value_kind, animatable = spec[key]
        try:
            checked[key] = check_property(value_kind, value, key, animatable)
        except DocumentError as error:
            raise CommandError(f"{error}.") from None
    if "points" in checked and kind == "shape":
        shape = given.get("shape") or layer["content"]["shape"]
        wants_list = shape == "path"
        if wants_list != isinstance(checked["points"], list):
            raise CommandError("points is a list of [x, y] for a path, and a corner count for "
                               "a polygon or star.")
    if "footage" in checked:
        footage = find_footage(doc, checked["footage"])
        check_shown_by(footage, kind)
        checked["footage"] = footage["id"]
    if "source" in checked:
        checked["source"] = find_comp(doc, checked["source"])["id"]
    return checked


def _scene_of(comp: dict, layer: dict) -> int | None:
    """The 1-based number of the scene the layer draws, or None."""
    for number, scene in enumerate(comp.get("scenes") or [], start=1):
        if scene["layer"] == layer["id"]:
            return number
    return None


def _replaced_keys(layer: dict, params: dict, given: dict) -> list[str]:
    """A sentence for each animated property the params replace with a static value."""
    replaced = [(f"transform.{key}", key, layer["transform"][key]) for key in TRANSFORM
                if key in params] + [(key, key, layer["content"].get(key)) for key in given]
    warnings = []
    for path, name, prop in replaced:
        if not is_animated(prop):
            continue
        keys = prop["keys"]
        warnings.append(
            f"{name} had {len(keys)} keys ({keys[0]['time']:g} s to {keys[-1]['time']:g} s); "
            f"layer.set replaced them with one value for all time, so that animation is gone "
            f"(edit.undo brings it back). To change it and keep it animated, add keys with "
            f'prop.addKey {{"path": "{path}", "time": ..., "value": ...}}.')
    return warnings


def _source_seconds(doc: dict, layer: dict) -> float | None:
    """The length of what a timed layer plays (a precomp's comp, footage), None if none."""
    content = layer["content"]
    if layer["type"] == "precomp":
        return next(c["duration"] for c in doc["comps"] if c["id"] == content["source"])
    footage = next((f for f in doc["footage"] if f["id"] == content.get("footage")), None)
    return footage.get("duration") if footage else None


def _checked_attribute(key: str, value):
    try:
        kind = ATTRIBUTES[key] if key in ATTRIBUTES else LATER_ATTRIBUTES[key][0]
        return check_value(kind, value)
    except ValueError as error:
        raise CommandError(f"{key}: {error}.") from None


def _check_font_file(engine, given: dict, work) -> None:
    if "fontFile" in given:
        given["fontFile"] = check_font_file(engine, given["fontFile"], work)


def _follow_box(doc: dict, layer: dict, box_before: tuple) -> None:
    """A text whose paragraph box changed keeps its anchor at the box's center, if that is
    where it was (the default); an anchor moved elsewhere, or animated, stays."""
    anchor = layer["transform"]["anchor"]
    box_after = content_box(doc, layer)
    if box_after != box_before and isinstance(anchor, list) and \
            anchor == [box_before[0] / 2, box_before[1] / 2]:
        layer["transform"]["anchor"] = [box_after[0] / 2, box_after[1] / 2]


def _with_warnings(engine, result: dict, layer: dict) -> dict:
    """A text layer's result names what it draws with a fallback (docs/commands.md)."""
    if layer["type"] == "text":
        warnings = font_warnings(engine.probes, layer["content"])
        if warnings:
            result["warnings"] = result.get("warnings", []) + warnings
    return result


def _path_value(given: dict, layer: dict | None) -> dict:
    """A path shape's static path from points, inTangents, outTangents and closed, over the
    layer's current path where some are left out (new points clear the old tangents, which
    belong to the old points)."""
    current = static_value(layer["content"].get("path")) if layer else None
    if "points" not in given and current is None:
        raise CommandError("a path shape needs 'points' (a list of [x, y]), and inTangents and "
                           "outTangents for curves.")
    value = {"points": given.get("points", current and current["points"]),
             "closed": given.get("closed", current["closed"] if current else True)}
    for key in ("inTangents", "outTangents"):
        if key in given:
            value[key] = given[key]
        elif "points" not in given:
            value[key] = current[key]
    try:
        return check_property("bezierPath", value, "path")
    except DocumentError as error:
        raise CommandError(f"{error}.") from None


def _reshape(content: dict, shape: str) -> None:
    """Switch a shape layer to another kind of shape: drop the old kind's own params, add the
    new kind's defaults (what the caller gives is applied after)."""
    for extras in SHAPE_EXTRAS.values():
        for key in extras:
            content.pop(key, None)
    content.pop("points", None)
    content.pop("path", None)
    content.update(copy.deepcopy(SHAPE_EXTRAS[shape]))


def apply_params(doc: dict, comp: dict, layer: dict, params: dict) -> None:
    """Apply attribute and transform params to `layer` (content is the caller's)."""
    for key in ATTRIBUTE_PARAMS:
        if key not in params:
            continue
        value = params[key]
        if key == "parent":
            value = _parent_id(comp, layer, value)
        else:
            value = _checked_attribute(key, value)
        if key == "trackMatte" and value is not None and comp["layers"].index(layer) == 0:
            raise CommandError(f"layer {layer['name']!r} is the top layer, so there is no layer "
                               "above it to be its matte; move it down or add the matte above.")
        layer[key] = value
    if layer["outPoint"] <= layer["inPoint"]:
        raise CommandError(f"outPoint ({layer['outPoint']}) must be after inPoint "
                           f"({layer['inPoint']}), or the layer never shows.")
    for key, kind in TRANSFORM.items():
        if key in params:
            try:
                layer["transform"][key] = check_value(kind, params[key])
            except ValueError as error:
                raise CommandError(f"{key}: {error}.") from None


def _parent_id(comp: dict, layer: dict, ref) -> str | None:
    if ref is None:
        return None
    parent = find_layer(comp, ref)
    chain = parent
    by_id = {other["id"]: other for other in comp["layers"]}
    while chain is not None:
        if chain["id"] == layer["id"]:
            raise CommandError(f"layer {parent['name']!r} cannot be the parent of "
                               f"{layer['name']!r}: it is {layer['name']!r} itself or one of "
                               "its children, which would make a loop.")
        chain = by_id.get(chain["parent"]) if chain["parent"] else None
    return parent["id"]


def _default_name(doc: dict, comp: dict, kind: str, content: dict) -> str:
    taken = {layer["name"] for layer in comp["layers"]}
    if kind == "text":
        first_line = str(content["text"]).split("\n", 1)[0].strip()[:40]
        return unique_name(first_line or "Text", taken)
    if kind in FOOTAGE_TYPES:
        footage = next(f for f in doc["footage"] if f["id"] == content["footage"])
        return unique_name(footage["name"], taken)
    if kind == "precomp":
        source = next(c for c in doc["comps"] if c["id"] == content["source"])
        return unique_name(source["name"], taken)
    base = content["shape"].capitalize() if kind == "shape" else kind.capitalize()
    return numbered_name(base, taken)


def _video_timing(doc: dict, comp: dict, kind: str, content: dict, start_time) -> dict:
    """A video, Lottie or audio layer ends where its footage does (played from its
    startTime), if that is before the comp's end."""
    if kind not in ("video", "lottie", "audio"):
        return {}
    footage = next(f for f in doc["footage"] if f["id"] == content["footage"])
    duration = footage.get("duration")
    end = float(start_time) + duration if duration and is_number(start_time) else None
    if end is not None and end < comp["duration"]:
        return {"outPoint": end}
    return {}
