"""Encoding one segment of a video: a run of frames that a worker renders and encodes on its
own, into a temporary file that `join_segments` later copies into the final video.

A segment starts on a key frame and its timestamps are the frames' indices in the final
video (time base 1 / frame rate), so joining needs no re-encode and no guessing.

Identical output whatever the split. An encoder carries state from frame to frame (rate
control, reference frames), so a frame encoded after a split would differ from the same frame
encoded without one. Instead, the encoder is restarted at every multiple of the key frame
interval, counted from the video's first frame, split or not: any split on those frames
(see `segment_ranges`) then yields the same packets, and the same decoded frames, as one
segment would. A split elsewhere still gives a valid video, just not the identical one.

The interval is a function of the video's frame count alone (`keyframe_interval_for`), never
of the worker count, so every split of one video uses the same grid. The grid and a
segment's temporary name are in keyframe_grid.py, which the supervisor plans with.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from typing import Callable, Iterable

import av
import numpy as np

from workers.exporter.encoder_thread import EncoderThread
from workers.exporter.keyframe_grid import KEYFRAME_INTERVAL
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.output_folders import fd_path
from workers.exporter.pixels import check_frame
from workers.exporter.video_encoders import (INTRA_ONLY, configure, encoder_setup,
                                             fresh_encoder, refused, stamp)


class SegmentError(RuntimeError):
    """A segment that could not be encoded as asked; the message says what to change."""


@dataclass(frozen=True)
class Segment:
    path: str
    first_frame_index: int  # in the final video, from 0
    frame_count: int


def encode_segment(frames: Iterable[np.ndarray], first_frame_index: int, frame_rate,
                   fmt: str, codec_options: dict | None, path: str,
                   opened: OpenedFiles | None = None,
                   keyframe_interval: int = KEYFRAME_INTERVAL,
                   on_frame: Callable[[int], None] | None = None,
                   color_tags: str | None = None) -> Segment:
    """Encode `frames` (uint8 RGBA arrays, all one size) as the segment of an `fmt` video that
    starts at `first_frame_index`, into `path` (normally from `segment_path`).

    `path` is recorded in `opened` before it is created. `on_frame(index)` is called after
    each frame is encoded (progress; raising from it, or from the frames iterator, abandons
    the segment and leaves cleanup to the record). Every segment of one video must be
    encoded with the same frame_rate, fmt, codec_options and keyframe_interval: the one
    `keyframe_interval_for` the video's whole frame count gives (which a segment alone cannot
    know; the default fits only a video of at least KEYFRAME_UNITS * KEYFRAME_INTERVAL
    frames, or one encoded as a single segment), and the same `color_tags` (an item's
    colorTags, video_encoders.encoder_setup)."""
    if keyframe_interval < 1:
        raise ValueError("keyframe_interval must be at least 1")
    opened = opened if opened is not None else OpenedFiles()
    iterator = iter(frames)
    first = next(iterator, None)
    if first is None:
        raise SegmentError(f"segment at frame {first_frame_index} has no frames; a segment "
                           "needs at least one")
    check_frame(first)
    height, width = first.shape[:2]
    setup = encoder_setup(fmt, width, height, frame_rate, codec_options, color_tags)
    opened.make_folders(path)
    fd = opened.create(path)
    try:
        container = av.open(fd_path(fd), "w", format=setup.container)
    except BaseException:
        os.close(fd)
        raise
    count = 0
    encoder = None
    try:
        stream = container.add_stream(setup.format.codec, rate=setup.frame_rate)
        configure(stream.codec_context, setup, global_header=False)
        global_header = bool(stream.codec_context.flags & av.codec.context.Flags.global_header)
        # Writes the header, which fixes the stream's time base that `stamp` counts in.
        try:
            container.start_encoding()
        except av.error.FFmpegError as error:
            if isinstance(error, OSError):
                # The file could not be written (a folder we may not write, a full disk): the
                # settings are not at fault, and the caller reports OSErrors as they are.
                raise
            raise refused(setup, error) from None
        writer = _SegmentWriter(container, stream, setup, global_header, fmt, codec_options,
                                first_frame_index, keyframe_interval, on_frame)
        encoder = EncoderThread(writer.write)
        for rgba in itertools.chain([first], iterator):
            check_frame(rgba, width, height)
            # Converted here, on the caller's thread: a converted frame is a copy, so the
            # caller may draw the next frame into `rgba` while this one is encoded.
            encoder.put(setup.frame(rgba), first_frame_index + count)
            count += 1
        encoder.finish()
        writer.finish()
    except BaseException:
        if encoder is not None:
            encoder.stop()
        try:
            container.close()
        except Exception:
            pass  # a half-written file may not close cleanly; the first error is the one to tell
        os.close(fd)
        raise
    try:
        container.close()
    finally:
        os.close(fd)
    return Segment(path, first_frame_index, count)


class _SegmentWriter:
    """The encoding side of a segment, run on its encoder thread (encoder_thread.py): restarts
    the encoder on the key frame grid, encodes, and muxes the packets in frame order."""

    def __init__(self, container, stream, setup, global_header: bool, fmt: str,
                 codec_options: dict | None, first_frame_index: int, keyframe_interval: int,
                 on_frame: Callable[[int], None] | None) -> None:
        self._container = container
        self._stream = stream
        self._setup = setup
        self._global_header = global_header
        self._fmt = fmt
        self._codec_options = codec_options
        self._keyframe_interval = keyframe_interval
        self._on_frame = on_frame
        self._encoder = None
        self._due = first_frame_index  # the index the next packet must carry

    def write(self, frame: av.VideoFrame, index: int) -> None:
        setup = self._setup
        restart = index % self._keyframe_interval == 0 and self._fmt not in INTRA_ONLY
        if self._encoder is None or restart:
            if self._encoder is not None:
                self._drain(self._encoder.encode(None))
            self._encoder = fresh_encoder(setup, self._global_header)
            if self._encoder.extradata != self._stream.codec_context.extradata:
                # The file's header describes every packet; a restarted encoder whose
                # parameter sets differ would make the packets after it undecodable.
                raise SegmentError(f"the {self._fmt} encoder produced a different stream header "
                                   "after a restart, so its segments cannot be joined; report "
                                   f"this with the codecOptions {self._codec_options}")
        frame.pts = index
        frame.time_base = self._encoder.time_base
        self._drain(self._encoder.encode(frame))
        if self._on_frame is not None:
            self._on_frame(index)

    def finish(self) -> None:
        if self._encoder is not None:
            self._drain(self._encoder.encode(None))

    def _drain(self, packets) -> None:
        # Without B-frames packets come out in frame order, one per frame, each with its
        # frame index as pts. Checked, because stamping would hide a reordering encoder
        # (a codecOption turning B-frames back on) behind plausible timestamps.
        for packet in packets:
            index = packet.pts
            if index != self._due:
                raise SegmentError(
                    f"the {self._fmt} encoder returned frame {index} where frame "
                    f"{self._due} was due; it reorders frames (B-frames), which segments cannot "
                    "be joined with; remove the codecOption that enables them")
            self._due += 1
            packet.stream = self._stream
            stamp(packet, index, self._setup.frame_rate, self._stream)
            self._container.mux(packet)
