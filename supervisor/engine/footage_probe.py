"""Probing footage files: what footage.import and footage.replace learn about a file before it
enters the document (docs/document.md, "Footage").

- a still (PNG, JPEG, WebP, BMP...): its size;
- an image sequence, given as a pattern with `[####]` or as a folder of numbered images: its
  pattern, first frame, frame count and the first frame's size;
- a video (anything FFmpeg opens with a video stream): size, frame rate, duration, frame
  count and whether it has sound (`hasAudio`), from the container headers;
- a sound file (WAV, FLAC, MP3, AAC and M4A, Ogg and Opus): kind `audio`, its duration,
  sample rate and channel count, and its first packet decoded, so a file cut short before any
  sound is refused here rather than playing silence in a render;
- an SVG or a Lottie animation (`.svg`, `.json`, `.lottie`), whose warnings (what will not
  draw as meant) come back under the key `warnings`, for the caller to report and not to store.

Here only names are looked at: which kind of file a path is (by its extension), and which
files a sequence's pattern or folder holds. Every byte of a file is read on a probe worker
(supervisor/engine/probes.py, workers/probes/: one function per kind), so a file built to
crash a parser or inflate to gigabytes costs a worker, never the session.

Errors are CommandError with a sentence naming the file and what to do.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict

from protocol.model.audio import footage_sounds
from protocol.model.ffmpeg_inputs import frame_field
from protocol.model.lottie_files import LOTTIE_EXTENSIONS
from protocol.model.sequences import is_pattern, pattern_regex, sequence_path
from protocol.cancel import Cancel
from supervisor.confinement.checked_files import Verify, special_kind
from supervisor.engine.probes import Probes
from supervisor.errors import CommandError

IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff"}
# An image sequence carries no rate of its own; this is the one a sequence gets unless the
# import says otherwise (the comp default, so a sequence plays at its natural speed there).
DEFAULT_SEQUENCE_RATE = 30
_NUMBERED = re.compile(r"^(.*?)(\d+)(\.[^.]+)$")
SVG_EXTENSIONS = (".svg",)
VECTOR_EXTENSIONS = SVG_EXTENSIONS + LOTTIE_EXTENSIONS


def probe(probes: Probes, path: str, frame_rate: float | None = None,
          verify: Verify = lambda real: None, cancel: Cancel | None = None) -> dict:
    """The footage fields (all but `id`) for `path`: a file, a `[####]` pattern, or a folder.
    `verify(real_path)` approves each file as it is opened (a confined session's read
    check)."""
    if is_pattern(path):
        return _probe_sequence(probes, path, frame_rate, verify, cancel)
    if os.path.isdir(path):
        return _probe_sequence(probes, _folder_pattern(path), frame_rate, verify, cancel)
    if not os.path.exists(path):
        field = frame_field(os.path.basename(path))
        hint = f" (an image sequence is named with [####], not {field})" if field else ""
        raise CommandError(f"cannot import {path}: there is no such file; check the path"
                           f"{hint}.")
    if not os.path.isfile(path):
        # Opening a FIFO or a device would wait for a writer that may never come.
        raise CommandError(f"cannot import {path}: it is {special_kind(path)}, not a media "
                           "file; import a regular file.")
    fields = {"name": os.path.basename(path), "path": path,
              **probes.read(kind_of_file(path), path, f"cannot import {path}", verify, cancel)}
    if not fields.get("warnings"):
        fields.pop("warnings", None)  # none: the result has no warnings key at all
    return fields


def kind_of_file(path: str) -> str:
    """Which probe reads the footage file at `path` (supervisor/engine/probes.py's INPUTS), by
    its extension: FFmpeg's for anything not a still, an SVG or a Lottie file."""
    extension = os.path.splitext(path)[1].lower()
    if extension in SVG_EXTENSIONS:
        return "svg"
    if extension in LOTTIE_EXTENSIONS:
        return "lottie"
    return "image" if extension in IMAGE_EXTENSIONS else "media"


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


def _folder_pattern(folder: str) -> str:
    """The pattern of the largest run of numbered images in `folder` (`shot_0001.png` ... ->
    `shot_[####].png`)."""
    groups: dict[tuple[str, int, str], int] = defaultdict(int)
    for name in os.listdir(folder):
        match = _NUMBERED.match(name)
        if match and match.group(3).lower() in IMAGE_EXTENSIONS:
            groups[(match.group(1), len(match.group(2)), match.group(3))] += 1
    if not groups:
        raise CommandError(f"cannot import the folder {folder}: it holds no numbered images "
                           "(such as frame_0001.png); give a file, or a pattern with [####].")
    prefix, digits, extension = max(groups, key=lambda key: (groups[key], key))
    return os.path.join(folder, f"{prefix}[{'#' * digits}]{extension}")


def _probe_sequence(probes: Probes, pattern: str, frame_rate: float | None, verify: Verify,
                    cancel: Cancel | None) -> dict:
    folder, name = os.path.split(pattern)
    if not os.path.isdir(folder or "."):
        raise CommandError(f"cannot import {pattern}: the folder {folder} does not exist; check "
                           "the path.")
    regex = pattern_regex(name)
    numbers = sorted(int(m.group(1)) for m in map(regex.match, os.listdir(folder or "."))
                     if m)
    if not numbers:
        raise CommandError(f"cannot import {pattern}: no file matches it; the [####] stands "
                           "for the frame number, padded to the count of #.")
    first = sequence_path(pattern, numbers[0])
    size = probes.read("image", first, f"cannot import {first}", verify, cancel)
    rate = frame_rate or DEFAULT_SEQUENCE_RATE
    count = numbers[-1] - numbers[0] + 1  # a gap is a missing frame, not a shorter sequence
    return {"name": name, "path": pattern, "kind": "sequence", "width": size["width"],
            "height": size["height"], "frameRate": rate, "duration": round(count / rate, 6),
            "frameCount": count, "firstFrame": numbers[0]}
