"""The exporter: turns rendered frames (numpy uint8 H x W x 4 straight RGBA) into files.

Runs inside render workers. Image sequences are written frame by frame (`write_sequence`);
videos are encoded in segments that start on key frames (`encode_segment`, one per chunk of
frames, in any worker) and joined by stream copy (`join_segments`). Every file created is
recorded in an `OpenedFiles`, which is what cancel and failure clean up, and nothing else.
Naming and clash rules live in protocol/model/output_names.py, the format table in
protocol/model/output_formats.py.
"""

from workers.exporter.chunks import (Chunk, chunk_paths, export_chunk, plan_chunks,
                                     with_new_token)
from workers.exporter.image_sequence import ImageEncoder, frames_to_write, write_sequence
from workers.exporter.join import JoinError, join_segments
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.segments import (KEYFRAME_INTERVAL, Segment, SegmentError,
                                       encode_segment, keyframe_interval_for, segment_path,
                                       segment_ranges)
from workers.exporter.video_encoders import CodecOptionError

__all__ = [
    "Chunk", "CodecOptionError", "ImageEncoder", "chunk_paths", "export_chunk",
    "plan_chunks", "with_new_token", "JoinError", "KEYFRAME_INTERVAL", "OpenedFiles",
    "Segment", "SegmentError", "encode_segment", "frames_to_write", "join_segments",
    "keyframe_interval_for",
    "segment_path", "segment_ranges", "write_sequence",
]
