"""Composition commands: new, set, remove, duplicate, list (comp.saveFrameAs renders, so it
lives with the other render commands in render.py)."""

from __future__ import annotations

import copy

from protocol.model.audio import (DEFAULT_SAMPLE_RATE, MASTER_BUS, SAMPLE_RATES,
                                  master_bus_problem)
from protocol.model.document import (BIT_DEPTHS, COMP_DEFAULTS, PICTURE_SETTINGS, allocate_id,
                                     frame_count_problem, new_comp, numbered_name, renew_ids,
                                     unique_name)
from protocol.model.values import check_value
from supervisor.engine.commands.lookup import find_comp
from supervisor.engine.commands.overview import comp_summary
from supervisor.engine.commands.registry import COLOR, COMP_REF, command, formatted
from supervisor.errors import CommandError

SETTINGS = {
    "name": {"type": "string", "description": "the comp's name"},
    "width": {"type": "integer", "description": "width in pixels (default 1920)"},
    "height": {"type": "integer", "description": "height in pixels (default 1080)"},
    "frameRate": {"type": "number", "description": "frames per second (default 30)"},
    "duration": {"type": "number", "description": "length in seconds (default 10)"},
    "background": formatted(COLOR, "the background color (default black)"),
    "bitDepth": {"enum": list(BIT_DEPTHS),
                 "description": "bits per channel it is drawn in: 8 (the default), 16 or "
                                "\"float\" (docs/document.md, \"Bit depth and linear light\")"},
    "linearBlending": {"type": "boolean",
                       "description": "blend, filter and average in linear light (default "
                                      "false: in sRGB values, as 8-bit tools do)"},
    "audioSampleRate": {"type": "integer", "enum": list(SAMPLE_RATES),
                        "description": f"the rate its sound is mixed at, in Hz (default "
                                       f"{DEFAULT_SAMPLE_RATE})"},
    "audioLimiter": {"type": "boolean", "description": "a true-peak limiter on its rendered "
                     "sound, keeping every peak under audioCeiling (default true)"},
    "audioCeiling": {"type": "number", "description": "the limiter's ceiling in dBTP, -20 to "
                     "0 (default -1)"},
    "audioLoudness": {"type": ["number", "null"], "description": "a loudness target in LUFS "
                      "(integrated, ITU-R BS.1770 as EBU R 128 measures it), -70 to -5: the "
                      "rendered mix is turned up or down to it (e.g. -14 for streaming, -23 "
                      "for broadcast); null, the default, leaves the level as mixed"},
}
MOTION_BLUR = {"type": "object", "description": "{enabled?, samples?, shutterAngle?}: motion blur "
               "for layers that move (samples per frame, shutter angle in degrees)"}
_KINDS = {"name": "string", "width": "positive", "height": "positive", "frameRate": "positive",
          "duration": "positive", "background": "color", "audioSampleRate": SAMPLE_RATES,
          **{key: kind for key, (kind, _) in MASTER_BUS.items()}, **PICTURE_SETTINGS}
MOTION_BLUR_KINDS = {"enabled": "bool", "samples": "positive", "shutterAngle": "nonNegative"}
MAX_SIDE = 16384  # Skia's raster surfaces stop here; a larger comp could never be rendered


def checked_settings(params: dict, comp: dict = COMP_DEFAULTS) -> dict:
    """The comp settings in `params`, checked for `comp` (a new comp: the defaults)."""
    settings = {}
    for key, kind in _KINDS.items():
        if key in params:
            try:
                settings[key] = check_value(kind, params[key])
            except ValueError as error:
                raise CommandError(f"{key}: {error}.") from None
            problem = master_bus_problem(key, settings[key])
            if problem is not None:
                raise CommandError(f"{problem}.")
    for key in ("width", "height"):
        if key in settings and settings[key] > MAX_SIDE:
            raise CommandError(f"{key} {settings[key]} is larger than the largest renderable "
                               f"size, {MAX_SIDE} pixels.")
    if "duration" in settings:
        settings["duration"] = float(settings["duration"])
    problem = frame_count_problem(settings.get("duration", comp["duration"]),
                                  settings.get("frameRate", comp["frameRate"]))
    if problem is not None:
        raise CommandError(f"{problem}.")
    return settings


@command("comp.new", "New composition",
         "Add a composition (default 1920x1080, 30 fps, 10 s, black, sound mixed at 48000 Hz); "
         "returns {comp} (its id).",
         SETTINGS)
def comp_new(engine, params, work):
    doc = engine.doc
    settings = checked_settings(params)
    name = settings.pop("name", None) or numbered_name("Comp", {c["name"] for c in doc["comps"]})
    comp = new_comp(doc, name, **settings)
    doc["comps"].append(comp)
    return {"comp": comp["id"], "name": comp["name"]}


@command("comp.set", "Change a composition",
         "Change a comp's name, size, frame rate, duration, background, audioSampleRate, its "
         "sound's master bus (audioLimiter, audioCeiling, audioLoudness), bitDepth, "
         "linearBlending or motion blur. Layers "
         "keep their times in seconds.",
         {"comp": COMP_REF, **SETTINGS, "motionBlur": MOTION_BLUR}, required=("comp",))
def comp_set(engine, params, work):
    comp = find_comp(engine.doc, params["comp"])
    comp.update(checked_settings(params, comp))
    if "motionBlur" in params:
        blur = dict(comp["motionBlur"])
        for key, value in params["motionBlur"].items():
            kind = MOTION_BLUR_KINDS.get(key)
            if kind is None:
                raise CommandError(f"motionBlur takes enabled, samples and shutterAngle, not "
                                   f"{key!r}.")
            try:
                blur[key] = check_value(kind, value)
            except ValueError as error:
                raise CommandError(f"motionBlur.{key}: {error}.") from None
        comp["motionBlur"] = blur
    return comp_summary(comp, document=engine.doc)


@command("comp.remove", "Remove a composition",
         "Remove a comp. Refused while a precomp layer shows it or a render queue item renders "
         "it, naming them, so nothing is left pointing at nothing.",
         {"comp": COMP_REF}, required=("comp",))
def comp_remove(engine, params, work):
    doc = engine.doc
    comp = find_comp(doc, params["comp"])
    users = [f"layer {layer['name']!r} of comp {other['name']!r}"
             for other in doc["comps"] for layer in other["layers"]
             if layer["type"] == "precomp" and layer["content"]["source"] == comp["id"]]
    users += [f"render queue item {item['id']}" for item in doc["renderQueue"]
              if item["comp"] == comp["id"]]
    if users:
        raise CommandError(f"comp {comp['name']!r} is still used by {', '.join(users)}; remove "
                           "those first.")
    doc["comps"].remove(comp)
    return {"removed": comp["id"], "name": comp["name"]}


@command("comp.duplicate", "Duplicate a composition",
         "Copy a comp with all its layers (new ids; parents point at the copies); returns {comp}.",
         {"comp": COMP_REF, "name": {"type": "string", "description": "the copy's name "
                                     "(default: the original's name and a number)"}},
         required=("comp",))
def comp_duplicate(engine, params, work):
    doc = engine.doc
    original = find_comp(doc, params["comp"])
    copy_ = copy.deepcopy(original)
    copy_["id"] = allocate_id(doc, "comp")
    copy_["name"] = params.get("name") or unique_name(original["name"],
                                                      {c["name"] for c in doc["comps"]})
    renew_ids(doc, copy_)  # its markers
    renamed = {}
    for layer in copy_["layers"]:
        renamed[layer["id"]] = allocate_id(doc, "layer")
        layer["id"] = renamed[layer["id"]]
        renew_ids(doc, layer)
    for layer in copy_["layers"]:
        if layer["parent"] is not None:
            layer["parent"] = renamed[layer["parent"]]
    for scene in copy_.get("scenes") or []:
        scene["id"] = allocate_id(doc, "scene")
        scene["layer"] = renamed[scene["layer"]]
    doc["comps"].insert(doc["comps"].index(original) + 1, copy_)
    return {"comp": copy_["id"], "name": copy_["name"]}


@command("comp.list", "List compositions",
         "Every comp with its size, frame rate, duration, frame count and layer count.",
         kind="read")
def comp_list(engine, params, work):
    return {"comps": [comp_summary(comp, document=engine.doc) for comp in engine.doc["comps"]]}
