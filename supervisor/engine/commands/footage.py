"""Footage commands: import, list, replace, set (its colour space), remove.

Footage is probed when it enters the project (supervisor/engine/footage_probe.py, on a probe
worker); a file that is later moved or deleted stays in the project and is reported as missing,
by name, in footage.list, project.info and doc_inspect, never as a crash.
"""

from __future__ import annotations

from protocol.model.audio import footage_sounds
from protocol.model.document import allocate_id
from supervisor.engine.commands.lookup import find_footage
from supervisor.engine.commands.overview import footage_summary
from supervisor.engine.color_settings import check_color_space
from supervisor.engine.commands.registry import FOOTAGE_REF, READ_PATH, command, formatted
from supervisor.errors import CommandError
from supervisor.engine.footage_probe import layer_types_showing, still_shown
from supervisor.engine.footage_reads import probed

PATH = formatted(READ_PATH, "an image, a video, an image sequence as a pattern with [####] for "
                            "the frame number (/shots/plate_[####].png), a folder of numbered "
                            "images, an SVG (vector), a Lottie animation (.json, .lottie), or a "
                            "sound file (WAV, FLAC, MP3, AAC, M4A, Ogg, Opus)")
# Which layer type shows footage of each kind (an audio layer also plays a video's sound).
SHOWN_BY = {"image": "image", "vector": "image", "video": "video", "sequence": "video",
            "lottie": "lottie", "audio": "audio"}


def _users(doc: dict, footage: dict) -> list[str]:
    """The layers showing `footage`, as `'Name' in comp 'Main'`."""
    return [f"{layer['name']!r} in comp {comp['name']!r}" for comp in doc["comps"]
            for layer in comp["layers"] if "footage" in layer["content"]
            and layer["content"]["footage"] == footage["id"]]


def article(word: str) -> str:
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def check_shown_by(footage: dict, kind: str) -> None:
    """CommandError unless a `kind` layer can show (or play) `footage`."""
    if kind == "audio" and footage["kind"] == "video":
        if not footage_sounds(footage):
            raise CommandError(f"footage {footage['name']!r} has no sound (its file has no "
                               "audio stream), so an audio layer would play nothing; import a "
                               "sound file, or show the clip with a video layer.")
        return
    if SHOWN_BY[footage["kind"]] != kind:
        what = "sound" if footage["kind"] == "audio" else article(footage["kind"])
        raise CommandError(f"footage {footage['name']!r} is {what}; "
                           f"show it with {article(SHOWN_BY[footage['kind']])} layer.")


FRAME_RATE = {"type": "number", "description": "an image sequence's frame rate (default 30)"}
COLOR_SPACE = {"type": ["string", "null"], "description": "the colour space its pixels are in, "
               "a name of the project's OpenColorIO config (sRGB Encoded Rec.709 (sRGB), "
               "Linear Rec.709 (sRGB), ACEScg, ACEScct, a camera's log...); used while the "
               "project has colorManagement; null or absent: sRGB"}


def import_footage(engine, path: str, name: str | None = None,
                   frame_rate: float | None = None, work=None) -> tuple[dict, bool, list[str]]:
    """The footage item for `path`, imported now or (the same file) already; whether it is
    new; and the probe's warnings (an SVG's text, a Lottie file's unsupported features).
    layer.add with a path uses this too, so a file is only ever imported once."""
    fields = probed(engine, path, frame_rate, work)
    warnings = fields.pop("warnings", [])
    for existing in engine.doc["footage"]:
        if existing["path"] == fields["path"]:
            return existing, False, warnings
    footage = {"id": allocate_id(engine.doc, "footage"), **fields}
    if name:
        footage["name"] = name
    engine.doc["footage"].append(footage)
    return footage, True, warnings


@command("footage.import", "Import footage",
         "Import an image, an image sequence, a video, an SVG (kind vector, drawn sharp at any "
         "scale), a Lottie animation (.json or .lottie, kind lottie, shown by a lottie "
         "layer) or a sound file (WAV, FLAC, MP3, AAC, M4A, Ogg, Opus: kind audio, played by an "
         "audio layer): probes its size (and frame rate, duration and frame count for "
         "sequences, video and Lottie; whether a video has sound, hasAudio; a sound's "
         "duration, sampleRate and channels). Importing a file already in the project returns "
         "the existing item. "
         "Returns {footage} (its id), what was probed, and warnings about what will not draw "
         "as meant.",
         {"path": PATH, "name": {"type": "string", "description": "the item's name (default: the "
                                 "file name)"}, "frameRate": FRAME_RATE,
          "colorSpace": COLOR_SPACE},
         required=("path",), waits_on="probe")
def footage_import(engine, params, work):
    footage, new, warnings = import_footage(engine, params["path"], params.get("name"),
                                            params.get("frameRate"), work)
    _set_color_space(engine, footage, params)
    result = {"footage": footage["id"], "new": new, **footage_summary(footage)}
    return {**result, "warnings": warnings} if warnings else result


@command("footage.list", "List footage",
         "Every footage item with its file, kind and size; items whose file is gone have "
         "missing: true.", kind="read")
def footage_list(engine, params, work):
    items = [footage_summary(f) for f in engine.doc["footage"]]
    result = {"footage": items}
    missing = [item["name"] for item in items if item.get("missing")]
    if missing:
        result["missing"] = missing
    return result


@command("footage.replace", "Replace footage",
         "Point a footage item at another file (re-probed); every layer using it shows the new "
         "file.",
         {"footage": FOOTAGE_REF, "path": PATH, "frameRate": FRAME_RATE},
         required=("footage", "path"), waits_on="probe")
def footage_replace(engine, params, work):
    footage = find_footage(engine.doc, params["footage"])
    fields = probed(engine, params["path"], params.get("frameRate"), work)
    warnings = fields.pop("warnings", [])
    unfit = sorted(layer_type for layer_type in layer_types_showing(engine.doc, footage)
                   if not still_shown(layer_type, fields))
    if unfit:
        # Image and video layers draw any picture; a lottie layer only a Lottie animation, and
        # an audio layer only sound.
        raise CommandError(f"footage {footage['name']!r} is {footage['kind']} footage shown by "
                           f"layer {', '.join(_users(engine.doc, footage))}, and "
                           f"{params['path']} is {fields['kind']} footage"
                           f"{' without sound' if unfit[0] == 'audio' else ''}, which "
                           f"{article(unfit[0])} layer does not show; import it as new footage "
                           "for a new layer instead.")
    for key in ("width", "height", "frameRate", "duration", "frameCount", "firstFrame",
                "hasAudio", "sampleRate", "channels"):
        footage.pop(key, None)
    footage.update(fields)
    result = {"footage": footage["id"], **footage_summary(footage)}
    return {**result, "warnings": warnings} if warnings else result


def _set_color_space(engine, footage: dict, params: dict) -> None:
    if "colorSpace" not in params:
        return
    if params["colorSpace"] is None:
        footage.pop("colorSpace", None)
    else:
        footage["colorSpace"] = check_color_space(engine.doc, params["colorSpace"])


@command("footage.set", "Change footage",
         "Set the colour space a footage item's pixels are in (colorSpace, a name of the "
         "project's OpenColorIO config; null: sRGB). It is turned into the working space "
         "while the project has colorManagement.",
         {"footage": FOOTAGE_REF, "colorSpace": COLOR_SPACE},
         required=("footage", "colorSpace"))
def footage_set(engine, params, work):
    footage = find_footage(engine.doc, params["footage"])
    _set_color_space(engine, footage, params)
    return {"footage": footage["id"], **footage_summary(footage)}


@command("footage.remove", "Remove footage",
         "Remove a footage item. Refused while a layer shows it, naming the layers; a comp using "
         "it as its proxy stops doing so.",
         {"footage": FOOTAGE_REF}, required=("footage",))
def footage_remove(engine, params, work):
    doc = engine.doc
    footage = find_footage(doc, params["footage"])
    users = _users(doc, footage)
    if users:
        raise CommandError(f"footage {footage['name']!r} is shown by layer "
                           f"{', '.join(users)}; remove those layers or replace the footage.")
    for comp in doc["comps"]:
        if comp.get("proxy") == footage["id"]:
            comp["proxy"] = None
    doc["footage"].remove(footage)
    return {"removed": footage["id"], "name": footage["name"]}
