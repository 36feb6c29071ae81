"""Finished segments of a video item, kept beside its output until the item completes, so a
render that failed, was stopped or lost its node picks up where it was instead of starting
over (docs/outputs.md, "Resuming a video").

    a render:    chunk ─► its segment (a temporary) ─► renamed to .Main.mp4.segments/KEY.seg
    it stops:    the cached segments stay; everything else it wrote is removed
    a rerun with skipExisting (or resume):  chunks whose KEY is cached are not rendered
    the item completes: the segments are joined (stream copy) into Main.mp4; the folder goes

A segment's KEY is a hash of everything that decides its bytes: the snapshot's content (the
document without its render queue, and the identity of every file its frames are drawn from:
footage of every kind, each frame of a sequence, font files: `drawn_files`), the chunk (its
frames, its first index, the key frame interval) and the encoder settings as the encoder is
given them (`encoder_setup`: the format's defaults under the item's codecOptions, the pixel
format, the dither; frame rate, scale, transparency), with the versions of rendervisor and
of every library it draws and encodes with. Not the snapshot's id, which names one engine's
revision and differs in every process. A file's identity is its size, modification and
change times, inode and device: a file copied over the name, or renamed onto it, differs in
one of them even when its modification time is put back. A segment is
the same bytes for one key (segments.py restarts the encoder on a fixed grid, and the render
fixes encoder threads), so a joined resume is byte for byte the file an uninterrupted render
writes. A chunk split differently (another --workers for a short video, another --chunk-size)
has other keys and is rendered again.

Removes nothing in a cache folder but files of its own naming, and a folder only when empty.

The key needs PyAV (its FFmpeg's versions, the encoder's settings) and, for a text layer, the
font index (read with Skia: supervisor/engine/font_index.py): each is imported where it is
used, never with this module. The files are stamped when a video is planned; the rest of the
key is made on a thread as its render starts, beside its first chunks (RenderRun), after its
workers were started, not while the forkserver imports the same libraries for them. An image
sequence needs none of it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.metadata
import json
import logging
import os
import re
import threading

from protocol.model.effects import effect_files
from supervisor.engine.font_index import font_index
from supervisor.engine.footage_reads import files_of
from workers.compositor.color_configs import is_builtin
from workers.compositor.output_size import output_size
from workers.exporter.chunk_plan import Chunk
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.output_folders import OutputFolder

log = logging.getLogger("rendervisor.render")

CACHE_SUFFIX = ".segments"
SEGMENT_NAME = re.compile(r"^[0-9a-f]{64}\.seg$")
PACKAGE_NAME = re.compile(r"[A-Za-z0-9._-]+")  # of a requirement: `av>=12` -> av
# Document keys that decide nothing about a frame's pixels: a resume adds or edits queue items
# (--skip-existing, a --comp item) and so allocates ids, which must not change the keys.
NOT_CONTENT = ("renderQueue", "nextId")


def cache_folder(output: str) -> str:
    """The hidden folder beside a video output that holds its finished segments."""
    folder, name = os.path.split(os.path.abspath(output))
    return os.path.join(folder, f".{name}{CACHE_SUFFIX}")


def content_key(document: dict) -> str:
    """A hash of what a snapshot draws: its document (less the queue) and the identity of
    every file it draws from, so a file replaced on disk makes new keys."""
    content = {key: value for key, value in document.items() if key not in NOT_CONTENT}
    return _digest([content, [[path, _stamp(path)] for path in drawn_files(document)]])


def drawn_files(document: dict) -> list[str]:
    """Every file a document's frames can be drawn from: each footage item's (a sequence's
    folder and frames, an SVG, a Lottie file, a sound, a video: footage_reads.files_of, the
    rule confinement checks too), each lut effect's .cube, each text layer's font file or the
    files of the family it names (bundled or the system's), and the project's OpenColorIO
    config when it is a file rather than a built-in one."""
    files = [file for item in document.get("footage", []) for file in files_of(item["path"])]
    for comp in document.get("comps", []):
        for layer in comp.get("layers", []):
            files += effect_files(layer)
            if layer.get("type") != "text":
                continue
            content = layer.get("content") or {}
            if content.get("fontFile"):
                files.append(content["fontFile"])
            else:
                files += [face.path
                          for face in font_index().family_faces(content.get("font"))]
    config = (document.get("colorManagement") or {}).get("config")
    if config and not is_builtin(config):
        files.append(config)
    return list(dict.fromkeys(files))


@functools.lru_cache(maxsize=1)
def drawing_versions() -> list[str]:
    """The versions of rendervisor and of every package it needs (Skia, PyAV, HarfBuzz, the
    bundled fonts...) and of FFmpeg's libraries: an upgrade may draw or encode a frame
    differently."""
    names = ["rendervisor"] + [PACKAGE_NAME.match(requirement).group(0)
                               for requirement in importlib.metadata.requires("rendervisor") or ()
                               if "extra ==" not in requirement]
    import av  # its FFmpeg's versions; see the module's docstring
    versions = []
    for name in names:
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} missing")
    return versions + [json.dumps(av.library_versions, sort_keys=True)]


def remove_cache(output: str, held: OutputFolder) -> int:
    """Remove the cache folder of `output` (in the output's folder, `held`): its segment
    files, then the folder if that leaves it empty. The number of segments removed."""
    folder = cache_folder(output)
    try:
        names = held.names(folder)
    except OSError:
        return 0  # none, or a link standing at its name: not ours to follow
    removed = 0
    for name in names:
        if SEGMENT_NAME.match(name):
            try:
                held.unlink(os.path.join(folder, name))
                removed += 1
            except FileNotFoundError:
                pass
    try:
        held.rmdir(folder)
    except OSError:
        pass  # something not ours is in it: left for its owner
    return removed


class SegmentCache:
    """The cache of one video item of one render."""

    def __init__(self, plan, content: str) -> None:
        self.folder = cache_folder(plan.output)
        self._plan = plan
        self._content = content  # the files' identities: taken now, before any chunk is sent
        self._settings: list | None = None
        self._making = threading.Lock()

    def settings(self) -> list:
        """Everything but the chunk that decides a segment's bytes, made by the first caller
        (the others wait for it). A render that does not resume asks on a thread of its own
        as it starts (RenderRun), so PyAV's import and the encoder's settings, 0.1 to 0.15 s
        of CPU, run beside its first chunks instead of holding them back; nothing in them
        depends on the files, which `content` stamped before."""
        with self._making:
            if self._settings is None:
                plan = self._plan
                self._settings = [self._content, drawing_versions(), plan.comp["id"],
                                  plan.format, plan.codec_options, _encoder_settings(plan),
                                  plan.frame_rate, plan.scale, plan.transparent]
            return self._settings

    def path(self, chunk: Chunk) -> str:
        key = _digest([self.settings(), list(chunk.frames), chunk.first_index,
                       chunk.keyframe_interval])
        return os.path.join(self.folder, key + ".seg")

    def has(self, chunk: Chunk) -> bool:
        return os.path.isfile(self.path(chunk))

    def keep(self, chunk: Chunk, segment: str, opened: OpenedFiles) -> str:
        """Move a finished segment into the cache (a rename: it is whole or absent there);
        the path to join it from. Where the cache cannot be written the segment stays where
        it is, still recorded, and the render goes on without resuming."""
        cached = self.path(chunk)
        try:
            opened.make_folders(cached)
            opened.rename(segment, cached)
        except OSError as error:
            log.warning("segment %s could not be kept in %s (%s); a rerun renders it again",
                        segment, self.folder, error)
            return segment
        opened.forget(cached)  # the cache's now, not this render's to take back
        return cached


def _encoder_settings(plan) -> object:
    """The encoder's configuration as the workers will make it (defaults, options, pixel
    format, dither), so a changed default is a changed key; the refusal's words when the
    settings cannot be used (the render then fails, and caches nothing)."""
    from workers.exporter.video_encoders import encoder_setup  # PyAV: the module's docstring
    try:
        setup = encoder_setup(plan.format, *output_size(plan.comp, plan.scale),
                              plan.frame_rate, plan.codec_options)
    except ValueError as error:
        return str(error)
    return dataclasses.asdict(setup)


def _stamp(path: str) -> list[int] | None:
    """A file's identity: size, modification and change times, inode and device."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()
