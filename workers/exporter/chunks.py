"""Splitting an item's frames into chunks for the render workers, and exporting one chunk.

The split is the exporter's business because video chunks must start on the key frame
interval (see segments.py) for the joined video to be identical however many workers ran;
sequence frames are independent and split anywhere.

The whole flow for one item, as the orchestration runs it:

    frames = frames_to_write(pattern, frames_of(spec, count), skip_existing)
    chunks = plan_chunks(frames, fmt, parts=workers)           # supervisor
    opened.add_all(chunk_paths(chunk, fmt, output))            # supervisor, before dispatch
    segment = export_chunk(chunk, rendered_frames, ...)        # each worker, per chunk
    join_segments([segments in chunk order], fmt, output, rate, opened)   # video only

Every file a chunk can create is named in advance (`chunk_paths`: its frames, their
temporaries, its segment), from the chunk's token. So the supervisor's record is complete
before a worker starts, and a worker killed mid-write (whose own record dies with it) leaves
nothing the supervisor cannot remove by name. A retried chunk gets a fresh token
(`with_new_token`), so it never collides with the dead worker's leftovers.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Iterable

import numpy as np

from protocol.model.output_formats import output_format
from protocol.model.output_names import frame_path
from workers.exporter.atomic_files import new_token, temporary_path
from workers.exporter.image_sequence import write_sequence
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.segments import (KEYFRAME_INTERVAL, encode_segment, keyframe_interval_for,
                                       segment_path)


@dataclass(frozen=True)
class Chunk:
    frames: tuple[int, ...]  # comp frame numbers, in output order
    first_index: int  # the position of frames[0] among the item's frames (a video's frame index)
    token: str = field(default_factory=new_token, compare=False)  # names its temporaries
    # The item's key frame interval (video): every chunk of one video carries the same one,
    # which plan_chunks sets from the item's frame count (keyframe_interval_for).
    keyframe_interval: int = KEYFRAME_INTERVAL


def with_new_token(chunk: Chunk) -> Chunk:
    """The same chunk for a retry, with temporaries of its own."""
    return replace(chunk, token=new_token())


def chunk_paths(chunk: Chunk, fmt: str, output: str, start_number: int = 0) -> list[str]:
    """Every file `export_chunk` can create for this chunk: a sequence's frames (numbered from
    `start_number`) and their temporaries, or a video chunk's segment."""
    if not output_format(fmt).is_sequence:
        return [segment_path(output, chunk.first_index, chunk.token)]
    paths = []
    for number in chunk.frames:
        final = frame_path(output, number, start_number)
        paths += [final, temporary_path(final, token=chunk.token)]
    return paths


def plan_chunks(frames: Iterable[int], fmt: str, parts: int, chunk_size: int | None = None,
                keyframe_interval: int | None = None) -> list[Chunk]:
    """Split an item's frames into `parts` near-equal chunks, or into chunks of `chunk_size`.

    Video chunks start on multiples of the key frame interval (a chunk_size is rounded up to
    one), so the joined video does not depend on the split. The interval is
    `keyframe_interval_for(len(frames))` unless given, and every chunk carries it."""
    frames = tuple(frames)
    if not frames:
        return []
    if keyframe_interval is None:
        keyframe_interval = keyframe_interval_for(len(frames))
    step = 1 if output_format(fmt).is_sequence else keyframe_interval
    units = -(-len(frames) // step)
    if chunk_size is not None:
        per_chunk = max(1, -(-chunk_size // step))
        bounds = list(range(0, units, per_chunk)) + [units]
    else:
        parts = max(1, min(parts, units))
        bounds = [(units * part) // parts for part in range(parts + 1)]
    chunks = []
    for start, end in zip(bounds, bounds[1:]):
        first, last = start * step, min(len(frames), end * step)
        chunks.append(Chunk(frames[first:last], first, keyframe_interval=keyframe_interval))
    return chunks


def export_chunk(chunk: Chunk, rendered: Iterable[np.ndarray], fmt: str, output: str,
                 frame_rate, codec_options: dict | None, opened: OpenedFiles,
                 skip_existing: bool = False,
                 on_frame: Callable[[int], None] | None = None,
                 start_number: int = 0, scene_linear: bool = False,
                 color_tags: str | None = None) -> str | None:
    """Write one chunk's rendered frames (RGBA arrays, in chunk.frames order) to `output`
    (the item's pattern or video path, `[compName]` already filled in).

    A sequence's frames go straight to their files (returns None); a video chunk becomes a
    segment next to `output`, whose path is returned for `join_segments`, encoded with the
    chunk's key frame interval. `on_frame` gets the comp frame number after each frame is
    written; a sequence's files are numbered from `start_number`; `scene_linear`: the frames
    hold linear light, which EXR keeps as it is; `color_tags`, a video's colorTags."""
    if output_format(fmt).is_sequence:
        write_sequence(zip(chunk.frames, rendered), output, fmt, codec_options, opened,
                       skip_existing, on_frame, chunk.token, start_number, scene_linear)
        return None
    path = segment_path(output, chunk.first_index, chunk.token)
    numbers = chunk.frames

    def progress(index: int) -> None:
        if on_frame is not None:
            on_frame(numbers[index - chunk.first_index])

    encode_segment(rendered, chunk.first_index, frame_rate, fmt, codec_options, path, opened,
                   chunk.keyframe_interval, progress, color_tags)
    return path
