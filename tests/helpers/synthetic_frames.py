"""Frames for the exporter tests: smooth enough for lossy codecs to keep them close, different
enough from frame to frame that a swapped or repeated frame is caught."""

from __future__ import annotations

import numpy as np
import skia

WIDTH, HEIGHT = 64, 48


def moving_frame(index: int, width: int = WIDTH, height: int = HEIGHT,
                 alpha: bool = False) -> np.ndarray:
    """Frame `index`: a diagonal gradient under a 16x16 block that moves 2 px a frame; with
    alpha, opacity falls from left to right."""
    yy, xx = np.mgrid[0:height, 0:width]
    frame = np.empty((height, width, 4), np.uint8)
    frame[..., 0] = 40 + (xx * 2 + index * 3) % 160
    frame[..., 1] = 60 + yy * 2
    frame[..., 2] = 200 - yy * 2
    frame[..., 3] = 255
    left = (index * 2) % (width - 16)
    frame[16:32, left:left + 16, :3] = (240, 240, 40)
    if alpha:
        frame[..., 3] = (255 - xx * 255 // (width - 1)).astype(np.uint8)
    return frame


def moving_frames(count: int, start: int = 0, **kwargs) -> list[np.ndarray]:
    return [moving_frame(i, **kwargs) for i in range(start, start + count)]


def earlier_frame(path) -> bytes:
    """Write a whole 4x4 PNG at `path`, standing for a frame an earlier render left (a render
    with skipExisting keeps it); returns its bytes."""
    skia.Surface(4, 4).makeImageSnapshot().save(str(path), skia.kPNG)
    with open(path, "rb") as file:
        return file.read()
