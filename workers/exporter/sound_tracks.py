"""A mixed sound track encoded into a file of its own: the track a video's join copies in
beside the pictures (join.py), or a wav item's whole output.

The track is written once per item, by one worker, under a temporary name known before the job
is sent (`sound_track_path` in sound_track_plan.py, from the item's token), so the supervisor's
record holds it before anything is written and a cancel or a killed worker leaves nothing
behind. It is written in the container its item's file will be (MP4 for h264, hevc and av1,
QuickTime for prores, WebM for vp9, WAV for wav), so the encoder's header (AAC's priming,
Opus's pre-skip) and each packet's timing travel with a plain stream copy.

Every container is opened with `fflags=+bitexact`: WebM otherwise writes random segment and
track ids, and the same mix must make the same bytes on every render. The mix is clipped to
full scale (it says so in its report) except into pcm_f32le, which holds what is past it.
"""

from __future__ import annotations

import fractions
import os

import av
import numpy as np

from protocol.model.codec_options import CodecOptionRefused, audio_bitrate, check_audio_options
from protocol.model.output_formats import AUDIO_CODECS, FORMATS
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.output_folders import fd_path
from workers.exporter.sound_track_plan import FLOAT_CODEC
from workers.exporter.video_encoders import CONTAINERS, CodecOptionError

SOUND_CONTAINERS = {**CONTAINERS, "wav": "wav"}
BITEXACT = {"fflags": "+bitexact"}


def audio_codec(fmt: str, name: str | None):
    """The AudioCodec an item of `fmt` is encoded with (its audioCodec, or the format's
    first)."""
    return AUDIO_CODECS[name or FORMATS[fmt].audio_codecs[0]]


class SoundTrackWriter:
    """Blocks of a mix in, one encoded track out at `path` (recorded in `opened` first)."""

    def __init__(self, path: str, fmt: str, codec_name: str | None, bitrate, rate: int,
                 opened: OpenedFiles) -> None:
        try:  # the last place before FFmpeg, whoever sent the job
            check_audio_options(fmt, True, codec_name, bitrate, f"this {fmt} render")
        except CodecOptionRefused as error:
            raise CodecOptionError(str(error)) from None
        self.codec = audio_codec(fmt, codec_name)
        self.rate = rate
        self.samples = 0
        self._fd = opened.create(path)
        try:
            self._container = av.open(fd_path(self._fd), "w", format=SOUND_CONTAINERS[fmt],
                                      options=BITEXACT)
        except BaseException:
            os.close(self._fd)
            raise
        # An encoder that does not take the mix's rate (Opus: 48000 and a few lower) is fed at
        # its own; PyAV's resampler converts each block on the way in.
        encode_rate = rate if not self.codec.rates or rate in self.codec.rates \
            else self.codec.rates[0]
        self._stream = self._container.add_stream(self.codec.encoder, rate=encode_rate,
                                                  layout="stereo")
        self._stream.codec_context.format = self.codec.sample_format
        if self.codec.default_bitrate is not None:
            self._stream.bit_rate = audio_bitrate(bitrate) if bitrate is not None \
                else self.codec.default_bitrate

    def write(self, block: np.ndarray) -> None:
        """The next `block` (2, n) float32 of the mix: every track is stereo."""
        if block.shape[1] == 0:
            return
        if self.codec.name != FLOAT_CODEC:
            block = np.clip(block, -1.0, 1.0)
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(block, np.float32),
                                           format="fltp", layout="stereo")
        frame.sample_rate = self.rate
        frame.time_base = fractions.Fraction(1, self.rate)
        frame.pts = self.samples
        self.samples += block.shape[1]
        for packet in self._stream.encode(frame):
            self._container.mux(packet)

    def close(self) -> None:
        """Flush the encoder and finish the file."""
        try:
            for packet in self._stream.encode(None):
                self._container.mux(packet)
            self._container.close()
        finally:
            self._release()

    def abandon(self) -> None:
        """Close without flushing (a cancel, a failure): the file is removed by its record."""
        try:
            self._container.close()
        except (av.FFmpegError, OSError, ValueError):
            pass
        self._release()

    def _release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
