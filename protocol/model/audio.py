"""Sound in the document: which layers sound, their audio properties, the comp's sample rate,
and whether a comp has anything to hear (docs/document.md, "Sound").

An audio layer plays audio footage (or a video file's sound); a video layer plays its
footage's own sound; a precomp layer plays its source comp's mix. Each of them has `audio`:
`level` in dB (animatable: a fade is two keys) and `muted`. A level of SILENCE_DB or below is
silence, because JSON has no minus infinity for a fade to start from.

One statement of these rules for the schema, the engine commands, the render plan (does this
item carry a sound track?) and the workers' mixer. Pure: no I/O.
"""

from __future__ import annotations

import math

from protocol.model.output_formats import FORMATS

SOUNDING_TYPES = ("audio", "video", "precomp")

# -96 dB is the quietest step of 16-bit audio: a level at or below it is silence, the "-inf"
# a fade in starts from. +24 dB is as loud as a layer may be turned up (16 times the
# amplitude); a typo such as 60 would otherwise blast a mix into clipping.
SILENCE_DB = -96.0
MAX_LEVEL_DB = 24.0

# A sounding layer's `audio`: name -> (value kind, animatable).
AUDIO_PROPERTIES = {"level": ("decibels", True), "muted": ("bool", False)}
AUDIO_DEFAULTS = {"level": 0, "muted": False}

# What a comp's `audioSampleRate` may be: the rates AAC, WAV and the resampler all take. Opus
# takes 48000 and a few lower ones; the exporter resamples a mix for it where needed.
SAMPLE_RATES = (8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 88200, 96000)
DEFAULT_SAMPLE_RATE = 48000
CHANNELS = 2  # every mix is stereo


# The master bus, the last stage of a comp's mix when it is rendered (workers/mixer/
# master_bus.py), set per comp and stored only when set: name -> (value kind, default). The
# limiter keeps true peaks under the ceiling (dBTP; -1 is EBU R 128's and the streaming
# services' limit, which lossy encoders need below full scale); a loudness target (LUFS
# integrated, by ITU-R BS.1770) turns the whole mix up or down to it first.
MASTER_BUS = {"audioLimiter": ("bool", True), "audioCeiling": ("number", -1.0),
              "audioLoudness": ("numberOrNull", None)}
CEILING_RANGE = (-20.0, 0.0)  # dBTP
LOUDNESS_RANGE = (-70.0, -5.0)  # LUFS: from the absolute gate to as loud as anything is mastered


def master_bus(comp: dict) -> dict:
    """The comp's master bus settings, the defaults where it has none."""
    return {key: comp.get(key, default) for key, (_, default) in MASTER_BUS.items()}


def master_bus_problem(key: str, value) -> str | None:
    """Why a master bus value (already of its kind) is out of range, or None."""
    bounds = {"audioCeiling": (CEILING_RANGE, "dBTP"),
              "audioLoudness": (LOUDNESS_RANGE, "LUFS")}.get(key)
    if bounds is None or value is None:
        return None
    (low, high), unit = bounds
    if low <= value <= high:
        return None
    return f"{key} is {low:g} to {high:g} {unit}, got {value:g}"


def sample_rate(comp: dict) -> int:
    """The rate a comp's sound is mixed at."""
    return int(comp.get("audioSampleRate", DEFAULT_SAMPLE_RATE))


def gain_of(level_db: float) -> float:
    """The amplitude factor of a level in dB: 0 dB is 1, -6.02 dB one half, SILENCE_DB 0."""
    if level_db <= SILENCE_DB:
        return 0.0
    return math.pow(10.0, level_db / 20.0)


def layer_audio(layer: dict) -> dict:
    """A sounding layer's `audio` (the defaults where a document leaves it out)."""
    return {**AUDIO_DEFAULTS, **(layer.get("audio") or {})}


def footage_sounds(footage: dict | None) -> bool:
    """Whether footage has sound: audio footage, or a video file with an audio stream."""
    if footage is None:
        return False
    return footage.get("kind") == "audio" or bool(footage.get("hasAudio"))


def comp_has_sound(document: dict, comp: dict) -> bool:
    """Whether anything in the comp (its precomps included) can be heard: an enabled, unmuted
    layer playing footage with sound, or a precomp of a comp that has some."""
    footage = {item["id"]: item for item in document.get("footage", [])}
    comps = {c["id"]: c for c in document.get("comps", [])}

    def sounds(current: dict, seen: frozenset) -> bool:
        for layer in current.get("layers", []):
            if layer.get("type") not in SOUNDING_TYPES or not layer.get("enabled", True):
                continue
            if layer_audio(layer)["muted"]:
                continue
            content = layer.get("content", {})
            if layer["type"] == "precomp":
                source = comps.get(content.get("source"))
                if source is not None and source["id"] not in seen and \
                        sounds(source, seen | {source["id"]}):
                    return True
            elif footage_sounds(footage.get(content.get("footage"))):
                return True
        return False

    return sounds(comp, frozenset({comp["id"]}))


def item_has_sound(document: dict, item: dict, comp: dict) -> bool:
    """Whether a queue item's file carries a sound track: never for a format without sound,
    always for a wav; otherwise as the item's `audio` says, and by default when the comp has
    sound (an explicit `audio: true` gives a silent comp a silent track)."""
    spec = FORMATS[item["format"]]
    if not spec.carries_sound:
        return False
    if spec.audio_only:
        return True
    wanted = item.get("audio")
    if wanted is not None:
        return bool(wanted)
    return comp_has_sound(document, comp)
