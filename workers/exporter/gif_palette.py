"""A 256-colour palette for each GIF frame, from that frame alone (median cut).

GIF holds 256 colours per frame. A fixed palette (FFmpeg's rgb8: 3 bits red, 3 green, 2 blue)
bands every gradient; a palette cut from each frame keeps flat graphics exact and gradients
close. Each frame's palette depends on that frame only, never on its neighbours, so any split
of a GIF into segments gives the same frames (see segments.py).

A frame of 256 colours or fewer keeps them exactly. Otherwise colours are binned at 5 bits a
channel (32768 bins) to keep the cut fast at 1080p (about 0.1 s a frame), and each palette
entry is the mean of the true colours in its bins.

With `dither` ("bayer"), a frame with more colours than that is binned after adding an 8x8
ordered (Bayer) pattern one bin high, so a gradient's steps between palette colours are spread
into a fine pattern instead of flat bands. The pattern is fixed to pixel positions, so a frame
still depends on itself alone; flat graphics (256 colours or fewer) stay exact.
"""

from __future__ import annotations

import numpy as np

PALETTE_SIZE = 256
_BITS = 5
# The 8x8 Bayer matrix, thresholds from -0.5 to 0.5 of a bin.
_BAYER = np.array([[0, 32, 8, 40, 2, 34, 10, 42], [48, 16, 56, 24, 50, 18, 58, 26],
                   [12, 44, 4, 36, 14, 46, 6, 38], [60, 28, 52, 20, 62, 30, 54, 22],
                   [3, 35, 11, 43, 1, 33, 9, 41], [51, 19, 59, 27, 49, 17, 57, 25],
                   [15, 47, 7, 39, 13, 45, 5, 37], [63, 31, 55, 23, 61, 29, 53, 21]]
                  ) / 64.0 - 0.5 + 1 / 128


def _bin_keys(rgb: np.ndarray) -> np.ndarray:
    shift = 8 - _BITS
    r, g, b = (rgb[..., c] for c in range(3))
    keys = ((r >> shift).astype(np.int32) << (2 * _BITS)) | \
           ((g >> shift).astype(np.int32) << _BITS) | (b >> shift).astype(np.int32)
    return keys.ravel()


def _ordered(rgb: np.ndarray) -> np.ndarray:
    """`rgb` with the Bayer pattern added, one bin (8 levels) from its lowest to highest."""
    height, width = rgb.shape[:2]
    pattern = np.tile(_BAYER, (height // 8 + 1, width // 8 + 1))[:height, :width]
    offset = pattern[..., None] * (1 << (8 - _BITS))
    return np.clip(rgb + offset, 0, 255).astype(np.uint8)


def quantize(rgb: np.ndarray, dither: str = "none") -> tuple[np.ndarray, np.ndarray]:
    """(indices height x width uint8, palette 256 x 4 uint8 in ARGB order, as PyAV's pal8
    frames take it) for an RGB frame; `dither` "none" or "bayer" (codecOptions dither)."""
    keys = _bin_keys(rgb)
    bins = 1 << (3 * _BITS)
    counts = np.bincount(keys, minlength=bins)
    occupied = np.flatnonzero(counts)
    if len(occupied) <= PALETTE_SIZE:
        exact = _exact(rgb)
        if exact is not None:
            return exact
    if dither == "bayer":
        keys = _bin_keys(_ordered(rgb))
        counts = np.bincount(keys, minlength=bins)
        occupied = np.flatnonzero(counts)
    weights = counts[occupied].astype(np.float64)
    sums = np.stack([np.bincount(keys, weights=rgb[..., c].ravel(), minlength=bins)[occupied]
                     for c in range(3)], axis=1)
    means = sums / weights[:, None]
    boxes = _median_cut(means, weights)
    lut = np.zeros(bins, np.uint8)
    palette = np.zeros((PALETTE_SIZE, 4), np.uint8)
    palette[:, 0] = 255
    for index, members in enumerate(boxes):
        lut[occupied[members]] = index
        colour = sums[members].sum(axis=0) / weights[members].sum()
        palette[index, 1:] = np.clip(np.rint(colour), 0, 255).astype(np.uint8)
    return lut[keys].reshape(rgb.shape[:2]), palette


def _exact(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The frame's own colours when there are 256 or fewer (flat graphics, titles), else
    None. Only tried when the bins say it may be so, as the exact count needs a sort."""
    keys = ((rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8)
            | rgb[..., 2]).ravel()
    colours, indices = np.unique(keys, return_inverse=True)
    if len(colours) > PALETTE_SIZE:
        return None
    palette = np.zeros((PALETTE_SIZE, 4), np.uint8)
    palette[:, 0] = 255
    palette[:len(colours), 1] = colours >> 16
    palette[:len(colours), 2] = (colours >> 8) & 0xFF
    palette[:len(colours), 3] = colours & 0xFF
    return indices.reshape(rgb.shape[:2]).astype(np.uint8), palette


def _median_cut(colours: np.ndarray, weights: np.ndarray) -> list[np.ndarray]:
    """Split the bins into at most 256 boxes: always the box with the widest weighted spread,
    along its widest channel, at its weighted median."""

    def measured(members: np.ndarray) -> tuple[float, int, np.ndarray]:
        if len(members) < 2:
            return 0.0, 0, members
        spans = colours[members].max(axis=0) - colours[members].min(axis=0)
        axis = int(np.argmax(spans))
        return float(spans[axis] * np.sqrt(weights[members].sum())), axis, members

    boxes = [measured(np.arange(len(colours)))]
    while len(boxes) < PALETTE_SIZE:
        best = max(range(len(boxes)), key=lambda i: boxes[i][0])
        score, axis, members = boxes[best]
        if score == 0.0:
            break  # every box holds one bin: the frame has no more colours to tell apart
        order = members[np.argsort(colours[members, axis], kind="stable")]
        cumulative = np.cumsum(weights[order])
        cut = int(np.searchsorted(cumulative, cumulative[-1] / 2)) + 1
        cut = min(max(cut, 1), len(order) - 1)
        boxes[best:best + 1] = [measured(order[:cut]), measured(order[cut:])]
    return [members for _score, _axis, members in boxes]
