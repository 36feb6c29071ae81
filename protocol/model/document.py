"""The project document: its version, its migration, its validation, and new parts of it.

docs/document.md is the schema in words; this module is the same schema in code. A document is
plain JSON data (dicts, lists, strings, numbers). `load_document` turns untrusted data (a file
being opened, a snapshot arriving at a worker) into a checked, migrated document with colors in
their stored form, or raises DocumentError naming the place:
`comps[2].layers[0].transform.position: expected [x, y], got 5`. A number the document cannot hold
(protocol/model/numbers.py) and an input past protocol/model/limits.py's limits are refused the
same way.

Pure: no I/O, no state. Reading and writing files is the supervisor's business.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Callable

from protocol.model.audio import (AUDIO_PROPERTIES, MASTER_BUS, SAMPLE_RATES, SOUNDING_TYPES,
                                  layer_audio, master_bus_problem)
from protocol.model.codec_options import CodecOptionRefused, check_audio_options
from protocol.model.effects import EFFECTS, STATIC_KINDS, default_params
from protocol.model.expressions import check_expressions, renamed_parts
from protocol.model.frame_spec import FrameSpecError, parse_frame_spec
from protocol.model.keyframes import check_interpolation, frame_count, is_animated
from protocol.model.layers import (ATTRIBUTES, CONTENT, FOOTAGE_TYPES, LATER_ATTRIBUTES,
                                   LAYER_TYPES, REQUIRED_CONTENT, SPATIAL, TRANSFORM,
                                   missing_defaults)
from protocol.model.limits import MAX_COMP_FRAMES, MAX_DOCUMENT_BYTES, MAX_KEYS
from protocol.model.markers import MARKER_FIELDS
from protocol.model.masks import MASK_ATTRIBUTES, MASK_PROPERTIES
from protocol.model.numbers import unusable_number_in, unusable_problem
from protocol.model.output_formats import FORMATS
from protocol.model.scenes import check_transition
from protocol.model.template_params import check_name, check_params
from protocol.model.text_animators import PROPERTIES as ANIMATOR_PROPERTIES
from protocol.model.text_animators import RANGE_DEFAULTS, RANGE_NUMBERS, UNITS
from protocol.model.text_animators import SHAPES as RANGE_SHAPES
from protocol.model.values import check_value, describe, is_number

VERSION = 2

ID_PREFIXES = {"comp": "comp", "layer": "layer", "effect": "fx", "footage": "footage",
               "item": "item", "animator": "anim", "mask": "mask", "marker": "marker",
               "scene": "scene"}
_ID = re.compile(r"^(comp|layer|fx|footage|item|anim|mask|marker|scene)(\d+)$")

# A spatial key's tangents: the motion path's handles, relative to the key's value.
SPATIAL_KEYS = ("spatialIn", "spatialOut")
COMP_DEFAULTS = {"width": 1920, "height": 1080, "frameRate": 30, "duration": 10.0,
                 "background": [0.0, 0.0, 0.0, 1.0]}
# A comp's picture settings, stored only when given (docs/document.md, "Bit depth and linear
# light"): bitDepth 8 (the default), 16 or "float"; linearBlending false (the default) or true.
BIT_DEPTHS = (8, 16, "float")
PICTURE_SETTINGS = {"bitDepth": BIT_DEPTHS, "linearBlending": "bool"}
FOOTAGE_KINDS = ("image", "sequence", "video", "vector", "lottie", "audio")
# Queue item settings added with sound, stored only when given: absent means the default (the
# format's sound, when the comp has any, in its default codec and bit rate).
ITEM_AUDIO_KEYS = ("audio", "audioCodec", "audioBitrate")


class DocumentError(ValueError):
    """A document that does not follow the schema; `place` is where (`comps[0].layers[1]`)."""

    def __init__(self, place: str, problem: str):
        self.place = place
        self.problem = problem
        super().__init__(f"{place}: {problem}" if place else problem)


# ---------------------------------------------------------------------------------------------
# New documents and their parts


def new_document(name: str = "Untitled") -> dict:
    return {"version": VERSION, "name": name, "nextId": 1, "footage": [], "comps": [],
            "renderQueue": []}


def allocate_id(doc: dict, kind: str) -> str:
    """A fresh id for a new part; `nextId` only ever grows, so ids are never reused."""
    number = doc["nextId"]
    doc["nextId"] = number + 1
    return f"{ID_PREFIXES[kind]}{number}"


def new_comp(doc: dict, name: str, **settings: Any) -> dict:
    """A new comp with the defaults (1920x1080, 30 fps, 10 s, black) under `settings`."""
    comp = {"id": allocate_id(doc, "comp"), "name": name, **copy.deepcopy(COMP_DEFAULTS),
            "motionBlur": {"enabled": False, "samples": 8, "shutterAngle": 180},
            "proxy": None, "markers": [], "layers": []}
    comp.update(settings)
    return comp


def new_effect(doc: dict, effect: str, params: dict | None = None) -> dict:
    return {"id": allocate_id(doc, "effect"), "effect": effect, "enabled": True,
            "params": {**default_params(effect), **(params or {})}}


# Queue item keys stored only when given (an item without one has its default): resume (a
# video takes the finished segments an earlier render left, default false), startNumber (a
# sequence's file number for comp frame 0, default 0), display and view (a colour-managed
# project's output transform, default the config's), colorTags (a video's, default bt709;
# bt2020-pq is HDR10), scale (the fraction of the comp's size frames are drawn at, above 0
# and at most 1: a draft; default 1).
ITEM_OPTIONS = {"resume": "bool", "startNumber": "whole", "display": "string",
                "view": "string", "colorTags": ("bt709", "bt2020-pq"), "scale": "positive"}


def new_queue_item(doc: dict, comp_id: str, output: str, format: str, frames: str | None,
                   skip_existing: bool, codec_options: dict,
                   audio_settings: dict | None = None) -> dict:
    item = {"id": allocate_id(doc, "item"), "comp": comp_id, "output": output,
            "format": format, "frames": frames, "skipExisting": skip_existing,
            "codecOptions": dict(codec_options), "status": "queued"}
    item.update({key: value for key, value in (audio_settings or {}).items()
                 if key in ITEM_AUDIO_KEYS and value is not None})
    return item


def renew_ids(doc: dict, layer: dict) -> None:
    """Fresh ids for a copied layer's own parts (effects, masks, markers, a text's animators),
    so the copy shares none with its original; the layer's own id is the caller's. Its
    expressions stay on its own parts."""
    renamed = {}
    for part, kind in (("effects", "effect"), ("masks", "mask"), ("markers", "marker")):
        for item in layer.get(part, []):
            renamed[item["id"]] = item["id"] = allocate_id(doc, kind)
    for animator in layer.get("content", {}).get("animators") or []:
        renamed[animator["id"]] = animator["id"] = allocate_id(doc, "animator")
    renamed_parts(layer, renamed)


def unique_name(base: str, taken: set[str]) -> str:
    """`base` if free, else `base 2`, `base 3`, ..."""
    if base not in taken:
        return base
    number = 2
    while f"{base} {number}" in taken:
        number += 1
    return f"{base} {number}"


def numbered_name(base: str, taken: set[str]) -> str:
    """The first free `base 1`, `base 2`, ... (After Effects' `Comp 1`, `Solid 2`)."""
    number = 1
    while f"{base} {number}" in taken:
        number += 1
    return f"{base} {number}"


# ---------------------------------------------------------------------------------------------
# Text form


def dumps(doc: dict) -> str:
    """The saved form: indented JSON, keys in schema order, one trailing newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def compact(doc: dict) -> str:
    """The document as compact JSON (ASCII): the form its size is measured in
    (MAX_DOCUMENT_BYTES, one byte a character) and the form the undo history keeps."""
    return json.dumps(doc, separators=(",", ":"), allow_nan=False)


def size_problem(size: int) -> str | None:
    """Past MAX_DOCUMENT_BYTES, what a document of `size` bytes (its `compact` form) is, to
    follow "the project is" or "would make the project"; None within it."""
    if size <= MAX_DOCUMENT_BYTES:
        return None
    return (f"{size / 1e6:.1f} MB as compact JSON, over the limit of "
            f"{MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB for a project; make it smaller (fewer "
            "keys, shorter texts) or split it into several projects")


def loads(text: str) -> dict:
    """Parse and load a saved project; DocumentError (place "") for text that is not JSON."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DocumentError("", f"not a JSON document (line {error.lineno}, column "
                                f"{error.colno}: {error.msg})") from None
    return load_document(data)


# ---------------------------------------------------------------------------------------------
# Migration


def _migrate_0_to_1(doc: dict) -> dict:
    """Version 0 is the draft format, before `version` and `nextId` existed: add them, and the
    lists a draft could leave out."""
    upgraded = {"version": 1, "name": doc.get("name", "Untitled"),
                "nextId": _next_free_id(doc), "footage": doc.get("footage", []),
                "comps": doc.get("comps", []), "renderQueue": doc.get("renderQueue", [])}
    upgraded.update({key: value for key, value in doc.items() if key not in upgraded})
    return upgraded


def _migrate_1_to_2(doc: dict) -> dict:
    """Version 1 stored a path shape as `points` (a list of [x, y]) and `closed`, straight
    segments only; version 2 stores one animatable `path` with tangents (protocol/model/bezier.py).
    Anything not shaped like a version 1 path is left for validation to report."""
    for comp in doc.get("comps", []) if isinstance(doc.get("comps"), list) else []:
        for layer in comp.get("layers", []) if isinstance(comp, dict) else []:
            content = layer.get("content") if isinstance(layer, dict) else None
            if (isinstance(content, dict) and content.get("shape") == "path"
                    and "path" not in content and isinstance(content.get("points"), list)):
                content["path"] = {"points": content.pop("points"),
                                   "closed": content.pop("closed", True)}
    doc["version"] = 2
    return doc


# from version -> step to the next version
MIGRATIONS: dict[int, Callable[[dict], dict]] = {0: _migrate_0_to_1, 1: _migrate_1_to_2}


def migrate(doc: dict) -> dict:
    version = doc.get("version", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise DocumentError("version", f"expected a whole number, got {version!r}")
    if version > VERSION:
        raise DocumentError("version", f"this project is version {version}, newer than this "
                                       f"rendervisor reads (version {VERSION}); update "
                                       "rendervisor to open it")
    while version < VERSION:
        doc = MIGRATIONS[version](doc)
        version = doc["version"]
    return doc


def _next_free_id(doc: Any) -> int:
    highest = 0
    for value in _all_ids(doc):
        match = _ID.match(value)
        if match:
            highest = max(highest, int(match.group(2)))
    return highest + 1


def _all_ids(node: Any):
    if isinstance(node, dict):
        if isinstance(node.get("id"), str):
            yield node["id"]
        for value in node.values():
            yield from _all_ids(value)
    elif isinstance(node, list):
        for value in node:
            yield from _all_ids(value)


# ---------------------------------------------------------------------------------------------
# Validation


def load_document(data: Any) -> dict:
    """A checked, migrated copy of `data`, colors normalised; DocumentError otherwise."""
    if not isinstance(data, dict):
        raise DocumentError("", f"expected a project object {{\"version\": ..., \"comps\": "
                                f"[...]}}, got {type(data).__name__}")
    unusable = unusable_number_in(data)
    if unusable is not None:
        where, number = unusable
        raise DocumentError(where.lstrip("."), unusable_problem(number))
    doc = migrate(copy.deepcopy(data))
    _check_keys(doc, "", required=("version", "name", "nextId", "footage", "comps",
                                   "renderQueue"), optional=("params", "colorManagement"))
    _expect(doc, "name", "string", "")
    if not isinstance(doc["nextId"], int) or isinstance(doc["nextId"], bool):
        raise DocumentError("nextId", f"expected a whole number, got {doc['nextId']!r}")
    for key in ("footage", "comps", "renderQueue"):
        if not isinstance(doc[key], list):
            raise DocumentError(key, f"expected a list, got {doc[key]!r}")
    doc["footage"] = [_check_footage(f, f"footage[{i}]") for i, f in enumerate(doc["footage"])]
    doc["comps"] = [_check_comp(c, f"comps[{i}]") for i, c in enumerate(doc["comps"])]
    doc["renderQueue"] = [_check_item(item, f"renderQueue[{i}]")
                          for i, item in enumerate(doc["renderQueue"])]
    if "params" in doc:
        doc["params"] = check_params(doc["params"], "params", DocumentError)
    if "colorManagement" in doc:
        doc["colorManagement"] = check_color_management(doc["colorManagement"],
                                                        "colorManagement")
    _check_ids(doc)
    _check_references(doc)
    problem = size_problem(len(compact(doc)))
    if problem is not None:
        raise DocumentError("", f"the project is {problem}")
    return doc


def _check_keys(node: Any, place: str, required: tuple, optional: tuple) -> None:
    if not isinstance(node, dict):
        raise DocumentError(place, f"expected an object, got {node!r}")
    missing = [key for key in required if key not in node]
    if missing:
        raise DocumentError(place, f"missing {', '.join(missing)}")
    unknown = sorted(set(node) - set(required) - set(optional))
    if unknown:
        raise DocumentError(_join(place, unknown[0]),
                            f"unknown key; the keys here are "
                            f"{', '.join(list(required) + list(optional))}")


def _join(place: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{place}[{key}]"
    return f"{place}.{key}" if place else str(key)


def _expect(node: dict, key: str, kind: Any, place: str) -> None:
    """Check `node[key]` against `kind`, storing the normalised value."""
    try:
        node[key] = check_value(kind, node[key])
    except ValueError as error:
        raise DocumentError(_join(place, key), str(error)) from None


def check_property(kind: Any, prop: Any, place: str, animatable: bool = True,
                   spatial: bool = False) -> Any:
    """A property value (static, or `{"keys": [...]}` when animatable), normalised. The keys of a
    `spatial` one (a position) may carry spatialIn/spatialOut tangents [dx, dy]."""
    if not is_animated(prop):
        try:
            return check_value(kind, prop)
        except ValueError as error:
            raise DocumentError(place, str(error)) from None
    if not animatable:
        raise DocumentError(place, f"this property cannot be animated; expected "
                                   f"{describe(kind)}")
    _check_keys(prop, place, required=("keys",), optional=())
    keys = prop["keys"]
    if not isinstance(keys, list) or not keys:
        raise DocumentError(_join(place, "keys"), "expected a non-empty list of keys")
    if len(keys) > MAX_KEYS:
        raise DocumentError(_join(place, "keys"), f"has {len(keys):,} keys, over the limit of "
                                                  f"{MAX_KEYS:,} for one property; use fewer "
                                                  "(a key on every frame is rarely needed)")
    checked = []
    for index, key in enumerate(keys):
        where = f"{place}.keys[{index}]"
        _check_keys(key, where, required=("time", "value"),
                    optional=("interpolation", *(SPATIAL_KEYS if spatial else ())))
        if not is_number(key["time"]):
            raise DocumentError(f"{where}.time", f"expected seconds, got {key['time']!r}")
        if checked and key["time"] <= checked[-1]["time"]:
            raise DocumentError(f"{where}.time", "key times must be increasing; this key is "
                                                 "not after the one before it")
        try:
            value = check_value(kind, key["value"])
        except ValueError as error:
            raise DocumentError(f"{where}.value", str(error)) from None
        entry = {"time": key["time"], "value": value}
        try:
            entry["interpolation"] = check_interpolation(key.get("interpolation", "linear"))
        except ValueError as error:
            raise DocumentError(f"{where}.interpolation", str(error)) from None
        for name in SPATIAL_KEYS:
            if name in key:
                _expect(key, name, "vec2", where)
                entry[name] = key[name]
        checked.append(entry)
    return {"keys": checked}


def check_color_management(value: Any, place: str) -> dict | None:
    """A project's colour management: null (none: the sRGB pipeline), or {config,
    workingSpace?}, names the worker that draws checks against the config
    (docs/document.md, "Colour management")."""
    if value is None:
        return None
    _check_keys(value, place, required=("config",), optional=("workingSpace",))
    for key in value:
        _expect(value, key, "string", place)
    return value


def _check_footage(footage: Any, place: str) -> dict:
    if isinstance(footage, dict) and footage.get("kind") == "audio":
        return _check_audio_footage(footage, place)
    _check_keys(footage, place, required=("id", "name", "path", "kind", "width", "height"),
                optional=("frameRate", "duration", "frameCount", "firstFrame", "hasAudio",
                          "colorSpace"))
    for key, kind in (("id", "string"), ("name", "string"), ("path", "string"),
                      ("kind", FOOTAGE_KINDS), ("width", "positive"), ("height", "positive")):
        _expect(footage, key, kind, place)
    for key, kind in (("frameRate", "positive"), ("duration", "nonNegative"),
                      ("frameCount", "nonNegative"), ("firstFrame", "nonNegative"),
                      ("hasAudio", "bool"), ("colorSpace", "string")):
        if key in footage:
            _expect(footage, key, kind, place)
    return footage


def _check_audio_footage(footage: dict, place: str) -> dict:
    """Sound alone: no picture size, but its length, sample rate and channel count."""
    _check_keys(footage, place, required=("id", "name", "path", "kind", "duration",
                                          "sampleRate", "channels"), optional=())
    for key, kind in (("id", "string"), ("name", "string"), ("path", "string"),
                      ("duration", "nonNegative"), ("sampleRate", "positive"),
                      ("channels", "positive")):
        _expect(footage, key, kind, place)
    return footage


def _check_comp(comp: Any, place: str) -> dict:
    _check_keys(comp, place, required=("id", "name", "width", "height", "frameRate",
                                       "duration", "background", "layers"),
                optional=("motionBlur", "proxy", "markers", "audioSampleRate", "scenes",
                          *MASTER_BUS, *PICTURE_SETTINGS))
    if "audioSampleRate" in comp:
        _expect(comp, "audioSampleRate", SAMPLE_RATES, place)
    for key, (kind, _) in MASTER_BUS.items():
        if key in comp:
            _expect(comp, key, kind, place)
            problem = master_bus_problem(key, comp[key])
            if problem is not None:
                raise DocumentError(f"{place}.{key}", problem)
    for key, kind in PICTURE_SETTINGS.items():
        if key in comp:
            _expect(comp, key, kind, place)
    for key, kind in (("id", "string"), ("name", "string"), ("width", "positive"),
                      ("height", "positive"), ("frameRate", "positive"),
                      ("duration", "positive"), ("background", "color")):
        _expect(comp, key, kind, place)
    problem = frame_count_problem(comp["duration"], comp["frameRate"])
    if problem is not None:
        raise DocumentError(place, problem)
    comp.setdefault("motionBlur", {"enabled": False, "samples": 8, "shutterAngle": 180})
    comp.setdefault("proxy", None)
    comp["markers"] = check_markers(comp.get("markers", []), f"{place}.markers")
    blur = comp["motionBlur"]
    where = f"{place}.motionBlur"
    _check_keys(blur, where, required=("enabled", "samples", "shutterAngle"), optional=())
    for key, kind in (("enabled", "bool"), ("samples", "positive"),
                      ("shutterAngle", "nonNegative")):
        _expect(blur, key, kind, where)
    _expect(comp, "proxy", "idOrNull", place)
    if not isinstance(comp["layers"], list):
        raise DocumentError(f"{place}.layers", f"expected a list, got {comp['layers']!r}")
    comp["layers"] = [check_layer(layer, f"{place}.layers[{i}]")
                      for i, layer in enumerate(comp["layers"])]
    if "scenes" in comp:
        comp["scenes"] = check_scenes(comp, f"{place}.scenes")
    return comp


def check_scenes(comp: dict, place: str) -> list:
    """A comp's scenes (protocol/model/scenes.py): each drawn by a precomp layer of the comp,
    no layer by two scenes."""
    scenes = comp["scenes"]
    if not isinstance(scenes, list):
        raise DocumentError(place, f"expected a list, got {scenes!r}")
    layers = {layer["id"]: layer for layer in comp["layers"]}
    used: set = set()
    for index, scene in enumerate(scenes):
        where = f"{place}[{index}]"
        _check_keys(scene, where, required=("id", "layer", "duration", "transition"),
                    optional=())
        for key, kind in (("id", "string"), ("layer", "string"), ("duration", "positive")):
            _expect(scene, key, kind, where)
        layer = layers.get(scene["layer"])
        if layer is None or layer["type"] != "precomp":
            raise DocumentError(f"{where}.layer", f"{scene['layer']!r} is not a precomp layer "
                                                  "of this comp")
        if scene["layer"] in used:
            raise DocumentError(f"{where}.layer", f"{scene['layer']!r} draws another scene "
                                                  "already")
        used.add(scene["layer"])
        if scene["transition"] is not None:
            try:
                scene["transition"] = check_transition(scene["transition"])
            except ValueError as error:
                raise DocumentError(f"{where}.transition", str(error)) from None
            if "color" in scene["transition"]:
                _expect(scene["transition"], "color", "color", f"{where}.transition")
    return scenes


def frame_count_problem(duration: float, frame_rate: float) -> str | None:
    """Why a comp of `duration` seconds at `frame_rate` may not be (MAX_COMP_FRAMES), or None."""
    frames = frame_count(duration, frame_rate)
    if frames <= MAX_COMP_FRAMES:
        return None
    return (f"{duration:g} s at {frame_rate:g} fps is {frames:,} frames, over the limit of "
            f"{MAX_COMP_FRAMES:,} frames for a comp; shorten it or lower its frame rate")


def check_layer(layer: Any, place: str) -> dict:
    """One layer, checked against protocol/model/layers.py's tables and normalised."""
    _check_keys(layer, place, required=("id", "type", "transform", "content", "effects",
                                        *ATTRIBUTES),
                optional=("masks", "markers", "audio", "expressions", *LATER_ATTRIBUTES))
    _expect(layer, "id", "string", place)
    _expect(layer, "type", LAYER_TYPES, place)
    _check_layer_audio(layer, place)
    for key, kind in ATTRIBUTES.items():
        _expect(layer, key, kind, place)
    for key, (kind, default) in LATER_ATTRIBUTES.items():
        layer.setdefault(key, default)
        _expect(layer, key, kind, place)
    if layer["outPoint"] <= layer["inPoint"]:
        raise DocumentError(f"{place}.outPoint", "must be after inPoint, or the layer is never "
                                                 "visible")
    where = f"{place}.transform"
    _check_keys(layer["transform"], where, required=tuple(TRANSFORM), optional=())
    for key, kind in TRANSFORM.items():
        layer["transform"][key] = check_property(kind, layer["transform"][key],
                                                 f"{where}.{key}", spatial=key in SPATIAL)
    spec = CONTENT[layer["type"]]
    where = f"{place}.content"
    if isinstance(layer["content"], dict):
        layer["content"].update(missing_defaults(layer["type"], layer["content"]))
    _check_keys(layer["content"], where, required=REQUIRED_CONTENT[layer["type"]],
                optional=tuple(k for k in spec if k not in REQUIRED_CONTENT[layer["type"]]))
    for key, value in layer["content"].items():
        kind, animatable = spec[key]
        if kind == "textAnimators":
            layer["content"][key] = check_animators(value, f"{where}.{key}")
            continue
        layer["content"][key] = check_property(kind, value, f"{where}.{key}", animatable)
    if layer["content"].get("shape") == "path" and "path" not in layer["content"]:
        raise DocumentError(where, "a path shape needs its path (points, and tangents if curved)")
    if not isinstance(layer["effects"], list):
        raise DocumentError(f"{place}.effects", f"expected a list, got {layer['effects']!r}")
    layer["effects"] = [check_effect(fx, f"{place}.effects[{i}]")
                        for i, fx in enumerate(layer["effects"])]
    layer.setdefault("masks", [])
    if not isinstance(layer["masks"], list):
        raise DocumentError(f"{place}.masks", f"expected a list, got {layer['masks']!r}")
    layer["masks"] = [check_mask(mask, f"{place}.masks[{i}]")
                      for i, mask in enumerate(layer["masks"])]
    layer["markers"] = check_markers(layer.get("markers", []), f"{place}.markers")
    if "expressions" in layer:
        try:
            check_expressions(layer, f"{place}.expressions")
        except ValueError as error:
            raise DocumentError(*error.args) from None
    return layer


def _check_layer_audio(layer: dict, place: str) -> None:
    """A sounding layer's `audio` (protocol/model/audio.py), its defaults where left out (a
    layer saved before sound existed); any other layer has none."""
    where = f"{place}.audio"
    if layer["type"] not in SOUNDING_TYPES:
        if "audio" in layer:
            raise DocumentError(where, f"a {layer['type']} layer has no sound; only "
                                       f"{', '.join(SOUNDING_TYPES)} layers have audio")
        return
    _check_keys(layer.get("audio", {}), where, required=(), optional=tuple(AUDIO_PROPERTIES))
    audio = layer_audio(layer)
    for key, (kind, animatable) in AUDIO_PROPERTIES.items():
        audio[key] = check_property(kind, audio[key], f"{where}.{key}", animatable)
    layer["audio"] = audio


def check_markers(markers: Any, place: str) -> list:
    """A comp's or a layer's markers (protocol/model/markers.py), their names unique there."""
    if not isinstance(markers, list):
        raise DocumentError(place, f"expected a list, got {markers!r}")
    names: set = set()
    for index, marker in enumerate(markers):
        where = f"{place}[{index}]"
        _check_keys(marker, where, required=("id", *MARKER_FIELDS), optional=())
        _expect(marker, "id", "string", where)
        for key, kind in MARKER_FIELDS.items():
            _expect(marker, key, kind, where)
        if marker["name"] in names:
            raise DocumentError(f"{where}.name", f"{marker['name']!r} is the name of another "
                                                 "marker here; names must be unique")
        names.add(marker["name"])
    return markers


def check_mask(mask: Any, place: str) -> dict:
    """One mask (protocol/model/masks.py's tables), normalised."""
    _check_keys(mask, place, required=("id", *MASK_ATTRIBUTES, *MASK_PROPERTIES), optional=())
    _expect(mask, "id", "string", place)
    for key, kind in MASK_ATTRIBUTES.items():
        _expect(mask, key, kind, place)
    for key, (kind, _) in MASK_PROPERTIES.items():
        mask[key] = check_property(kind, mask[key], f"{place}.{key}")
    return mask


def check_effect(effect: Any, place: str) -> dict:
    _check_keys(effect, place, required=("id", "effect", "enabled", "params"), optional=())
    _expect(effect, "id", "string", place)
    _expect(effect, "effect", tuple(EFFECTS), place)
    _expect(effect, "enabled", "bool", place)
    spec = EFFECTS[effect["effect"]]
    where = f"{place}.params"
    _check_keys(effect["params"], where, required=(), optional=tuple(spec))
    params = default_params(effect["effect"])
    for key, value in effect["params"].items():
        kind = spec[key][0]
        params[key] = check_property(kind, value, f"{where}.{key}",
                                     animatable=kind not in STATIC_KINDS)
    effect["params"] = params
    return effect


def check_animators(animators: Any, place: str) -> list:
    """A text layer's animators (protocol/model/text_animators.py), normalised with their defaults."""
    if not isinstance(animators, list):
        raise DocumentError(place, f"expected a list of animators, got {animators!r}")
    checked = []
    for index, animator in enumerate(animators):
        where = f"{place}[{index}]"
        _check_keys(animator, where, required=("id", "unit", "properties", "range"),
                    optional=())
        _expect(animator, "id", "string", where)
        _expect(animator, "unit", UNITS, where)
        properties = animator["properties"]
        _check_keys(properties, f"{where}.properties", required=(),
                    optional=tuple(ANIMATOR_PROPERTIES))
        for key, value in properties.items():
            properties[key] = check_property(ANIMATOR_PROPERTIES[key], value,
                                             f"{where}.properties.{key}")
        selector = {**RANGE_DEFAULTS, **(animator["range"] if isinstance(animator["range"],
                                                                          dict) else {})}
        _check_keys(animator["range"], f"{where}.range", required=(),
                    optional=tuple(RANGE_DEFAULTS))
        for key, kind in RANGE_NUMBERS.items():
            selector[key] = check_property(kind, selector[key], f"{where}.range.{key}")
        _expect(selector, "shape", RANGE_SHAPES, f"{where}.range")
        if selector["ease"] == "hold":
            raise DocumentError(f"{where}.range.ease", "hold is not an ease; use linear, "
                                "easeIn, easeOut, easyEase or a bezier")
        try:
            selector["ease"] = check_interpolation(selector["ease"])
        except ValueError as error:
            raise DocumentError(f"{where}.range.ease", str(error)) from None
        animator["range"] = selector
        checked.append(animator)
    return checked


def _check_item(item: Any, place: str) -> dict:
    _check_keys(item, place, required=("id", "comp", "output", "format", "frames",
                                       "skipExisting", "codecOptions", "status"),
                optional=ITEM_AUDIO_KEYS + ("params",) + tuple(ITEM_OPTIONS))
    for key, kind in (("id", "string"), ("comp", "string"), ("output", "string"),
                      ("format", tuple(FORMATS)), ("skipExisting", "bool"),
                      ("status", "string")):
        _expect(item, key, kind, place)
    for key, kind in ITEM_OPTIONS.items():
        if key in item:
            _expect(item, key, kind, place)
    if item.get("scale", 1) > 1:
        raise DocumentError(f"{place}.scale", f"is at most 1 (the comp's size), got "
                                              f"{item['scale']}")
    if item["frames"] is not None:
        try:
            parse_frame_spec(item["frames"])
        except FrameSpecError as error:
            raise DocumentError(f"{place}.frames", str(error)) from None
    options = item["codecOptions"]
    if not isinstance(options, dict) or not all(isinstance(v, (str, int, float))
                                                and not isinstance(v, bool)
                                                for v in options.values()):
        raise DocumentError(f"{place}.codecOptions",
                            f'expected an object of option names to values, e.g. '
                            f'{{"crf": "20"}}, got {options!r}')
    try:
        check_audio_options(item["format"], item.get("audio"), item.get("audioCodec"),
                            item.get("audioBitrate"), "this item")
    except CodecOptionRefused as error:
        raise DocumentError(place, str(error).rstrip(".")) from None
    if "params" in item:
        _check_item_params(item["params"], f"{place}.params")
    return item


def _check_item_params(params: Any, place: str) -> None:
    """An item's template values: names only, here. Whether each is a param of the project
    and of its type is checked when the item renders, so a project whose param was removed
    still opens (protocol/model/template_params.py)."""
    if not isinstance(params, dict):
        raise DocumentError(place, f'expected an object {{"NAME": VALUE}}, got {params!r}')
    for name in params:
        try:
            check_name(name)
        except ValueError as error:
            raise DocumentError(f"{place}.{name}", str(error)) from None


def _check_ids(doc: dict) -> None:
    seen: dict[str, str] = {}
    places = [(f"footage[{i}]", f) for i, f in enumerate(doc["footage"])]
    for ci, comp in enumerate(doc["comps"]):
        places.append((f"comps[{ci}]", comp))
        for li, layer in enumerate(comp["layers"]):
            places.append((f"comps[{ci}].layers[{li}]", layer))
            places += [(f"comps[{ci}].layers[{li}].effects[{ei}]", fx)
                       for ei, fx in enumerate(layer["effects"])]
            places += [(f"comps[{ci}].layers[{li}].content.animators[{ai}]", animator)
                       for ai, animator in enumerate(layer["content"].get("animators") or [])]
            places += [(f"comps[{ci}].layers[{li}].masks[{mi}]", mask)
                       for mi, mask in enumerate(layer["masks"])]
            places += [(f"comps[{ci}].layers[{li}].markers[{mi}]", marker)
                       for mi, marker in enumerate(layer["markers"])]
        places += [(f"comps[{ci}].markers[{mi}]", marker)
                   for mi, marker in enumerate(comp["markers"])]
        places += [(f"comps[{ci}].scenes[{si}]", scene)
                   for si, scene in enumerate(comp.get("scenes", []))]
    places += [(f"renderQueue[{i}]", item) for i, item in enumerate(doc["renderQueue"])]
    highest = 0
    for place, node in places:
        if node["id"] in seen:
            raise DocumentError(f"{place}.id", f"{node['id']!r} is already the id of "
                                               f"{seen[node['id']]}; ids must be unique")
        seen[node["id"]] = place
        match = _ID.match(node["id"])
        if match:
            highest = max(highest, int(match.group(2)))
    if doc["nextId"] <= highest:
        raise DocumentError("nextId", f"is {doc['nextId']} but the id counter {highest} is "
                                      f"already used; set it to {highest + 1} or more")


def _check_references(doc: dict) -> None:
    footage_ids = {f["id"] for f in doc["footage"]}
    footage_kinds = {f["id"]: f["kind"] for f in doc["footage"]}
    comps = {c["id"]: c for c in doc["comps"]}
    for ci, comp in enumerate(doc["comps"]):
        place = f"comps[{ci}]"
        if comp["proxy"] is not None and comp["proxy"] not in footage_ids:
            raise DocumentError(f"{place}.proxy", f"no footage has the id {comp['proxy']!r}")
        layer_ids = {layer["id"] for layer in comp["layers"]}
        for li, layer in enumerate(comp["layers"]):
            where = f"{place}.layers[{li}]"
            if layer["parent"] is not None:
                if layer["parent"] not in layer_ids or layer["parent"] == layer["id"]:
                    raise DocumentError(f"{where}.parent", f"{layer['parent']!r} is not another "
                                                           "layer of this comp")
            content = layer["content"]
            if layer["type"] in FOOTAGE_TYPES and content["footage"] not in footage_ids:
                raise DocumentError(f"{where}.content.footage",
                                    f"no footage has the id {content['footage']!r}")
            if layer["type"] == "audio" and footage_kinds[content["footage"]] not in \
                    ("audio", "video"):
                raise DocumentError(f"{where}.content.footage",
                                    f"footage {content['footage']!r} is "
                                    f"{footage_kinds[content['footage']]} footage, which has "
                                    "no sound for an audio layer to play")
            if layer["type"] == "precomp" and content["source"] not in comps:
                raise DocumentError(f"{where}.content.source",
                                    f"no comp has the id {content['source']!r}")
        cycle = parent_cycle(comp)
        if cycle:
            raise DocumentError(f"{place}.layers", "the parents of layers "
                                                   f"{' -> '.join(cycle)} form a loop")
    for ci, comp in enumerate(doc["comps"]):
        loop = precomp_cycle(doc, comp["id"])
        if loop:
            names = " -> ".join(comps[c]["name"] for c in loop)
            raise DocumentError(f"comps[{ci}]", f"comps nest inside themselves ({names})")
    for i, item in enumerate(doc["renderQueue"]):
        if item["comp"] not in comps:
            raise DocumentError(f"renderQueue[{i}].comp", f"no comp has the id {item['comp']!r}")


def parent_cycle(comp: dict) -> list[str] | None:
    """The layer ids of a parent loop in `comp`, or None."""
    parents = {layer["id"]: layer["parent"] for layer in comp["layers"]}
    for start in parents:
        chain, current = [], start
        while current is not None and current in parents:
            if current in chain:
                return chain[chain.index(current):] + [current]
            chain.append(current)
            current = parents[current]
    return None


def precomp_cycle(doc: dict, comp_id: str) -> list[str] | None:
    """Comp ids of a precomp loop reachable from `comp_id` (a comp showing itself), or None."""
    comps = {c["id"]: c for c in doc["comps"]}

    def visit(current: str, path: list[str]) -> list[str] | None:
        if current in path:
            return path[path.index(current):] + [current]
        for layer in comps.get(current, {}).get("layers", []):
            if layer["type"] == "precomp":
                found = visit(layer["content"]["source"], path + [current])
                if found:
                    return found
        return None

    return visit(comp_id, [])
