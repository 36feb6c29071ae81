"""The size in pixels a comp is drawn at for a render's scale.

Arithmetic alone, no Skia: the supervisor sizes a video's encoder settings with it (the
segment cache's key) without importing the compositor's drawing code.
"""

from __future__ import annotations


def output_size(comp: dict, scale: float) -> tuple[int, int]:
    if not scale > 0:
        raise ValueError(f"scale must be above 0 (1 is full size, 0.5 half), not {scale!r}")
    width = max(1, int(round(float(comp.get("width", 1920)) * scale)))
    height = max(1, int(round(float(comp.get("height", 1080)) * scale)))
    return width, height
