"""One open video file, decoded forward with PyAV.

A render walks its frames in order, so the decoder stays open between frames and the next frame
is usually the next packet: decoding from the file's start (or even from the last key frame) for
every frame would make a render quadratic in the clip's length. It seeks only when asked for a
frame behind the one it holds, or far enough ahead that decoding forward would cost more than a
seek.
"""

from __future__ import annotations

import math
import os

import av
import numpy as np
import skia

from protocol.model.ffmpeg_inputs import OPEN_OPTIONS

# Past this many frames ahead a seek (to the key frame before the target) is cheaper than
# decoding every frame in between; below it, forward decoding avoids re-decoding a GOP.
SEEK_AHEAD_FRAMES = 48

# What a damaged or unsupported file raises while opening or decoding.
DECODE_ERRORS = (av.FFmpegError, OSError, ValueError)


class VideoDecoder:
    def __init__(self, path: str):
        self.path = path
        # Absolute, so no name is read as a protocol (`file:/elsewhere`); and with
        # OPEN_OPTIONS, so FFmpeg reads this one file and no other it might name.
        self.container = av.open(os.path.abspath(path), container_options=OPEN_OPTIONS)
        self.stream = self.container.streams.video[0]
        self.stream.thread_type = "AUTO"
        rate = self.stream.average_rate or self.stream.guessed_rate or 30
        self.frame_rate = float(rate)
        self.time_base = float(self.stream.time_base)
        start = self.stream.start_time
        self.start_seconds = start * self.time_base if start is not None else 0.0
        frames = self.stream.frames
        if not frames and self.stream.duration:
            frames = int(round(self.stream.duration * self.time_base * self.frame_rate))
        self.frame_count = frames or None
        self._frames = None
        self._pending = None  # (index, av.VideoFrame): decoded, past the last target
        self._index = -1
        self._image: skia.Image | None = None
        # The frame index last asked for: it may be behind _index when the file skips frames,
        # and asking again (motion blur samples, several layers) must not seek.
        self._target = -1
        # How often this decoder had to seek: a sequential render should need exactly one.
        self.seeks = 0

    def close(self) -> None:
        self._frames = None
        self.container.close()

    def image_at(self, seconds: float) -> skia.Image | None:
        """The frame showing at `seconds` into the clip, clamped to the clip's frames."""
        target = max(0, int(math.floor(seconds * self.frame_rate + 1e-6)))
        if self.frame_count:
            target = min(target, self.frame_count - 1)
        if target in (self._index, self._target) and self._image is not None:
            return self._image
        if self._frames is None or target < self._index or \
                target > self._index + SEEK_AHEAD_FRAMES:
            self._seek(target)
        self._target = target
        return self._decode_until(target)

    def _seek(self, target: int) -> None:
        seconds = self.start_seconds + target / self.frame_rate
        self.container.seek(int(seconds / self.time_base), stream=self.stream, backward=True,
                            any_frame=False)
        self.seeks += 1
        self._frames = self.container.decode(self.stream)
        self._index = self._target = -1
        self._image = None
        self._pending = None

    def _decode_until(self, target: int) -> skia.Image | None:
        """Decode forward to the frame showing at `target`: the newest frame at or before it
        (a file that skips frames keeps showing the frame before the gap). The first frame
        past the target is kept as pending for the next call; only the frame chosen is
        converted to an image."""
        chosen = None
        while True:
            if self._pending is None:
                frame = next(self._frames, None) if self._frames is not None else None
                if frame is None:
                    self._frames = None  # the end: whatever shows last holds
                    break
                self._pending = (self._frame_index(frame), frame)
            if self._pending[0] > target:
                break
            chosen, self._pending = self._pending, None
        if chosen is None:
            if self._image is not None and self._index <= target:
                return self._image  # the frame already shown is still the one showing
            if self._pending is None:
                return self._image
            # The target is before the file's first frame: show the first.
            chosen, self._pending = self._pending, None
        self._index, self._image = chosen[0], to_image(chosen[1])
        return self._image

    def _frame_index(self, frame: av.VideoFrame) -> int:
        if frame.pts is None:
            return self._index + 1
        seconds = frame.pts * self.time_base - self.start_seconds
        return int(round(seconds * self.frame_rate))


# 8-bit chroma-subsampled formats whose conversion to packed RGBA swscale gets wrong in the
# last columns of a frame 2 or 4 pixels wider than a multiple of 16 (18, 20, 34, 36, 68, 100,
# 612 ...): up to 255 off there. Its RGB24 output is right at every width.
_SUBSAMPLED = {"yuv420p", "yuvj420p", "yuv422p", "yuvj422p", "yuva420p", "yuva422p"}


def frame_pixels(frame: av.VideoFrame) -> np.ndarray:
    """A decoded frame as unpremultiplied RGBA, height x width x 4. 'rgba' keeps the alpha of
    formats that carry it (ProRes 4444, VP9 with alpha)."""
    if frame.width % 16 not in (2, 4) or frame.format.name not in _SUBSAMPLED:
        return frame.to_ndarray(format="rgba")
    pixels = np.empty((frame.height, frame.width, 4), np.uint8)
    pixels[..., :3] = frame.to_ndarray(format="rgb24")
    if frame.format.name.startswith("yuva"):
        plane = frame.planes[3]
        pixels[..., 3] = np.frombuffer(plane, np.uint8).reshape(
            frame.height, plane.line_size)[:, :frame.width]
    else:
        pixels[..., 3] = 255
    return pixels


def to_image(frame: av.VideoFrame) -> skia.Image:
    pixels = np.ascontiguousarray(frame_pixels(frame))
    return skia.Image.fromarray(pixels, colorType=skia.kRGBA_8888_ColorType,
                                alphaType=skia.kUnpremul_AlphaType)
