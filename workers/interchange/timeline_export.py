"""A comp as an OpenTimelineIO timeline (docs/interchange.md, "Export").

    comp ──layer roles (protocol/model/timeline_layers.py)──► placed items, bottom layer first
         ──packed onto tracks──► Timeline ──the format's adapter──► the file

Packing: each item goes on the highest track of its kind if it overlaps nothing there, else on
a new track above, so a layer always sits above every layer it covers, and a cut of shots one
after another stays one track. Times: the record side counts comp frames at the comp's rate; a
clip's source range is in its media's own time (a video's frames at its rate), its speed a
LinearTimeWarp. A graphics run is a clip of its pre-rendered file, or a warning.

Runs in a worker: OpenTimelineIO and its adapters never load in the supervisor.
"""

from __future__ import annotations

import copy
import os
import pathlib
from dataclasses import dataclass
from typing import Callable

import opentimelineio as otio

from protocol.model.audio import SILENCE_DB, footage_sounds, layer_audio
from protocol.model.keyframes import frame_count, is_animated, static_value
from protocol.model.time_remap import source_time
from protocol.model.timeline_formats import TIMELINE_FORMATS, TimelineFormat, format_rate
from protocol.model.timeline_layers import (frame_range, graphics_runs, layer_role,
                                            why_graphics)
from workers.exporter import OpenedFiles
from workers.exporter.atomic_files import publish, temporary_path
from workers.tasks import TaskError

# Metadata namespace of what rendervisor knows that the format has no field for (a layer's
# name and sound level); an import reads it back.
METADATA = "rendervisor"


@dataclass
class Placed:
    """One item for a track: its kind, the comp frames it covers, and how to make it."""
    kind: str  # otio.schema.TrackKind.Video or .Audio
    first: int
    end: int
    make: Callable[[], otio.core.Item]


def write_timeline(doc: dict, comp: dict, path: str, format_name: str,
                   graphics: dict[str, str]) -> dict:
    """Write `comp`'s timeline to `path` in `format_name`; {path, tracks, clips, warnings}.
    `graphics` maps a graphics run's key to its pre-rendered file."""
    form = TIMELINE_FORMATS[format_name]
    warnings: list[str] = []
    doc = _at_format_rates(doc, form)
    comp = next(c for c in doc["comps"] if c["id"] == comp["id"])
    timeline = comp_timeline(doc, comp, form, graphics, warnings)
    if form.one_video_track:
        timeline = _one_video_track(timeline, warnings)
    opened = OpenedFiles()
    temporary = temporary_path(path, "timeline")
    opened.add(temporary)
    try:
        otio.adapters.write_to_file(timeline, temporary, adapter_name=form.adapter)
        publish(temporary, path, opened)
    except BaseException:
        opened.remove_all()
        raise
    clips = list(timeline.find_clips())
    return {"path": path, "format": format_name, "tracks": len(timeline.tracks),
            "clips": len(clips), "warnings": warnings}


def _at_format_rates(doc: dict, form: TimelineFormat) -> dict:
    """The document with every comp's and video's rate as the format writes it; TaskError
    naming the first the format cannot write."""
    if not form.rates:
        return doc
    doc = copy.deepcopy(doc)
    for kind, items in (("comp", doc["comps"]), ("footage", doc["footage"])):
        for item in items:
            if "frameRate" not in item:
                continue
            rate = format_rate(form, float(item["frameRate"]))
            if rate is None:
                raise TaskError(f"{form.description} holds "
                                + ", ".join(f"{known:g}" for known in form.rates)
                                + f" fps; {kind} {item['name']!r} runs at "
                                  f"{item['frameRate']:g} fps. Export OTIO or FCP 7 XML, or "
                                  "change the rate.")
            item["frameRate"] = rate
    return doc


def comp_timeline(doc: dict, comp: dict, form: TimelineFormat, graphics: dict[str, str],
                  warnings: list[str]) -> otio.schema.Timeline:
    timeline = otio.schema.Timeline(name=comp["name"])
    timeline.global_start_time = otio.opentime.RationalTime(0, comp["frameRate"])
    timeline.tracks = _stack(doc, comp, form, graphics, warnings)
    return timeline


def _stack(doc: dict, comp: dict, form: TimelineFormat, graphics: dict[str, str],
           warnings: list[str]) -> otio.schema.Stack:
    """The comp's tracks (video bottom first, then audio), padded to the comp's length, with
    its markers."""
    rate = comp["frameRate"]
    placed = _placed(doc, comp, form, graphics, warnings)
    length = frame_count(comp["duration"], rate)
    stack = otio.schema.Stack(name=comp["name"])
    for kind, prefix in ((otio.schema.TrackKind.Video, "V"), (otio.schema.TrackKind.Audio, "A")):
        tracks = _packed([item for item in placed if item.kind == kind], rate, length)
        if not tracks and kind == otio.schema.TrackKind.Video:
            tracks = [_track([], rate, length)]
        for number, track in enumerate(tracks, 1):
            track.name, track.kind = f"{prefix}{number}", kind
            stack.append(track)
    for marker in comp["markers"]:
        stack.markers.append(_marker(marker, rate, 0.0))
    return stack


def _placed(doc: dict, comp: dict, form: TimelineFormat, graphics: dict[str, str],
            warnings: list[str]) -> list[Placed]:
    """Every item the comp's layers make, bottom layer first."""
    runs = {run.layers[-1]: run for run in graphics_runs(doc, comp, form.nests)}
    footage = {item["id"]: item for item in doc["footage"]}
    comps = {c["id"]: c for c in doc["comps"]}
    placed: list[Placed] = []
    for layer in reversed(comp["layers"]):
        role = layer_role(doc, comp, layer, form.nests)
        first, end = frame_range(comp, [layer])
        if role == "none" or end <= first:
            continue
        if role == "graphics":
            run = runs.get(layer["id"])  # a run is placed at its bottom layer
            if run is None:
                continue
            if run.key in graphics:
                placed.append(Placed(otio.schema.TrackKind.Video, run.first, run.end,
                                     _graphics_clip(comp, run, graphics[run.key])))
            else:
                warnings.extend(_left_out(doc, comp, run))
            continue
        speed = float(layer["content"].get("speed", 100))
        if speed != 100 and not form.speeds:
            warnings.append(f"layer {layer['name']!r} of comp {comp['name']!r} plays at "
                            f"{speed:g}% speed, which OpenTimelineIO's {form.name} writer "
                            "leaves out: an editor plays it at 100%; export OTIO or an EDL to "
                            "keep the speed")
        if role == "nested":
            source = comps[layer["content"]["source"]]
            placed.append(Placed(otio.schema.TrackKind.Video, first, end,
                                 _nested(doc, comp, layer, source, form, graphics, warnings,
                                         first, end)))
            continue
        item = footage[layer["content"]["footage"]]
        if layer["type"] != "audio":
            placed.append(Placed(otio.schema.TrackKind.Video, first, end,
                                 _clip_maker(comp, layer, item, first, end, form, warnings)))
        sounds = layer["type"] == "audio" or footage_sounds(item)
        if sounds and not layer_audio(layer)["muted"]:
            placed.append(Placed(otio.schema.TrackKind.Audio, first, end,
                                 _clip_maker(comp, layer, item, first, end, form, warnings,
                                             sound=True)))
    return placed


def _left_out(doc: dict, comp: dict, run) -> list[str]:
    layers = {layer["id"]: layer for layer in comp["layers"]}
    return [f"layer {layers[layer_id]['name']!r} of comp {comp['name']!r} is not in the "
            f"timeline ({why_graphics(doc, comp, layers[layer_id])}); export with "
            "renderGraphics (--render-graphics) to place it as a pre-rendered clip"
            for layer_id in run.layers]


def _packed(placed: list[Placed], rate: float, length: int) -> list[otio.schema.Track]:
    tracks: list[list[Placed]] = []
    for item in placed:
        top = tracks[-1] if tracks else None
        if top is not None and all(item.end <= other.first or other.end <= item.first
                                   for other in top):
            top.append(item)
        else:
            tracks.append([item])
    return [_track(items, rate, length) for items in tracks]


def _track(items: list[Placed], rate: float, length: int) -> otio.schema.Track:
    """A track of `items` in time order, gaps between them, padded to `length` frames."""
    track = otio.schema.Track()
    at = 0
    for item in sorted(items, key=lambda placed: placed.first):
        if item.first > at:
            track.append(_gap(item.first - at, rate))
        track.append(item.make())
        at = item.end
    if length > at:
        track.append(_gap(length - at, rate))
    return track


def _gap(frames: int, rate: float) -> otio.schema.Gap:
    return otio.schema.Gap(source_range=otio.opentime.TimeRange(
        otio.opentime.RationalTime(0, rate), otio.opentime.RationalTime(frames, rate)))


def _clip_maker(comp: dict, layer: dict, footage: dict, first: int, end: int,
                form: TimelineFormat, warnings: list[str],
                sound: bool = False) -> Callable[[], otio.core.Item]:
    def make() -> otio.schema.Clip:
        rate = comp["frameRate"]
        media_rate = float(rate if form.sources_at_timeline_rate
                           else footage.get("frameRate") or rate)
        start = source_time(layer, first / rate, None)
        clip = otio.schema.Clip(
            name=layer["name"], media_reference=_media(footage, media_rate),
            source_range=otio.opentime.TimeRange(
                otio.opentime.RationalTime.from_seconds(start, media_rate),
                otio.opentime.RationalTime.from_seconds((end - first) / rate, media_rate)))
        speed = float(layer["content"].get("speed", 100))
        if speed != 100:
            clip.effects.append(otio.schema.LinearTimeWarp(time_scalar=speed / 100))
        clip.metadata[METADATA] = {"layer": layer["name"]}
        if sound:
            clip.metadata[METADATA]["level"] = _level(comp, layer, warnings)
            clip.metadata["fcp_xml"] = _fcp7_level(clip.metadata[METADATA]["level"])
        for marker in layer.get("markers", []):
            clip.markers.append(_marker(marker, media_rate, start - first / rate))
        return clip

    return make


def _media(footage: dict, rate: float) -> otio.schema.ExternalReference:
    reference = otio.schema.ExternalReference(
        target_url=pathlib.Path(footage["path"]).as_uri())
    reference.name = footage["name"]
    if footage.get("duration"):
        reference.available_range = otio.opentime.TimeRange(
            otio.opentime.RationalTime(0, rate),
            otio.opentime.RationalTime.from_seconds(footage["duration"], rate))
    return reference


def _level(comp: dict, layer: dict, warnings: list[str]) -> float:
    """The layer's sound level in dB; keyed levels give their first, with a warning."""
    level = layer_audio(layer)["level"]
    if is_animated(level):
        warnings.append(f"layer {layer['name']!r} of comp {comp['name']!r}: its sound level "
                        "changes over time, which the timeline cannot hold; its first level "
                        f"({static_value(level):g} dB) is written")
    return float(static_value(level))


def _fcp7_level(level_db: float) -> dict:
    """Final Cut Pro 7's Audio Levels filter, a gain (1 is 0 dB), as the FCP 7 XML adapter
    writes metadata under its namespace."""
    gain = 0.0 if level_db <= SILENCE_DB else 10 ** (level_db / 20)
    return {"filter": {"effect": {
        "name": "Audio Levels", "effectid": "audiolevels", "effecttype": "audiolevels",
        "mediatype": "audio", "effectcategory": "audiolevels",
        "parameter": {"parameterid": "level", "name": "Level", "valuemin": "0",
                      "valuemax": "3.98109", "value": f"{gain:.6f}"}}}}


def _graphics_clip(comp: dict, run, path: str) -> Callable[[], otio.core.Item]:
    def make() -> otio.schema.Clip:
        rate = comp["frameRate"]
        layers = {layer["id"]: layer["name"] for layer in comp["layers"]}
        duration = otio.opentime.RationalTime(run.end - run.first, rate)
        reference = otio.schema.ExternalReference(target_url=pathlib.Path(path).as_uri())
        reference.name = os.path.basename(path)
        reference.available_range = otio.opentime.TimeRange(
            otio.opentime.RationalTime(0, rate), duration)
        name = " + ".join(layers[layer_id] for layer_id in run.layers)
        clip = otio.schema.Clip(name=name, media_reference=reference,
                                source_range=otio.opentime.TimeRange(
                                    otio.opentime.RationalTime(0, rate), duration))
        clip.metadata[METADATA] = {"graphics": [layers[layer_id] for layer_id in run.layers]}
        return clip

    return make


def _nested(doc: dict, comp: dict, layer: dict, source: dict, form: TimelineFormat,
            graphics: dict[str, str], warnings: list[str], first: int,
            end: int) -> Callable[[], otio.core.Item]:
    def make() -> otio.schema.Stack:
        rate, source_rate = comp["frameRate"], source["frameRate"]
        stack = _stack(doc, source, form, graphics, warnings)
        stack.name = layer["name"]
        start = source_time(layer, first / rate, None)
        stack.source_range = otio.opentime.TimeRange(
            otio.opentime.RationalTime.from_seconds(start, source_rate),
            otio.opentime.RationalTime.from_seconds((end - first) / rate, source_rate))
        speed = float(layer["content"].get("speed", 100))
        if speed != 100:
            stack.effects.append(otio.schema.LinearTimeWarp(time_scalar=speed / 100))
        stack.metadata[METADATA] = {"layer": layer["name"], "comp": source["name"]}
        return stack

    return make


def _marker(marker: dict, rate: float, offset: float) -> otio.schema.Marker:
    """A marker at its comp time, moved by `offset` seconds into its item's own time."""
    return otio.schema.Marker(name=marker["name"], marked_range=otio.opentime.TimeRange(
        otio.opentime.RationalTime.from_seconds(marker["time"] + offset, rate),
        otio.opentime.RationalTime.from_seconds(marker["duration"], rate)))


def _one_video_track(timeline: otio.schema.Timeline, warnings: list[str]) -> otio.schema.Timeline:
    """The timeline as an EDL holds it: its video tracks flattened into one (the topmost clip
    wins where they overlap), no sound."""
    video = [track for track in timeline.tracks if track.kind == otio.schema.TrackKind.Video]
    audio = [track for track in timeline.tracks if track.kind == otio.schema.TrackKind.Audio]
    if len(video) > 1:
        warnings.append(f"an EDL holds one video track: the {len(video)} video tracks were "
                        "flattened into one, the topmost clip showing where they overlap")
    if audio:
        sounds = sum(len(list(track.find_clips())) for track in audio)
        warnings.append(f"an EDL written here holds no sound: {sounds} sound clip(s) were left "
                        "out; export OTIO or FCP XML to keep them")
    flat = otio.algorithms.flatten_stack(video) if len(video) > 1 else video[0].clone()
    flat.name, flat.kind = "V1", otio.schema.TrackKind.Video
    result = otio.schema.Timeline(name=timeline.name)
    result.global_start_time = timeline.global_start_time
    result.tracks.append(flat)
    return result
