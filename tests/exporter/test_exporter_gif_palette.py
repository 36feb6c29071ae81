"""GIF palettes: cut from each frame alone, exact for flat graphics, close for gradients."""

from __future__ import annotations

import numpy as np

from workers.exporter.gif_palette import quantize


def rebuilt(rgb):
    indices, palette = quantize(rgb)
    assert indices.shape == rgb.shape[:2] and palette.shape == (256, 4)
    assert (palette[:, 0] == 255).all()  # ARGB, opaque
    return palette[indices][..., 1:]


def test_a_frame_with_few_colours_keeps_them_exactly():
    rgb = np.zeros((40, 60, 3), np.uint8)
    rgb[:, :20] = (13, 200, 77)
    rgb[:, 20:40] = (14, 201, 78)  # shares a 5-bit bin with the first: still told apart
    rgb[:, 40:] = (250, 250, 250)
    assert np.array_equal(rebuilt(rgb), rgb)


def test_a_gradient_stays_close_where_a_fixed_palette_bands():
    yy, xx = np.mgrid[0:90, 0:160]
    rgb = np.stack([xx * 255 // 159, yy * 255 // 89, np.full_like(xx, 90)], -1).astype(np.uint8)
    error = np.abs(rebuilt(rgb).astype(int) - rgb)
    assert error.mean() < 3 and error.max() <= 16
    # FFmpeg's fixed rgb8 palette (3-3-2 bits) is what this replaced: far worse.
    fixed = (rgb & np.array([0xE0, 0xE0, 0xC0], np.uint8)).astype(int)
    assert np.abs(fixed - rgb).mean() > 3 * error.mean()


def test_the_palette_depends_on_the_frame_alone():
    rng = np.random.default_rng(3)
    rgb = rng.integers(0, 256, (30, 40, 3), dtype=np.uint8)
    first = quantize(rgb)
    quantize(rng.integers(0, 256, (30, 40, 3), dtype=np.uint8))  # another frame between
    again = quantize(rgb.copy())
    assert np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1])
