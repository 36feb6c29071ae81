"""An item's frames split into chunks for the render workers, and every file a chunk can
create named in advance (`chunk_paths`), from the chunk's token: what the supervisor does
before dispatch (chunks.py explains the whole flow).

Plain arithmetic and names, no encoder and no pixels: the supervisor plans a render with this
module, and must not import PyAV and numpy to do so (chunks.py, which exports a chunk's
frames, does).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

from protocol.model.output_formats import output_format
from protocol.model.output_names import frame_path
from workers.exporter.atomic_files import new_token, temporary_path
from workers.exporter.keyframe_grid import KEYFRAME_INTERVAL, keyframe_interval_for, segment_path


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
