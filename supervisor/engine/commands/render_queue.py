"""Render queue commands: add, set, list, remove, duplicate, formats (document edits), and
render, stop (delegated to the session's render service, see render.py).

An item stores what it was given (docs/document.md, "Render queue items"); its `output` is made
absolute when the item is added, by protocol/model/output_names.py (through `new_item_output` here),
which holds the naming rules (docs/outputs.md) for every part of rendervisor.
"""

from __future__ import annotations

import copy
import os

from protocol.model.codec_options import (CodecOptionRefused, accepted_options,
                                          check_audio_options, check_codec_options)
from protocol.model.document import ITEM_AUDIO_KEYS, ITEM_OPTIONS, new_queue_item
from protocol.model.frame_spec import frame_ranges
from protocol.model.keyframes import frame_count
from protocol.model.output_formats import FORMATS, UnknownFormatError, formats_listing
from protocol.model.values import check_value
from protocol.model.output_names import (OutputNameError, expand_fields, format_for_output,
                                         output_for_new_item, resolve_output, unknown_fields)
from protocol.model.template_params import (ParamError, TargetError, find_param, item_fields,
                                            names_listed, resolved_values)
from supervisor.engine.commands.lookup import find_comp, find_item
from supervisor.engine.commands.overview import item_summary
from supervisor.engine.commands.registry import (COMP_REF, ITEM_REF, OUTPUT_PATH, command,
                                                 formatted, probes_given)
from supervisor.errors import CommandError
from supervisor.engine.color_settings import check_view
from supervisor.engine.commands.render import render_command
from supervisor.engine.template_values import checked_values

ITEM_PARAMS = {
    "output": formatted(OUTPUT_PATH, "the file (video) or pattern (sequence: [####] is the frame "
                        "number, [compName] the comp's name; default [compName].ext in the "
                        "saved project's folder)"),
    "format": {"type": "string", "enum": list(FORMATS), "description": "default: from the "
               "output's extension, else h264"},
    "frames": {"type": ["string", "null"], "description": "comp frames from 0: N, A-B, A-, "
               "A-BxS (every Sth frame, 0-100x5) or a "
               "comma list (0-29,60); null or absent: the whole comp"},
    "skipExisting": {"type": "boolean", "description": "leave frames whose file is a whole "
                     "image; a video resumes from the segments an earlier render left"},
    "scale": {"type": "number", "description": "the size frames are drawn at, a fraction of "
              "the comp's (0.5: half width and height, a quick draft); above 0, at most 1 "
              "(default)"},
    "startNumber": {"type": "integer", "minimum": 0, "description": "a sequence's file "
                    "number for comp frame 0 (1001: frame 0 is [####] 1001); default 0"},
    "resume": {"type": "boolean", "description": "a video takes the finished segments an "
               "earlier render of it left (failed, stopped or lost), rendering only the rest"},
    "display": {"type": "string", "description": "a colour-managed project's display for this "
                "output (its OpenColorIO config's; default the config's default, sRGB - "
                "Display in the built-in configs)"},
    "view": {"type": "string", "description": "the view of that display (default the "
             "display's default, an ACES tone map in the built-in configs; Un-tone-mapped "
             "keeps sRGB colours as they were drawn)"},
    "colorTags": {"type": "string", "enum": ["bt709", "bt2020-pq"], "description": "the "
                  "video's colour tags: bt709 (default), or bt2020-pq for HDR10 (hevc, "
                  "10-bit, or prores; needs colorManagement, and shows on Rec.2100-PQ - "
                  "Display unless display says otherwise; mastering metadata through "
                  "x265-params master-display and max-cll)"},
    "codecOptions": {"type": "object", "description": 'encoder options from the format\'s '
                     'list (renderQueue.formats), e.g. {"preset": "veryfast", "crf": "20"}'},
    "audio": {"type": ["boolean", "null"], "description": "carry the comp's sound (default, "
              "null: yes when the comp has sound and the format carries it; a wav always "
              "does)"},
    "audioCodec": {"type": ["string", "null"], "description": "aac (h264, hevc, av1, prores), "
                   "pcm_s16le or pcm_s24le (prores, wav), pcm_f32le (wav), opus (vp9); null: "
                   "the format's first"},
    "audioBitrate": {"type": ["string", "integer", "null"], "description": "bits per second "
                     "for aac or opus (192k, 128000); null: the codec's default"},
    "params": {"type": "object", "description": "template values this item renders with: "
               "NAME -> value (template.list lists the params; the others take their "
               "defaults); the project itself is unchanged"},
}


def _output_error(error: OutputNameError) -> CommandError:
    return CommandError(f"{error}.")


def new_item_output(engine, comp: dict, output: str | None, format: str,
                    frames: str | None) -> str:
    """The absolute output (path or pattern) a new item stores: protocol/model/output_names.py's
    rules (relative to the saved project's folder, default `[compName].ext` numbered past the other
    items' files, `_[#####]` for sequences). The one place renderQueue.add names an output."""
    try:
        return output_for_new_item(engine.doc, comp, output, format, frames,
                                   engine.project_path, confined=engine.confined,
                                   working_directory=os.getcwd())
    except OutputNameError as error:
        raise _output_error(error) from None


def _format(output: str | None, format: str | None) -> str:
    try:
        return format_for_output(output, format)
    except (OutputNameError, UnknownFormatError) as error:
        raise _output_error(error) from None


def _frames(params: dict, comp: dict):
    spec = params.get("frames")
    if spec is not None:
        # refuses bad specs, as ranges: "0-" of a long comp is one range, not a million frames
        frame_ranges(spec, frame_count(comp["duration"], comp["frameRate"]))
    return spec


def _audio_settings(settings: dict, format: str, owner: str) -> dict:
    """The audio settings, once the format can take them (None: the default)."""
    try:
        check_audio_options(format, settings.get("audio"), settings.get("audioCodec"),
                            settings.get("audioBitrate"), owner)
    except CodecOptionRefused as error:
        raise CommandError(str(error)) from None
    return settings


def _template_values(engine, given) -> dict:
    """An item's params, checked (every value of its param's type, its footage files there,
    every required param given), as the item stores them."""
    try:
        checked = checked_values(engine, engine.doc, given)
        resolved_values(engine.doc, checked)
    except ParamError as error:
        raise CommandError(f"param {error.name!r}: {error}." if error.name
                           else f"params: {error}.") from None
    except TargetError as error:
        raise CommandError(f"{error}.") from None
    return checked


def _check_output_fields(engine, output: str, item: dict) -> None:
    """Refuse an output whose [param:NAME] names no param, or one without a value here, or
    whose fields filled in make no safe name (output_names.expand_fields)."""
    fields = item_fields(engine.doc, item)
    for name in unknown_fields(output, fields):
        why = (f"there is no param {name!r} (the params are {names_listed(engine.doc)})"
               if find_param(engine.doc, name) is None else
               f"{name} has no default and the item gives it no value")
        raise CommandError(f"output {output!r} names [param:{name}], but {why}.")
    try:
        expand_fields(output, find_comp(engine.doc, item["comp"])["name"], fields)
    except OutputNameError as error:
        raise CommandError(f"output {output!r}: {error}.") from None


def _codec_options(options, format: str, owner: str) -> dict:
    """The options as given, once protocol/model/codec_options.py's list for the format allows
    them (an item stores what it was given)."""
    try:
        check_codec_options(format, options, owner)
    except CodecOptionRefused as error:
        raise CommandError(str(error)) from None
    return options or {}


def _set_options(doc: dict, item: dict, params: dict) -> None:
    """Store the optional item keys the params give (document.py's ITEM_OPTIONS)."""
    for key, kind in ITEM_OPTIONS.items():
        if key in params:
            try:
                item[key] = check_value(kind, params[key])
            except ValueError as error:
                raise CommandError(f"{key}: {error}.") from None
    if not 0 < item.get("scale", 1) <= 1:
        raise CommandError(f"scale is a fraction of the comp's size above 0 and at most 1 "
                           f"(0.5 for a half-size draft), got {item['scale']}.")
    if item.get("startNumber") and not FORMATS[item["format"]].is_sequence:
        raise CommandError(f"startNumber numbers the files of an image sequence, but "
                           f"{item['format']} writes one video file; leave it out, or choose "
                           "png or jpeg.")
    check_view(doc, item.get("display"), item.get("view"))
    if item.get("colorTags", "bt709") != "bt709":
        if item["format"] not in ("hevc", "prores"):
            raise CommandError(f"colorTags {item['colorTags']} tags HEVC or ProRes video, and "
                               f"this item is {item['format']}; choose hevc or prores, or "
                               "leave colorTags out.")
        if not doc.get("colorManagement"):
            raise CommandError("colorTags bt2020-pq (HDR10) needs pictures encoded with the "
                               "PQ curve, which a colour-managed project makes: set "
                               "colorManagement with project.set first.")


@command("renderQueue.add", "Queue a render",
         "Add a comp to the render queue with an output, a format (png, jpeg, h264, hevc, "
         "av1, prores, vp9, gif, or wav for the sound alone), frames, skipExisting, scale "
         "(0.5 for a half-size draft), encoder options, "
         "its sound (audio, audioCodec, audioBitrate) and template params (values for the "
         "project's params, for this item only). Returns {item, output} with output resolved "
         "to an absolute path or pattern ([param:NAME] fills in a param's value).",
         {"comp": COMP_REF, **ITEM_PARAMS}, required=("comp",),
         waits_on=probes_given("params"))
def queue_add(engine, params, work):
    doc = engine.doc
    comp = find_comp(doc, params["comp"])
    format = _format(params.get("output"), params.get("format"))
    frames = _frames(params, comp)
    owner = f"the new item of comp {comp['name']!r}"
    options = _codec_options(params.get("codecOptions"), format, owner)
    audio = _audio_settings({key: params.get(key) for key in ITEM_AUDIO_KEYS}, format, owner)
    output = new_item_output(engine, comp, params.get("output"), format, frames)
    engine.check_path(output, "write")
    item = new_queue_item(doc, comp["id"], output, format, frames,
                          params.get("skipExisting", False), options, audio)
    _set_options(doc, item, params)
    if "params" in params:
        item["params"] = _template_values(engine, params["params"])
    _check_output_fields(engine, output, item)
    doc["renderQueue"].append(item)
    return {"item": item["id"], "output": output, "format": format,
            "index": len(doc["renderQueue"])}


@command("renderQueue.set", "Change a queued render",
         "Change a queue item's comp, output, format, frames, skipExisting, codecOptions, "
         "sound (audio, audioCodec, audioBitrate; null returns one to its default) or params "
         "(replacing the item's values); the item is queued again.",
         {"item": ITEM_REF, "comp": COMP_REF, **ITEM_PARAMS}, required=("item",),
         waits_on=probes_given("params"))
def queue_set(engine, params, work):
    doc = engine.doc
    item = find_item(doc, params["item"])
    comp = find_comp(doc, params.get("comp", item["comp"]))
    item["comp"] = comp["id"]
    format_before = item["format"]
    output = params.get("output", item["output"])
    # A new output implies its own format; a new format must suit the output it will write.
    item["format"] = _format(output, params.get("format", None if "output" in params
                                                 else item["format"]))
    if "output" in params:
        try:
            item["output"] = resolve_output(params["output"], item["format"],
                                            engine.project_path, confined=engine.confined,
                                            working_directory=os.getcwd())
        except OutputNameError as error:
            raise _output_error(error) from None
        engine.check_path(item["output"], "write")
    if "frames" in params or "comp" in params:
        item["frames"] = _frames({"frames": params.get("frames", item["frames"])}, comp)
    if "skipExisting" in params:
        item["skipExisting"] = params["skipExisting"]
    _set_options(doc, item, params)
    if "params" in params:
        item["params"] = _template_values(engine, params["params"])
    if "params" in params or "output" in params or "comp" in params:
        _check_output_fields(engine, item["output"], item)
    # A new format needs options it accepts. Options left as they were stored (a project
    # file's, perhaps) are not refused here but by the render, item by item.
    if "codecOptions" in params or item["format"] != format_before:
        item["codecOptions"] = _codec_options(params.get("codecOptions", item["codecOptions"]),
                                              item["format"], item["id"])
    for key in ITEM_AUDIO_KEYS:
        if key in params:
            item[key] = params[key]
            if item[key] is None:
                del item[key]
    _audio_settings(item, item["format"], item["id"])
    item["status"] = "queued"
    engine.item_progress.pop(item["id"], None)
    return item_summary(engine, item)


@command("renderQueue.list", "List the render queue",
         "The queue's items in order, with comp, output, format, frames, status (queued, "
         "rendering, done, failed, stopped) and progress while rendering.", kind="read")
def queue_list(engine, params, work):
    return {"items": [item_summary(engine, item) for item in engine.doc["renderQueue"]]}


@command("renderQueue.remove", "Remove a queued render",
         "Remove an item from the render queue.", {"item": ITEM_REF}, required=("item",))
def queue_remove(engine, params, work):
    item = find_item(engine.doc, params["item"])
    engine.doc["renderQueue"].remove(item)
    return {"removed": item["id"]}


@command("renderQueue.duplicate", "Duplicate a queued render",
         "A verbatim copy of an item (same comp, output, format, frames, options; a new id), "
         "queued just after it.", {"item": ITEM_REF}, required=("item",))
def queue_duplicate(engine, params, work):
    doc = engine.doc
    original = find_item(doc, params["item"])
    copy_ = new_queue_item(doc, original["comp"], original["output"], original["format"],
                           original["frames"], original["skipExisting"],
                           original["codecOptions"], original)
    if "params" in original:
        copy_["params"] = copy.deepcopy(original["params"])
    copy_.update({key: original[key] for key in ITEM_OPTIONS if key in original})
    doc["renderQueue"].insert(doc["renderQueue"].index(original) + 1, copy_)
    return {"item": copy_["id"], "output": copy_["output"],
            "index": doc["renderQueue"].index(copy_) + 1}


@command("renderQueue.formats", "Output formats",
         "The output formats: extension, whether it is an image sequence, codec, alpha, "
         "profiles, default codec options, and the codecOptions each accepts with the shape "
         "of their values.", kind="read")
def queue_formats(engine, params, work):
    return {"formats": [{**entry, "codecOptions": accepted_options(entry["format"])}
                        for entry in formats_listing()]}


render_command(
    "renderQueue.render", "Render the queue",
    "Render every queued item. wait (default true) blocks until done, with progress, and returns "
    "{completed, failed, items: [{item, status, output, error?}]}; wait false returns the ids "
    "being rendered and a job at once (follow it with the render_status tool, or poll "
    "renderQueue.list; stop with renderQueue.stop). A render longer than a few seconds is "
    "better started with the render_start tool: a host may cut a long request off. Only one "
    "render runs at a time.",
    {"wait": {"type": "boolean", "description": "block until done (default true)"}},
    method="render")

render_command(
    "renderQueue.estimate", "Estimate a render's time",
    "How many seconds an item will take to render: a few of its frames (at most 6, from its "
    "first to its last) are drawn and encoded as the render would, on the preview worker, "
    "and their time scaled to the item's frames (those left to write, with skipExisting) "
    "shared among the render workers. Returns {item, seconds, frames, sampled, perFrame, "
    "workers}. A guide, not a promise: other work on the machine slows a render.",
    {"item": ITEM_REF}, required=("item",), method="estimate")

render_command(
    "renderQueue.stop", "Stop rendering",
    "Stop the running render; finished items and frames are kept, partial files removed.",
    method="stop")
