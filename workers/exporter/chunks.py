"""Exporting one chunk of an item's frames; the split into chunks is chunk_plan.py's.

The split is the exporter's business because video chunks must start on the key frame
interval (see keyframe_grid.py) for the joined video to be identical however many workers ran;
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

from typing import Callable, Iterable

import numpy as np

from protocol.model.output_formats import output_format
from workers.exporter.chunk_plan import Chunk
from workers.exporter.image_sequence import write_sequence
from workers.exporter.keyframe_grid import segment_path
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.segments import encode_segment


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
