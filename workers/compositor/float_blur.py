"""A Gaussian blur of float pixels (numpy), made cheap by blurring at a coarser step.

A blur of sigma s pixels is smooth at every scale finer than s, so it is computed on pixels
averaged over blocks of `step` x `step` (a power of two) with the Gaussian that is left,
sigma / step being at least COARSE_SIGMA, and drawn back up with linear filtering
(float_effects.py). The error against an exact Gaussian is about one 8-bit level, as Skia's own
three-box approximation's is; the difference is that nothing here rounds to 8 bits.

Pixels are premultiplied, shaped (height, width, channels), float32 (or 8-bit, as a layer's content
is read back, for `reduce`); outside them is clear (as Skia's decal tile mode).
"""

from __future__ import annotations

import math

import numpy as np

# Below this sigma (in the pixels blurred) a sampled Gaussian is too narrow for linear
# filtering to draw back up without visible error; 2 keeps that error under one 8-bit level.
COARSE_SIGMA = 2.0
# Taps out to this many sigmas: what lies beyond weighs under 0.3%.
REACH = 3.0


def blur_step(sigma: float) -> int:
    """The coarsest power-of-two step a blur of `sigma` pixels can run at."""
    step = 1
    while sigma / (2 * step) >= COARSE_SIGMA:
        step *= 2
    return step


def reduce(pixels: np.ndarray, factor: int) -> np.ndarray:
    """`pixels` (8-bit or float) averaged over blocks of factor x factor, as float; the height
    and width are multiples of factor (float_effects.py pads its work box so)."""
    height, width, channels = pixels.shape
    if factor == 1:
        return as_float(pixels)
    # Whole rows added first (long contiguous adds), then the k-times smaller result across:
    # five to ten times quicker than one mean over both block axes. 8-bit pixels are added as
    # integers, which also spares converting the full-size array.
    total = np.uint32 if pixels.dtype == np.uint8 else np.float32
    rows = pixels.reshape(height // factor, factor, width * channels).sum(axis=1, dtype=total)
    blocks = rows.reshape(height // factor, width // factor, factor, channels).sum(axis=2)
    scale = 1.0 / (factor * factor * (255 if pixels.dtype == np.uint8 else 1))
    return blocks.astype(np.float32) * np.float32(scale)


def as_float(pixels: np.ndarray) -> np.ndarray:
    """8-bit pixels as float 0..1; float pixels as they are."""
    if pixels.dtype == np.uint8:
        return pixels.astype(np.float32) * np.float32(1 / 255)
    return pixels


def residual_sigma(sigma: float, step: int, from_step: int) -> float:
    """The sigma, in pixels of `step`, still to blur after averaging from `from_step` to `step`:
    a block average of width w is itself a blur of variance w^2 / 12."""
    added = (step * step - from_step * from_step) / 12.0
    return math.sqrt(max(sigma * sigma - added, 0.0)) / step


def gaussian_blur(pixels: np.ndarray, sigma_x: float, sigma_y: float) -> np.ndarray:
    """`pixels` blurred by a Gaussian of sigma_x across and sigma_y down (in its pixels)."""
    return _blur_axis(_blur_axis(pixels, sigma_y, 0), sigma_x, 1)


def _blur_axis(pixels: np.ndarray, sigma: float, axis: int) -> np.ndarray:
    if sigma < 0.25:
        return pixels  # a blur of under a quarter pixel changes no pixel by a level
    radius = int(math.ceil(REACH * sigma))
    offsets = np.arange(-radius, radius + 1, dtype=np.float64)
    taps = np.exp(-0.5 * (offsets / sigma) ** 2)
    taps = (taps / taps.sum()).astype(np.float32)
    length = pixels.shape[axis]
    widths = [(0, 0)] * pixels.ndim
    widths[axis] = (radius, radius)
    padded = np.pad(pixels, widths)
    out = np.zeros_like(pixels)
    window = [slice(None)] * pixels.ndim
    for offset, weight in enumerate(taps):
        window[axis] = slice(offset, offset + length)
        out += weight * padded[tuple(window)]
    return out
