"""Reading an editorial timeline (OTIO, FCP X XML, FCP 7 XML, EDL) into the small summary the
supervisor builds a comp from (protocol/model/timeline_summary.py says its shape).

The file is untrusted: it is read on a probe worker (workers/probes/timelines.py: the file the
supervisor opened and checked, within the size limit, under the probe memory limit and
deadline), never in the supervisor, and only what the summary holds goes back. Times become seconds on the record side
(from the timeline's start); a clip's source start is seconds into its media; markers on a clip
move from its media time to the record side. What the summary cannot hold (generators, effects
other than a speed change, image sequences) is named in its warnings.
"""

from __future__ import annotations

import math
import os
import urllib.parse
from collections.abc import Mapping

import opentimelineio as otio

from protocol.model.audio import SILENCE_DB
from protocol.model.timeline_formats import TIMELINE_FORMATS, timeline_format_for
from protocol.model.timeline_summary import MAX_ITEMS, MAX_NESTING
from workers.interchange.timeline_export import METADATA
from workers.tasks import TaskError


def read_timeline(text: str, path: str, frame_rate: float | None = None,
                  shown: str | None = None) -> dict:
    """The summary of the timeline `text` read from `path` (whose extension names its format);
    TaskError with a sentence naming the file (as `shown`, default `path`) otherwise. An EDL
    names no frame rate: `frame_rate` is its (default 24, as OpenTimelineIO reads one)."""
    try:
        return _summary(text, path, frame_rate)
    except TaskError as error:
        raise TaskError(f"cannot import {shown or path}: {error}") from None


def _summary(text: str, path: str, frame_rate: float | None) -> dict:
    form = timeline_format_for(path)
    if form is None:
        raise TaskError("its extension names no timeline format; rendervisor reads " + ", ".join(
            f"{f.extension} ({f.name})" for f in TIMELINE_FORMATS.values()) + ".")
    try:
        options = {"rate": frame_rate} if frame_rate and form == "edl" else {}
        read = otio.adapters.read_from_string(text, adapter_name=TIMELINE_FORMATS[form].adapter,
                                              **options)
    except Exception as error:  # each adapter fails in its own way on a bad file
        raise TaskError(f"it is not a {TIMELINE_FORMATS[form].description} file OpenTimelineIO "
                        f"can read ({type(error).__name__}: {_short(error)}); export it again "
                        "from its editor.") from None
    timeline = _first_timeline(read)
    reader = _Reader()
    summary = reader.stack(timeline.tracks, timeline.name or os.path.basename(path), 0)
    if not _finite(summary):
        raise TaskError("it holds a frame rate or time that is not a finite number; export it "
                        "again from its editor.")
    summary["warnings"] = reader.warnings
    return summary


def _finite(node) -> bool:
    """Whether every number in the summary is finite (a file may say NaN or Infinity)."""
    if isinstance(node, float):
        return math.isfinite(node)
    if isinstance(node, dict):
        return all(_finite(value) for value in node.values())
    if isinstance(node, list):
        return all(_finite(value) for value in node)
    return True


def _first_timeline(read) -> otio.schema.Timeline:
    if isinstance(read, otio.schema.Timeline):
        return read
    if isinstance(read, otio.schema.SerializableCollection):
        timelines = [item for item in read.find_children(descended_from_type=otio.schema.Timeline)]
        if timelines:
            return timelines[0]
    raise TaskError("it holds no timeline (sequence) to import.")


def _short(error: Exception) -> str:
    text = " ".join(str(error).split())
    return text[:200] + ("..." if len(text) > 200 else "")


class _Reader:
    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.items = 0

    def stack(self, stack: otio.schema.Stack, name: str, depth: int) -> dict:
        if depth > MAX_NESTING:
            raise TaskError(f"the timeline nests more than {MAX_NESTING} levels deep; flatten "
                            "it in its editor first.")
        rate = _rate(stack)
        tracks = []
        for index, track in enumerate(stack):
            if not isinstance(track, otio.schema.Track):
                self.warnings.append(f"{type(track).__name__} {track.name!r} inside {name!r} "
                                     "is not a track and was left out")
                continue
            tracks.append(self.track(track, index, depth))
        duration = stack.duration().to_seconds() if len(stack) else 0.0
        return {"name": name, "rate": rate, "duration": duration,
                "markers": [_marker(marker, 0.0, 0.0, 1.0) for marker in stack.markers],
                "tracks": tracks}

    def track(self, track: otio.schema.Track, index: int, depth: int) -> dict:
        kind = "audio" if track.kind == otio.schema.TrackKind.Audio else "video"
        name = track.name or f"{kind} track {index + 1}"
        items = []
        for child in track:
            self.items += 1
            if self.items > MAX_ITEMS:
                raise TaskError(f"the timeline has more than {MAX_ITEMS:,} items; split it "
                                "in its editor first.")
            if isinstance(child, otio.schema.Gap):
                continue
            if isinstance(child, otio.schema.Transition):
                items.append(self.transition(child, track))
            elif isinstance(child, otio.schema.Clip):
                items.append(self.clip(child, name))
            elif isinstance(child, otio.schema.Stack):
                items.append(self.nested(child, depth))
            else:
                self.warnings.append(f"{type(child).__name__} {child.name!r} on track {name!r} "
                                     "is not a clip and was left out")
        return {"name": name, "kind": kind, "items": items}

    def transition(self, transition: otio.schema.Transition, track: otio.schema.Track) -> dict:
        at = track.range_of_child(transition).start_time + transition.in_offset
        return {"type": "transition", "name": transition.name or "",
                "kind": transition.transition_type or "", "at": at.to_seconds(),
                "before": transition.in_offset.to_seconds(),
                "after": transition.out_offset.to_seconds()}

    def timing(self, item, name: str) -> dict:
        """Where an item sits (record seconds), where its source starts, and its speed."""
        placed = item.range_in_parent()
        trimmed = item.trimmed_range()
        speed = 100.0
        for effect in item.effects:
            if isinstance(effect, otio.schema.FreezeFrame):
                speed = 0.0
            elif isinstance(effect, otio.schema.LinearTimeWarp):
                speed = float(effect.time_scalar) * 100
            elif _level_parameter(effect) is None:
                self.warnings.append(f"effect {effect.effect_name or effect.name!r} on "
                                     f"{name!r} was left out: rendervisor reads only a "
                                     "speed change from a timeline")
        return {"name": name, "start": placed.start_time.to_seconds(),
                "duration": placed.duration.to_seconds(),
                "sourceStart": trimmed.start_time.to_seconds(), "speed": speed,
                "markers": _distinct([_marker(marker, placed.start_time.to_seconds(),
                                              trimmed.start_time.to_seconds(), speed / 100 or 1.0)
                                      for marker in item.markers])}

    def clip(self, clip: otio.schema.Clip, track_name: str) -> dict:
        name = clip.name or "clip"
        entry = {"type": "clip", **self.timing(clip, name), "media": None,
                 "enabled": bool(clip.enabled), "level": _level(clip)}
        reference = clip.media_reference
        if isinstance(reference, otio.schema.ExternalReference):
            entry["media"] = _file_path(reference.target_url or "") or None
        elif isinstance(reference, otio.schema.GeneratorReference):
            self.warnings.append(f"clip {name!r} on track {track_name!r} is a generator "
                                 f"({reference.generator_kind or 'unnamed'}), which rendervisor "
                                 "does not make; it was left out")
            entry["enabled"] = False
        elif isinstance(reference, otio.schema.ImageSequenceReference):
            self.warnings.append(f"clip {name!r} on track {track_name!r} is an image sequence; "
                                 "import its frames with footage.import and place them by hand")
            entry["enabled"] = False
        return entry

    def nested(self, stack: otio.schema.Stack, depth: int) -> dict:
        name = stack.name or "nested"
        entry = {"type": "nested", **self.timing(stack, name)}
        entry["timeline"] = self.stack(stack, name, depth + 1)
        if not entry["timeline"]["tracks"]:
            self.warnings.append(f"the nested timeline {name!r} came back with no tracks (the "
                                 "FCP 7 XML reader reads none from a sequence nested in a clip)"
                                 "; it was left out")
        return entry


def _rate(stack: otio.schema.Stack) -> float:
    """The frame rate the stack's times are counted in (its first track's)."""
    for track in stack:
        if len(track):
            return float(track.duration().rate)
    return 24.0


def _marker(marker: otio.schema.Marker, start: float, source_start: float,
            speed: float) -> dict:
    """A marker on the record side: an item's markers are in its media time."""
    at = marker.marked_range.start_time.to_seconds()
    return {"name": marker.name or "marker", "time": start + (at - source_start) / speed,
            "duration": marker.marked_range.duration.to_seconds() / speed}


def _distinct(markers: list[dict]) -> list[dict]:
    """Markers without repeats (the FCP X XML reader gives a clip's markers twice)."""
    seen, kept = set(), []
    for marker in markers:
        key = (marker["name"], round(marker["time"], 6))
        if key not in seen:
            seen.add(key)
            kept.append(marker)
    return kept


def _level(clip: otio.schema.Clip) -> float | None:
    """The clip's sound level in dB, where the file says it: rendervisor's metadata, or Final
    Cut Pro 7's Audio Levels filter (a gain, 1 being 0 dB)."""
    ours = clip.metadata.get(METADATA)
    if isinstance(ours, Mapping) and isinstance(ours.get("level"), (int, float)):
        return float(ours["level"])
    for effect in clip.effects:
        parameter = _level_parameter(effect)
        if parameter is not None:
            try:
                gain = float(parameter.get("value"))
            except (TypeError, ValueError):
                return None
            return SILENCE_DB if gain <= 0 else max(SILENCE_DB, 20 * math.log10(gain))
    return None


def _level_parameter(effect) -> Mapping | None:
    """The level parameter of an FCP 7 Audio Levels filter, or None for any other effect."""
    fields = effect.metadata.get("fcp_xml")
    parameter = fields.get("parameter") if isinstance(fields, Mapping) else None
    if isinstance(parameter, Mapping) and parameter.get("parameterid") == "level":
        return parameter
    return None


def _file_path(url: str) -> str:
    """A media URL or path as a path (a file:// URL decoded; anything else as written); ""
    for none (an empty URL names no file: as a path it would be the timeline's folder)."""
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme == "file":
        return urllib.parse.unquote(parsed.path)
    return url
