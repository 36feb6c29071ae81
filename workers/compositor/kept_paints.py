"""A drawing's paints, kept between frames: made for the opacity and blend mode the drawing is
drawn with, and made again only when those change. A render plan draws a still layer every
frame with the paints of its first (making a Skia paint and its color costs several times what
drawing a small rect does from Python); a layer whose opacity moves gets new ones each frame,
exactly as it would without the plan.
"""

from __future__ import annotations

from typing import Callable

import skia


class KeptPaints:
    def __init__(self, make: Callable[[float, skia.BlendMode], list]) -> None:
        self._make = make  # make(opacity, blend) -> [skia.Paint, ...]
        self._key = None
        self._paints: list = []

    def get(self, paint_args: dict) -> list:
        opacity, blend = paint_args["opacity"], paint_args["blend"]
        kept = self._key
        # `is` first: comparing Skia's blend modes with == costs more than drawing a small rect.
        if kept is None or opacity != kept[0] or (blend is not kept[1] and blend != kept[1]):
            self._paints, self._key = self._make(opacity, blend), (opacity, blend)
        return self._paints
