"""Finished segments of a video item, kept beside its output until the item completes, so a
render that failed, was stopped or lost its node picks up where it was instead of starting
over (docs/outputs.md, "Resuming a video").

    a render:    chunk ─► its segment (a temporary) ─► renamed to .Main.mp4.segments/KEY.seg
    it stops:    the cached segments stay; everything else it wrote is removed
    a rerun with skipExisting (or resume):  chunks whose KEY is cached are not rendered
    the item completes: the segments are joined (stream copy) into Main.mp4; the folder goes

A segment's KEY is a hash of everything that decides its bytes: the snapshot's content (the
document without its render queue, and the size and modification time of every footage file),
the chunk (its frames, its first index, the key frame interval) and the encoder settings
(format, codecOptions, frame rate, scale, transparency, the encoder libraries' versions). Not
the snapshot's id, which names one engine's revision and differs in every process. A segment is
the same bytes for one key (segments.py restarts the encoder on a fixed grid, and the render
fixes encoder threads), so a joined resume is byte for byte the file an uninterrupted render
writes. A chunk split differently (another --workers for a short video, another --chunk-size)
has other keys and is rendered again.

Removes nothing in a cache folder but files of its own naming, and a folder only when empty.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re

import av

from protocol.model.sequences import sequence_path
from supervisor import __version__
from workers.exporter import Chunk, OpenedFiles

log = logging.getLogger("rendervisor.render")

CACHE_SUFFIX = ".segments"
SEGMENT_NAME = re.compile(r"^[0-9a-f]{64}\.seg$")
# Document keys that decide nothing about a frame's pixels: a resume adds or edits queue items
# (--skip-existing, a --comp item) and so allocates ids, which must not change the keys.
NOT_CONTENT = ("renderQueue", "nextId")


def cache_folder(output: str) -> str:
    """The hidden folder beside a video output that holds its finished segments."""
    folder, name = os.path.split(os.path.abspath(output))
    return os.path.join(folder, f".{name}{CACHE_SUFFIX}")


def content_key(document: dict) -> str:
    """A hash of what a snapshot draws: its document (less the queue) and its footage files'
    sizes and modification times, so footage replaced on disk makes new keys."""
    content = {key: value for key, value in document.items() if key not in NOT_CONTENT}
    stamps = [[_stamp(path) for path in _footage_files(item)]
              for item in document.get("footage", [])]
    return _digest([content, stamps])


def remove_cache(output: str) -> int:
    """Remove the cache folder of `output`: its segment files, then the folder if that leaves
    it empty. The number of segments removed."""
    folder = cache_folder(output)
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return 0
    removed = 0
    for name in names:
        if SEGMENT_NAME.match(name):
            try:
                os.unlink(os.path.join(folder, name))
                removed += 1
            except FileNotFoundError:
                pass
    try:
        os.rmdir(folder)
    except OSError:
        pass  # something not ours is in it: left for its owner
    return removed


class SegmentCache:
    """The cache of one video item of one render."""

    def __init__(self, plan, content: str) -> None:
        self.folder = cache_folder(plan.output)
        self._settings = [content, __version__, av.__version__, av.library_versions,
                          plan.comp["id"], plan.format, plan.codec_options,
                          plan.frame_rate, plan.scale, plan.transparent]

    def path(self, chunk: Chunk) -> str:
        key = _digest([self._settings, list(chunk.frames), chunk.first_index,
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
            os.replace(segment, cached)
        except OSError as error:
            log.warning("segment %s could not be kept in %s (%s); a rerun renders it again",
                        segment, self.folder, error)
            return segment
        opened.forget(segment)
        return cached


def _footage_files(item: dict) -> list[str]:
    if item.get("kind") != "sequence":
        return [item["path"]]
    first = int(item.get("firstFrame", 0))
    return [sequence_path(item["path"], number)
            for number in range(first, first + int(item.get("frameCount", 1)))]


def _stamp(path: str) -> list[int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns]


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()
