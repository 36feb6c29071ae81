"""Joining a video's segments into its final file by stream copy.

Packets are copied as they are (no decode, no re-encode) into a temporary file next to the
final path, which is renamed into place only when complete: the final name never holds a
partial video. The first segment's stream header (codec parameters and extradata) serves
all segments, which holds because every segment comes from an identically configured encoder
(see video_encoders.py); a segment whose header differs is refused rather than joined into a
file that players would decode wrongly.

A video with sound gets its sound track (sound_tracks.py: mixed once for the whole item, in
the same container) copied in the same pass, its packets interleaved with the pictures' by
time; the pictures' packets are the same bytes as without it.
"""

from __future__ import annotations

import contextlib
import os
from typing import Iterator

import av

from protocol.model.frame_rates import exact_frame_rate
from workers.exporter.atomic_files import publish, temporary_path
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.output_folders import fd_path
from workers.exporter.video_encoders import CONTAINERS, SEGMENT_CONTAINERS, stamp

# WebM writes random segment and track ids unless told to be exact: the same render must make
# the same file.
CONTAINER_OPTIONS = {"vp9": {"fflags": "+bitexact"}}


GIF_SIGNATURES = (b"GIF87a", b"GIF89a")


class JoinError(RuntimeError):
    """Segments that cannot be joined into one video; the message names the segment."""


def join_segments(segment_paths: list[str], fmt: str, final_path: str, frame_rate,
                  opened: OpenedFiles | None = None, remove_segments: bool = True,
                  sound_track: str | None = None) -> int:
    """Copy the segments' packets, in order, into `final_path`, with the packets of
    `sound_track` (a file of the same container) beside them; returns the frame count.

    The segments must follow each other without gap or overlap, the first starting at the
    video's frame 0. `final_path` appears only when complete, and is recorded in `opened`
    (call `opened.keep([final_path])` once the item counts as done). The segments are then
    removed (and forgotten) unless `remove_segments` is False; on an error they stay, for the
    record's cleanup; so does the sound track, which is the caller's to remove."""
    if not segment_paths:
        raise JoinError(f"no segments to join into {final_path}; render at least one frame")
    opened = opened if opened is not None else OpenedFiles()
    rate = exact_frame_rate(frame_rate)
    opened.make_folders(final_path)
    temporary = temporary_path(final_path)
    fd = opened.create(temporary)
    try:
        frame_count = _copy_packets(segment_paths, fmt, fd_path(fd), rate, sound_track, opened)
    except BaseException:
        # The temporary is ours alone and useless now; the segments stay for the caller.
        opened.remove(temporary)
        raise
    finally:
        os.close(fd)
    publish(temporary, final_path, opened)
    if remove_segments:
        for path in segment_paths:
            if not opened.remove(path):
                raise OSError(f"segment {path} could not be removed")
    return frame_count


@contextlib.contextmanager
def opened_for_reading(opened: OpenedFiles, path: str) -> Iterator[av.container.InputContainer]:
    """A file of the render's (a segment, a sound track) open in FFmpeg through a descriptor
    taken in its held folder, so no link at its name is followed."""
    fd = opened.open_read(path)
    try:
        with av.open(fd_path(fd)) as container:
            yield container
    finally:
        os.close(fd)


def _copy_packets(segment_paths: list[str], fmt: str, temporary: str, rate,
                  sound_track: str | None, opened: OpenedFiles) -> int:
    """Copy every segment's packets into a new `fmt` file at `temporary`; the frame count."""
    frame_count = 0
    gif_header = b""
    with av.open(temporary, "w", format=CONTAINERS[fmt],
                 options=CONTAINER_OPTIONS.get(fmt, {})) as output, \
            SoundPackets(sound_track, opened) as sound:
        out_stream = None
        extradata = None
        for path in segment_paths:
            with opened_for_reading(opened, path) as segment:
                stream = segment.streams.video[0]
                if out_stream is None:
                    # Opaque: the stream copied with its decoder, as no encoder is needed
                    # (and AV1's decoder, libdav1d, has no encoder of its name).
                    out_stream = output.add_stream_from_template(stream, opaque=True)
                    out_stream.time_base = 1 / rate
                    # The template's bit rate is the first segment's own average; MP4 writes
                    # it as the maximum (btrt) when above the file's average, which would make
                    # the joined bytes depend on where the video was split. Left unset, the
                    # muxer works both out from every packet.
                    out_stream.codec_context.bit_rate = 0
                    if SEGMENT_CONTAINERS[fmt] == CONTAINERS[fmt]:
                        # The template drops the tag, and the muxer's default would say
                        # hev1 for hvc1 and ProRes HQ for every ProRes profile.
                        out_stream.codec_tag = stream.codec_context.codec_tag
                    sound.add_stream_to(output)
                    output.start_encoding()
                    extradata = stream.codec_context.extradata
                elif stream.codec_context.extradata != extradata:
                    raise JoinError(f"segment {path} was encoded with different settings "
                                    "from the first segment; encode every segment of a video "
                                    "with the same format and codecOptions")
                first_in_segment = True
                for packet in segment.demux(stream):
                    if packet.size == 0 or packet.pts is None:
                        continue  # the demuxer's end-of-stream marker
                    if first_in_segment:
                        _check_segment_start(packet, path, frame_count, rate)
                        first_in_segment = False
                    if fmt == "gif" and frame_count == 0:
                        gif_header = _gif_header(bytes(packet))
                    elif fmt == "gif":
                        packet = _without_gif_header(packet, gif_header, path)
                    packet.stream = out_stream
                    stamp(packet, frame_count, rate, out_stream)
                    sound.mux_until(output, frame_count / rate)
                    output.mux(packet)
                    frame_count += 1
        sound.mux_until(output, None)
    return frame_count


class SoundPackets:
    """A sound track's packets, copied into a joined video up to each picture's time, so the
    file interleaves them as a player reads it (no muxer buffering a whole track). With no
    track it does nothing."""

    def __init__(self, path: str | None, opened: OpenedFiles) -> None:
        self.path = path
        self._opened = opened
        self._closing = contextlib.ExitStack()
        self._container = None
        self._stream = None
        self._out = None
        self._pending = None
        self._packets = iter(())

    def __enter__(self) -> "SoundPackets":
        if self.path is not None:
            self._container = self._closing.enter_context(
                opened_for_reading(self._opened, self.path))
            self._stream = self._container.streams.audio[0]
            self._packets = (packet for packet in self._container.demux(self._stream)
                             if packet.size and packet.dts is not None)
        return self

    def __exit__(self, *exc) -> None:
        self._closing.close()

    def add_stream_to(self, output) -> None:
        if self._stream is not None:
            self._out = output.add_stream_from_template(self._stream)

    def mux_until(self, output, seconds) -> None:
        """Copy the packets that start by `seconds` (all that are left, for None)."""
        while True:
            if self._pending is None:
                self._pending = next(self._packets, None)
                if self._pending is None:
                    return
            packet = self._pending
            if seconds is not None and packet.dts * packet.time_base > seconds:
                return
            packet.stream = self._out
            output.mux(packet)
            self._pending = None


def _check_segment_start(packet: av.Packet, path: str, expected: int, rate) -> None:
    if not packet.is_keyframe:
        raise JoinError(f"segment {path} does not start on a key frame, so it cannot be joined "
                        "by copy; encode it with encode_segment")
    # Containers store times in their own units (MP4 rounds an edit list to milliseconds);
    # the frame index is the nearest whole frame.
    index = round(packet.pts * packet.time_base * rate)
    if index != expected:
        raise JoinError(f"segment {path} starts at frame {index} but the segments before it "
                        f"end before frame {expected}; join the segments of one video in "
                        "order, with none missing")


def _gif_header(data: bytes) -> bytes:
    """The GIF file header (signature, screen descriptor, global colour table) that FFmpeg's
    GIF encoder puts at the start of its first packet, so at the start of every segment;
    empty when there is none."""
    if data[:6] not in GIF_SIGNATURES:
        return b""
    packed = data[10]
    table = 3 * 2 ** ((packed & 0x07) + 1) if packed & 0x80 else 0
    return data[:13 + table]


def _without_gif_header(packet: av.Packet, first_header: bytes, path: str) -> av.Packet:
    """A later segment's first GIF packet without its file header, which mid-file would be
    read as garbage; refused if its colours differ from the first segment's, since the
    joined file keeps only the first header's global colour table."""
    data = bytes(packet)
    header = _gif_header(data)
    if not header:
        return packet
    if header != first_header:
        raise JoinError(f"segment {path} has a different GIF colour table from the first "
                        "segment; encode every segment of a GIF with the same settings")
    stripped = av.Packet(data[len(header):])
    stripped.is_keyframe = packet.is_keyframe
    return stripped
