"""One footage file's sound, decoded forward with PyAV and resampled once to the mix's rate.

A mix asks for its sources block by block, in time order, so the reader keeps its decoder open
and hands out what it decoded: the whole file is never held (an hour of 48 kHz stereo is 1.4 GB
of floats), only the stretch a block needs and KEEP_BEHIND before it. It never seeks: a
compressed stream's seek lands near, not on, a sample, and the same sample must come out of
every render. A read behind what it holds (a loop starting over, a source played backwards)
starts again from the file's beginning.

Each sample is resampled by PyAV's resampler (libswresample) exactly once, from the file's
rate to the mix's. A mono file plays at full level in both channels; stereo stays as it is;
more channels are mixed down to two by the resampler.
"""

from __future__ import annotations

import os

import av
import numpy as np

from protocol.model.audio import CHANNELS
from protocol.model.ffmpeg_inputs import OPEN_OPTIONS

# How much of what was already handed out stays decoded: a block whose source starts a little
# before the last one ended (a linear interpolation's neighbour, a remap's small step back)
# is served without decoding the file again from its start. One second is 384 KB at 48 kHz.
KEEP_BEHIND_SECONDS = 1.0

DECODE_ERRORS = (av.FFmpegError, OSError, ValueError)


class SoundError(Exception):
    """Footage whose sound cannot be read; the message names the file."""


class SoundReader:
    def __init__(self, path: str, rate: int) -> None:
        self.path = os.path.abspath(path)  # never read as a protocol (`file:/elsewhere`)
        self.rate = rate
        # Where the sound's first sample sits on the footage's clock, in samples: a video's
        # audio may start after its first frame, which is the clip's time 0.
        self.lead = 0
        self.keep_behind = round(KEEP_BEHIND_SECONDS * rate)
        self._container = None
        self._chunks: list[np.ndarray] = []  # decoded, in order, from sample _start
        self._start = 0
        self._decoded = 0  # samples decoded since the file's start
        self._ended = False

    def close(self) -> None:
        if self._container is not None:
            self._container.close()
            self._container = None

    def read(self, first: int, count: int) -> np.ndarray:
        """Samples [first, first + count) on the footage's clock, (CHANNELS, count) float32;
        silent before the sound starts and after it ends."""
        if count <= 0:
            return np.zeros((CHANNELS, 0), np.float32)
        if self._container is None:
            self._restart()
        first -= self.lead
        if max(first, 0) < self._start:
            self._restart()  # what is asked for was decoded and let go
        while not self._ended and self._decoded < first + count:
            self._decode_more()
        held = (np.concatenate(self._chunks, axis=1) if len(self._chunks) > 1 else
                self._chunks[0] if self._chunks else np.zeros((CHANNELS, 0), np.float32))
        out = np.zeros((CHANNELS, count), np.float32)
        low, high = max(first, self._start), min(first + count, self._start + held.shape[1])
        if high > low:
            out[:, low - first:high - first] = held[:, low - self._start:high - self._start]
        self._forget_before(first - self.keep_behind, held)
        return out

    # -- internals -----------------------------------------------------------------------------

    def _restart(self) -> None:
        self.close()
        self._chunks, self._start, self._decoded, self._ended = [], 0, 0, False
        try:
            self._container = av.open(self.path, container_options=OPEN_OPTIONS)
            stream = self._container.streams.audio[0]
        except (*DECODE_ERRORS, IndexError) as error:
            self.close()
            raise SoundError(self._unreadable(error)) from None
        self._mono = stream.codec_context.channels == 1
        self._resampler = av.AudioResampler(format="fltp", layout="mono" if self._mono
                                            else "stereo", rate=self.rate)
        self._frames = self._container.decode(stream)
        self._first = None
        try:
            self._first = next(self._frames, None)
        except DECODE_ERRORS as error:
            raise SoundError(self._unreadable(error)) from None
        self.lead = round(_start_after_pictures(self._container, self._first) * self.rate)

    def _decode_more(self) -> None:
        try:
            frame, self._first = (self._first, None) if self._first is not None else \
                (next(self._frames, None), None)
            converted = self._resampler.resample(frame)  # None flushes the resampler's tail
        except DECODE_ERRORS as error:
            raise SoundError(self._unreadable(error)) from None
        for piece in converted:
            samples = piece.to_ndarray().astype(np.float32, copy=False)
            if self._mono:
                samples = np.repeat(samples[:1], CHANNELS, axis=0)
            self._chunks.append(samples)
            self._decoded += samples.shape[1]
        if frame is None:
            self._ended = True

    def _forget_before(self, sample: int, held: np.ndarray) -> None:
        if sample <= self._start:
            self._chunks = [held] if held.shape[1] else []
            return
        cut = min(sample - self._start, held.shape[1])
        self._chunks = [held[:, cut:]]
        self._start += cut

    def _unreadable(self, error: Exception) -> str:
        seconds = self._decoded / self.rate
        where = f" past {seconds:.2f} s" if self._decoded else ""
        return (f"the sound of {self.path} could not be read{where} ({error}); check the file "
                "or export it again")


def _start_after_pictures(container, first_frame) -> float:
    """Seconds from a video's first frame to its sound's first decoded sample; 0 for sound
    alone, whose first sample is its time 0."""
    pictures = [stream for stream in container.streams.video
                if not stream.disposition & av.stream.Disposition.attached_pic]
    if not pictures or first_frame is None or first_frame.pts is None:
        return 0.0
    start = pictures[0].start_time or 0
    return float(first_frame.pts * first_frame.time_base - start * pictures[0].time_base)
