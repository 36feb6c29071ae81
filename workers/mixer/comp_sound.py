"""A comp's sound over a stretch of its samples: every heard layer read from its source at the
places its timing says, times its level, summed in float (docs/rendering.md, "Sound").

    CompMixer.mix(comp, first, count)
        for each layer, bottom to top: enabled, not muted, a sounding type, heard in the stretch
            source = footage (a SoundReader) | a precomp (this mixer, one level down)
            samples = exactly shifted (speed 100, no remap)  |  interpolated at source_places
            out += samples * gains(audio.level)      (per sample)
                           * scene_fades              (a scene across its transitions)

One reader per layer instance (a precomp shown twice has its layers read twice, each forward),
so no two places on one timeline make a reader start over at every block. The mixer does no
clipping and no encoding; the task that runs it decides what a block becomes.
"""

from __future__ import annotations

import numpy as np

from protocol.model.audio import CHANNELS, SOUNDING_TYPES, layer_audio
from protocol.model.scenes import windows
from workers.mixer.mixing import (active_span, gains, plain_offset, read_places, read_shifted,
                                  scene_fades, source_places)
from workers.mixer.sound_reader import SoundReader


class MissingSound(Exception):
    """A layer's footage is not in the document; the message names the layer."""


class CompMixer:
    def __init__(self, document: dict, rate: int) -> None:
        self.document = document
        self.rate = rate
        self.comps = {comp["id"]: comp for comp in document["comps"]}
        self.footage = {item["id"]: item for item in document["footage"]}
        self._readers: dict[tuple, SoundReader] = {}

    def close(self) -> None:
        for reader in self._readers.values():
            reader.close()
        self._readers.clear()

    def mix(self, comp_id: str, first: int, count: int, chain: tuple = ()) -> np.ndarray:
        """The comp's sound, samples [first, first + count) of its own time (CHANNELS, count)."""
        comp = self.comps[comp_id]
        out = np.zeros((CHANNELS, count), np.float32)
        transitions = windows(comp)
        for layer in reversed(comp["layers"]):
            audio = layer_audio(layer)
            if layer["type"] not in SOUNDING_TYPES or not layer.get("enabled", True) or \
                    audio["muted"]:
                continue
            start, end = active_span(layer, first, count, self.rate)
            if end <= start:
                continue
            gain = gains(audio["level"], start, end - start, self.rate)
            if transitions:
                gain = gain * scene_fades(transitions, layer["id"], start, end - start,
                                          self.rate)
            if np.isscalar(gain) and gain == 0.0:
                continue
            sound = self._layer_sound(layer, start, end - start, chain + (layer["id"],))
            if sound is not None:
                out[:, start - first:end - first] += sound * gain
        return out

    def _layer_sound(self, layer: dict, first: int, count: int, chain: tuple):
        """The layer's source at the places its timing reads for comp samples [first, first +
        count); None for a source with no sound (a silent video)."""
        read, length = self._source(layer, chain)
        if read is None:
            return None
        content = layer["content"]
        loop = bool(content.get("loop"))
        offset = plain_offset(content, layer.get("startTime", 0.0), self.rate)
        if offset is not None:
            return read_shifted(read, first - offset, count, length, loop)
        return read_places(read, source_places(layer, first, count, self.rate), length, loop)

    def _source(self, layer: dict, chain: tuple):
        """(read(first, count), length in samples or None) of a layer's source."""
        content = layer["content"]
        if layer["type"] == "precomp":
            source = self.comps[content["source"]]
            # A precomp's own rate may differ from its parent's; the parent's is the mix's.
            length = round(source["duration"] * self.rate)
            return (lambda first, count: self.mix(source["id"], first, count, chain)), length
        footage = self.footage.get(content.get("footage"))
        if footage is None:
            raise MissingSound(f"layer {layer['name']!r} plays footage {content.get('footage')!r}"
                               ", which is not in the project")
        if footage["kind"] not in ("audio", "video") or \
                (footage["kind"] == "video" and not footage.get("hasAudio")):
            return None, None
        reader = self._readers.get(chain)
        if reader is None:
            reader = self._readers[chain] = SoundReader(footage["path"], self.rate)
        return reader.read, round(source_seconds(footage) * self.rate)


def source_seconds(footage: dict) -> float:
    """The length a loop repeats: a video's frames over its frame rate (its picture and its
    sound start over together), a sound's duration."""
    if footage["kind"] == "video" and footage.get("frameCount") and footage.get("frameRate"):
        return footage["frameCount"] / footage["frameRate"]
    return float(footage.get("duration") or 0.0)
