"""Comps built from an imported timeline's checked summary (protocol/model/timeline_summary.py;
docs/interchange.md, "Import").

    summary ──media files: footage (probed as footage.import probes, confined the same way)
            ──► a comp of the timeline's rate and length, sized by its first picture
                each clip a layer with its range (in and out points, start time, speed)
                tracks as layer order (the top track's clips on top, sound at the bottom)
                a nested timeline a comp of its own, shown by a precomp layer
                markers on the comp and on the layers

A video clip whose file has sound plays it when the timeline has the same clip on a sound track
(the editor's linked audio), and is muted when it has not; that sound clip makes no layer of its
own. A clip whose file is missing, unreadable or outside the roots is listed in `missing` by name
and makes no layer. Transitions are listed in the warnings: a comp has no transitions between
layers to hold them.

Runs inside one engine edit, so the import is one undo step.
"""

from __future__ import annotations

import os

from protocol.model.document import allocate_id, frame_count_problem, new_comp, unique_name
from protocol.model.layers import content_box, default_content, new_layer
from supervisor.engine.commands.footage import import_footage
from supervisor.errors import CommandError

LAYER_TYPES = {"image": "image", "vector": "image", "video": "video", "sequence": "video",
               "lottie": "lottie", "audio": "audio"}
DEFAULT_SIZE = (1920, 1080)


def build_timeline(engine, summary: dict, timeline_path: str, name: str | None) -> dict:
    """Add the comps for `summary` to the engine's document; the import's report."""
    builder = _Builder(engine, os.path.dirname(timeline_path))
    builder.warnings.extend(summary["warnings"])
    builder.open_media(summary)
    comp = builder.comp(summary, name or summary["name"] or "Timeline", builder.size())
    return {"comp": comp["id"], "name": comp["name"], "layers": len(comp["layers"]),
            "comps": builder.comps, "footage": builder.new_footage,
            "missing": builder.missing, "warnings": builder.warnings}


class _Builder:
    def __init__(self, engine, folder: str) -> None:
        self.engine = engine
        self.doc = engine.doc
        self.folder = folder
        self.footage: dict[str, dict] = {}  # media path as the timeline gives it -> footage
        self.refused: dict[str, str] = {}  # media path -> why it is not footage
        self.missing: list[dict] = []
        self.warnings: list[str] = []
        self.comps = 0
        self.new_footage = 0

    # -- media --------------------------------------------------------------------------------

    def open_media(self, timeline: dict) -> None:
        """Footage for every media file the timeline names (each file once)."""
        for track in timeline["tracks"]:
            for item in track["items"]:
                if item["type"] == "nested":
                    self.open_media(item["timeline"])
                elif item["type"] == "clip" and item["media"] is not None:
                    self._open(item["media"])

    def _open(self, media: str) -> None:
        if media in self.footage or media in self.refused:
            return
        path = media if os.path.isabs(media) else os.path.join(self.folder, media)
        if "://" in media:
            self.refused[media] = "it is not a local file"
            return
        try:
            footage, new, warnings = import_footage(self.engine, os.path.normpath(path))
        except CommandError as error:
            self.refused[media] = str(error).rstrip(".")
            return
        self.footage[media] = footage
        self.new_footage += int(new)
        self.warnings.extend(warnings)

    def size(self) -> tuple[int, int]:
        """The comp's size: the first picture's, else the default."""
        for footage in self.footage.values():
            if footage["kind"] != "audio":
                return int(footage["width"]), int(footage["height"])
        return DEFAULT_SIZE

    # -- comps and layers ---------------------------------------------------------------------

    def comp(self, timeline: dict, name: str, size: tuple[int, int]) -> dict:
        rate = float(timeline["rate"])
        rate = int(rate) if rate.is_integer() else rate
        duration = max(float(timeline["duration"]), 1 / rate)
        problem = frame_count_problem(duration, rate)
        if problem is not None:
            raise CommandError(f"cannot import the timeline {name!r}: {problem}.")
        taken = {c["name"] for c in self.doc["comps"]}
        comp = new_comp(self.doc, unique_name(name, taken), width=size[0], height=size[1],
                        frameRate=rate, duration=duration)
        self.doc["comps"].append(comp)
        self.comps += 1
        comp["markers"] = self._markers(timeline["markers"])
        video = [t for t in timeline["tracks"] if t["kind"] == "video"]
        audio = [t for t in timeline["tracks"] if t["kind"] == "audio"]
        linked = self._linked(video, audio)
        for track in reversed(video):
            for item in track["items"]:
                self._item(comp, track, item, size, linked)
        for track in audio:
            for item in track["items"]:
                if item["type"] == "clip" and id(item) not in linked["sounds"]:
                    self._clip(comp, track, item, size, sound=True)
        return comp

    def _linked(self, video: list[dict], audio: list[dict]) -> dict:
        """Which video clips have their sound on a sound track (the same file at the same
        place), and those sound clips: {"pictures": {id: sound item}, "sounds": {id, ...}}."""
        pictures, sounds = {}, set()
        sound_clips = [item for track in audio for item in track["items"]
                       if item["type"] == "clip" and item["media"] is not None]
        for track in video:
            for item in track["items"]:
                if item["type"] != "clip" or item["media"] is None:
                    continue
                for sound in sound_clips:
                    if id(sound) not in sounds and sound["media"] == item["media"] and \
                            abs(sound["start"] - item["start"]) < 1e-3 and \
                            abs(sound["duration"] - item["duration"]) < 1e-3:
                        pictures[id(item)] = sound
                        sounds.add(id(sound))
                        break
        return {"pictures": pictures, "sounds": sounds}

    def _item(self, comp: dict, track: dict, item: dict, size, linked: dict) -> None:
        if item["type"] == "transition":
            self.warnings.append(
                f"the transition {item['name'] or item['kind'] or ''!r} at {item['at']:g} s on "
                f"track {track['name']!r} ({item['before'] + item['after']:g} s) was not "
                "imported: a comp holds no transitions between layers; the cut is kept")
        elif item["type"] == "nested":
            if item["timeline"]["tracks"]:
                source = self.comp(item["timeline"], item["name"], size)
                self._layer(comp, item, "precomp", {"source": source["id"]}, source["name"],
                            (source["width"], source["height"]))
        else:
            self._clip(comp, track, item, size, sound=False,
                       linked=linked["pictures"].get(id(item)))

    def _clip(self, comp: dict, track: dict, item: dict, size, sound: bool,
              linked: dict | None = None) -> None:
        media = item["media"]
        if media is None:
            if item["enabled"]:
                self._missing(track, item, "the timeline names no media file for it")
            return
        footage = self.footage.get(media)
        if footage is None:
            self._missing(track, item, self.refused.get(media, "it could not be read"))
            return
        kind = "audio" if sound else LAYER_TYPES[footage["kind"]]
        if kind == "audio" and footage["kind"] not in ("audio", "video"):
            return  # a picture on a sound track: nothing to hear
        box = (footage.get("width", 0), footage.get("height", 0))
        layer = self._layer(comp, item, kind, {"footage": footage["id"]}, item["name"], box)
        if layer is None:
            return
        layer["enabled"] = bool(item["enabled"])
        if "audio" in layer:
            level_from = linked if linked is not None else item
            layer["audio"]["level"] = max(-96.0, min(24.0, level_from.get("level") or 0.0))
            if kind == "video" and footage.get("hasAudio") and linked is None:
                layer["audio"]["muted"] = True

    def _layer(self, comp: dict, item: dict, kind: str, given: dict, name: str,
               box) -> dict | None:
        start, duration = float(item["start"]), float(item["duration"])
        if duration <= 0:
            return None
        speed = float(item["speed"])
        content = default_content(kind, given, comp)
        attributes = {"inPoint": start, "outPoint": start + duration, "startTime": start}
        if kind in ("video", "precomp", "audio", "lottie"):
            if speed == 0:
                content["timeRemap"] = float(item["sourceStart"])
            else:
                attributes["startTime"] = start - float(item["sourceStart"]) * 100 / speed
                if speed != 100:
                    content["speed"] = speed
        layer = new_layer(self.doc, comp, allocate_id(self.doc, "layer"), name, kind, content,
                          attributes)
        width, height = content_box(self.doc, layer)
        if kind != "audio" and width > 0 and height > 0:
            fit = min(comp["width"] / width, comp["height"] / height) * 100
            layer["transform"]["scale"] = [fit, fit]
        layer["markers"] = self._markers(item.get("markers", []))
        comp["layers"].insert(len(comp["layers"]), layer)
        return layer

    def _markers(self, markers: list[dict]) -> list[dict]:
        taken: set[str] = set()
        made = []
        for marker in markers:
            name = unique_name(marker["name"] or "marker", taken)
            taken.add(name)
            made.append({"id": allocate_id(self.doc, "marker"), "name": name,
                         "time": float(marker["time"]),
                         "duration": max(0.0, float(marker["duration"]))})
        return made

    def _missing(self, track: dict, item: dict, reason: str) -> None:
        self.missing.append({"name": item["name"], "media": item["media"],
                             "track": track["name"], "start": item["start"], "reason": reason})
