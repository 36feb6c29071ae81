"""The exporter: turns rendered frames (numpy uint8 H x W x 4 straight RGBA) into files.

Runs inside render workers. Image sequences are written frame by frame (`write_sequence`);
videos are encoded in segments that start on key frames (`encode_segment`, one per chunk of
frames, in any worker) and joined by stream copy (`join_segments`). Every file created is
recorded in an `OpenedFiles`, which is what cancel and failure clean up, and nothing else.
Naming and clash rules live in protocol/model/output_names.py, the format table in
protocol/model/output_formats.py.

The names below are imported from their modules when first asked for, not with the package:
the supervisor imports workers.exporter.output_folders (plain file handling) on every
command, and `rendervisor render` must not wait for PyAV, numpy and Skia before it starts
the worker pool's forkserver (which imports them for the workers, in parallel).
"""

from __future__ import annotations

import importlib

# Each public name -> the module of this package that defines it.
_HOMES = {
    "Chunk": "chunk_plan", "chunk_paths": "chunk_plan", "export_chunk": "chunks",
    "plan_chunks": "chunk_plan", "with_new_token": "chunk_plan",
    "ImageEncoder": "image_sequence", "frames_to_write": "image_sequence",
    "write_sequence": "image_sequence",
    "JoinError": "join", "join_segments": "join",
    "OpenedFiles": "opened_files",
    "KEYFRAME_INTERVAL": "keyframe_grid", "Segment": "segments", "SegmentError": "segments",
    "encode_segment": "segments", "keyframe_interval_for": "keyframe_grid",
    "segment_path": "keyframe_grid", "segment_ranges": "keyframe_grid",
    "CodecOptionError": "video_encoders",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # asked for once
    return value
