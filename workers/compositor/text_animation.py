"""Text animators: per character, word or line offsets of a layout's glyphs."""

from __future__ import annotations


def animated_draws(layout, animators: list, color, time: float) -> list:
    return [(layout.blob, color, 0.0)]
