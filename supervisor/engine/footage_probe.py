"""Probing footage files: what footage.import and footage.replace learn about a file before it
enters the document (docs/document.md, "Footage").

- a still (PNG, JPEG, WebP, BMP...): its size, read with Skia;
- an image sequence, given as a pattern with `[####]` or as a folder of numbered images: its
  pattern, first frame, frame count and the first frame's size;
- a video (anything FFmpeg opens with a video stream): size, frame rate, duration, frame
  count and whether it has sound (`hasAudio`), read with PyAV from the container headers (no
  decoding, so probing is instant);
- a sound file (WAV, FLAC, MP3, AAC and M4A, Ogg and Opus: anything FFmpeg opens with an audio
  stream and no pictures): kind `audio`, its duration, sample rate and channel count from the
  headers, and its first packet decoded, so a file cut short before any sound is refused here
  rather than playing silence in a render;
- an SVG or a Lottie animation (`.svg`, `.json`, `.lottie`): supervisor/engine/vector_footage_probe.py,
  whose warnings (what will not draw as meant) come back under the key `warnings`, for the
  caller to report and not to store.

FFmpeg opens a video as the worker that decodes it will (protocol/model/ffmpeg_inputs.py): that one
file, with a demuxer that reads no other. A playlist, manifest or concat list is refused, as
is anything FFmpeg would read with a demuxer not on that list.

Errors are ProbeError with a sentence naming the file and what to do.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from fractions import Fraction

import av
import skia

from protocol.model.audio import footage_sounds
from protocol.model.ffmpeg_inputs import (OPEN_OPTIONS, SNIFF_BYTES, frame_field, is_playlist_name,
                                    names_other_files)
from protocol.model.sequences import is_pattern, pattern_regex, sequence_path
from supervisor.confinement.checked_files import special_kind
from supervisor.engine.vector_footage_probe import VECTOR_EXTENSIONS, VectorProbeError, probe_vector

IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff"}
# An image sequence carries no rate of its own; this is the one a sequence gets unless the
# import says otherwise (the comp default, so a sequence plays at its natural speed there).
DEFAULT_SEQUENCE_RATE = 30
_NUMBERED = re.compile(r"^(.*?)(\d+)(\.[^.]+)$")
# Why a playlist is never footage: the clause every refusal of one gives.
PLAYLIST_REASON = ("it is a playlist, manifest or concat list (HLS, DASH or ffconcat), which "
                   "makes FFmpeg open the files it names, and a footage item is the one file it "
                   "names")


class ProbeError(Exception):
    """Footage that cannot be imported; the message is the whole report."""


def probe(path: str, frame_rate: float | None = None) -> dict:
    """The footage fields (all but `id`) for `path`: a file, a `[####]` pattern, or a folder."""
    if is_pattern(path):
        return _probe_sequence(path, frame_rate)
    if os.path.isdir(path):
        return _probe_sequence(_folder_pattern(path), frame_rate)
    if not os.path.exists(path):
        field = frame_field(os.path.basename(path))
        hint = f" (an image sequence is named with [####], not {field})" if field else ""
        raise ProbeError(f"cannot import {path}: there is no such file; check the path{hint}.")
    if not os.path.isfile(path):
        # Opening a FIFO or a device would wait for a writer that may never come.
        raise ProbeError(f"cannot import {path}: it is {special_kind(path)}, not a media file; "
                         "import a regular file.")
    if os.path.splitext(path)[1].lower() in VECTOR_EXTENSIONS:
        try:
            fields, warnings = probe_vector(path)
        except VectorProbeError as error:
            raise ProbeError(str(error)) from None
        return {**fields, "warnings": warnings} if warnings else fields
    if os.path.splitext(path)[1].lower() in IMAGE_EXTENSIONS:
        width, height = _image_size(path)
        return {"name": os.path.basename(path), "path": path, "kind": "image",
                "width": width, "height": height}
    return _probe_media(path)


def layer_types_showing(doc: dict, footage: dict) -> set[str]:
    """The types of the layers showing `footage`."""
    return {layer["type"] for comp in doc["comps"] for layer in comp["layers"]
            if layer["content"].get("footage") == footage["id"]}


def still_shown(layer_type: str, fields: dict) -> bool:
    """Whether a layer of `layer_type` shows footage probed as `fields`, when another file
    stands in for its footage (footage.replace, a footage param's file per row): image and
    video layers draw any picture, a lottie layer only a Lottie animation, an audio layer
    only sound."""
    if layer_type in ("image", "video"):
        return fields["kind"] in ("image", "vector", "video", "sequence")
    if layer_type == "audio":
        return footage_sounds(fields)
    return fields["kind"] == layer_type  # lottie


def is_missing(footage: dict) -> bool:
    """Whether the footage's file (a sequence's first frame) is gone from disk."""
    if footage["kind"] == "sequence":
        return not os.path.isfile(sequence_path(footage["path"], footage.get("firstFrame", 0)))
    return not os.path.isfile(footage["path"])


def _image_size(path: str) -> tuple[int, int]:
    try:
        image = skia.Image.open(path)
    except Exception:  # skia-python raises plain RuntimeError/ValueError for undecodable files
        image = None
    if image is None:
        raise ProbeError(f"cannot import {path}: it is not an image rendervisor can read (PNG, "
                         "JPEG, WebP, BMP); convert it or pick another file.")
    return image.width(), image.height()


def _probe_media(path: str) -> dict:
    """A file FFmpeg opens: a video (pictures, perhaps with sound) or a sound file."""
    try:
        with av.open(path, container_options=OPEN_OPTIONS) as container:
            # Cover art (an MP3's or M4A's picture) is a video stream of one attached picture:
            # such a file is sound, not a video.
            pictures = [stream for stream in container.streams.video
                        if not stream.disposition & av.stream.Disposition.attached_pic]
            sounds = list(container.streams.audio)
            if pictures:
                fields = _video_fields(path, container, pictures[0])
                return {**fields, "hasAudio": bool(sounds)}
            if sounds:
                return _audio_fields(path, container, sounds[0])
            raise ProbeError(f"cannot import {path}: it has no video or audio stream; import an "
                             "image, a video or a sound file.")
    except ProbeError:
        raise
    except (av.FFmpegError, OSError, ValueError) as error:
        raise ProbeError(_unreadable(path, error)) from None


def _video_fields(path: str, container, stream) -> dict:
    rate = stream.average_rate or stream.guessed_rate or Fraction(DEFAULT_SEQUENCE_RATE)
    duration = _duration(container, stream)
    frames = stream.frames or int(round(duration * float(rate)))
    width, height = stream.codec_context.width, stream.codec_context.height
    if not width or not height:
        raise ProbeError(f"cannot import {path}: its video stream has no frame size; the file "
                         "may be damaged.")
    frame_rate = float(rate)
    if frame_rate.is_integer():
        frame_rate = int(frame_rate)
    return {"name": os.path.basename(path), "path": path, "kind": "video", "width": width,
            "height": height, "frameRate": frame_rate, "duration": round(duration, 6),
            "frameCount": frames}


def _audio_fields(path: str, container, stream) -> dict:
    context = stream.codec_context
    if not context.sample_rate or not context.channels:
        raise ProbeError(f"cannot import {path}: its audio stream has no sample rate or "
                         "channels; the file may be damaged.")
    if next(container.decode(stream), None) is None:
        raise ProbeError(f"cannot import {path}: it holds no sound that decodes (the file may "
                         "be cut short or damaged); export it again or pick another file.")
    return {"name": os.path.basename(path), "path": path, "kind": "audio",
            "duration": round(_duration(container, stream), 6),
            "sampleRate": context.sample_rate, "channels": context.channels}


def _duration(container, stream) -> float:
    """Seconds, from the stream's header, else the container's; 0 when neither says."""
    if stream.duration is not None and stream.time_base is not None:
        return float(stream.duration * stream.time_base)
    if container.duration is not None:
        return container.duration / av.time_base
    return 0.0


def _unreadable(path: str, error: Exception) -> str:
    """Why FFmpeg would not open `path` as footage, as a sentence."""
    if is_playlist_name(path) or names_other_files(_head(path)):
        return f"cannot import {path}: {PLAYLIST_REASON}; import the media files themselves."
    if isinstance(error, av.error.ArgumentError):  # EINVAL: a demuxer not on the allow-list
        return (f"cannot import {path}: FFmpeg reads it with a demuxer that rendervisor does not "
                "use for footage (only those reading one file: MP4, MOV, MKV, WebM, AVI, MPEG, "
                "MXF and the like, single pictures, and WAV, FLAC, MP3, AAC, M4A and Ogg "
                "sound); convert it to one of those.")
    return (f"cannot import {path}: it is not an image, a video or a sound file rendervisor "
            f"can read ({error}); convert it or pick another file.")


def _head(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(SNIFF_BYTES)
    except OSError:
        return b""


def _folder_pattern(folder: str) -> str:
    """The pattern of the largest run of numbered images in `folder` (`shot_0001.png` ... ->
    `shot_[####].png`)."""
    groups: dict[tuple[str, int, str], int] = defaultdict(int)
    for name in os.listdir(folder):
        match = _NUMBERED.match(name)
        if match and match.group(3).lower() in IMAGE_EXTENSIONS:
            groups[(match.group(1), len(match.group(2)), match.group(3))] += 1
    if not groups:
        raise ProbeError(f"cannot import the folder {folder}: it holds no numbered images "
                         "(such as frame_0001.png); give a file, or a pattern with [####].")
    prefix, digits, extension = max(groups, key=lambda key: (groups[key], key))
    return os.path.join(folder, f"{prefix}[{'#' * digits}]{extension}")


def _probe_sequence(pattern: str, frame_rate: float | None) -> dict:
    folder, name = os.path.split(pattern)
    if not os.path.isdir(folder or "."):
        raise ProbeError(f"cannot import {pattern}: the folder {folder} does not exist; check "
                         "the path.")
    regex = pattern_regex(name)
    numbers = sorted(int(m.group(1)) for m in map(regex.match, os.listdir(folder or "."))
                     if m)
    if not numbers:
        raise ProbeError(f"cannot import {pattern}: no file matches it; the [####] stands for "
                         "the frame number, padded to the count of #.")
    width, height = _image_size(sequence_path(pattern, numbers[0]))
    rate = frame_rate or DEFAULT_SEQUENCE_RATE
    count = numbers[-1] - numbers[0] + 1  # a gap is a missing frame, not a shorter sequence
    return {"name": name, "path": pattern, "kind": "sequence", "width": width,
            "height": height, "frameRate": rate, "duration": round(count / rate, 6),
            "frameCount": count, "firstFrame": numbers[0]}
