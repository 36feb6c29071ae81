"""Frames deeper than 8 bits (float32 straight RGBA, sRGB-encoded, from a 16-bit or float comp:
workers/compositor/deep_frames.py) turned into an output's samples.

- Outputs of more than 8 bits a sample (16-bit PNG and TIFF, 10-bit ProRes and HEVC) take the
  frame as 16-bit RGBA (`as_16_bits`), which FFmpeg converts to their pixel format.
- 8-bit outputs take it rounded to 8 bits through a fixed 8x8 ordered pattern one level high
  (`as_8_bits`), so a gradient finer than 8 bits keeps its steps as a pattern rather than
  bands, as the compositor's own gradients do; keyed by pixel position only, so the bytes do
  not depend on how a render is split.
- EXR takes linear light (`as_linear`): the sRGB curve undone, as scene-referred files hold it.

Values beyond 0..1 (a float comp's highlights) are kept in EXR and clipped in every other
output. Alpha is never dithered beyond rounding.
"""

from __future__ import annotations

import functools

import av
import numpy as np

# The 8x8 Bayer matrix, as thresholds from 0 to 63/64 of a level.
_BAYER = np.array([[0, 32, 8, 40, 2, 34, 10, 42], [48, 16, 56, 24, 50, 18, 58, 26],
                   [12, 44, 4, 36, 14, 46, 6, 38], [60, 28, 52, 20, 62, 30, 54, 22],
                   [3, 35, 11, 43, 1, 33, 9, 41], [51, 19, 59, 27, 49, 17, 57, 25],
                   [15, 47, 7, 39, 13, 45, 5, 37], [63, 31, 55, 23, 61, 29, 53, 21]],
                  np.float32) / 64.0


def is_deep(frame: np.ndarray) -> bool:
    return frame.dtype != np.uint8


@functools.lru_cache(maxsize=4)
def _pattern(height: int, width: int) -> np.ndarray:
    tiles = np.tile(_BAYER, (height // 8 + 1, width // 8 + 1))[:height, :width]
    pattern = np.empty((height, width, 4), np.float32)
    pattern[..., :3] = tiles[..., None]
    pattern[..., 3] = 0.5  # alpha: rounded to nearest
    return pattern


def as_8_bits(frame: np.ndarray) -> np.ndarray:
    """A deep frame as 8-bit straight RGBA, colour rounded through the ordered pattern."""
    if not is_deep(frame):
        return frame
    scaled = np.clip(frame, 0.0, 1.0) * 255.0
    scaled += _pattern(*frame.shape[:2])
    return np.minimum(scaled, 255.0).astype(np.uint8)


def as_16_bits(frame: np.ndarray) -> np.ndarray:
    """A frame as 16-bit straight RGBA (an 8-bit one is scaled exactly: 255 -> 65535)."""
    if not is_deep(frame):
        return frame.astype(np.uint16) * 257
    return np.rint(np.clip(frame, 0.0, 1.0) * 65535.0).astype(np.uint16)


def as_linear(frame: np.ndarray) -> np.ndarray:
    """A frame's colour in linear light (the sRGB curve undone, continued past 1 and mirrored
    below 0 as Skia's extended sRGB is), float32, alpha as it is."""
    rgba = frame.astype(np.float32) / (255.0 if not is_deep(frame) else 1.0)
    rgb = rgba[..., :3]
    magnitude = np.abs(rgb)
    linear = np.where(magnitude <= 0.04045, magnitude / 12.92,
                      ((magnitude + 0.055) / 1.055) ** 2.4)
    out = np.empty_like(rgba)
    out[..., :3] = np.copysign(linear, rgb)
    out[..., 3] = rgba[..., 3]
    return out


def wide_frame(frame: np.ndarray) -> av.VideoFrame:
    """A frame as FFmpeg's 16-bit RGBA, for conversion to a pixel format of more than 8
    bits a sample."""
    return av.VideoFrame.from_ndarray(np.ascontiguousarray(as_16_bits(frame)),
                                      format="rgba64le")
