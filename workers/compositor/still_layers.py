"""The still bottom of a comp, kept as pixels: the background and the run of lowest layers that
cannot change over a chunk (nothing of them animated, no footage that plays, no effect or mask
that moves; render_plan.py decides), drawn once and restored for the frames after.

What is kept is the canvas itself right after those layers were drawn, and a frame restores it
and draws the rest on top: the very pixels drawing them again gives. Only the bottom run is
kept, for that reason: a still run higher up would have to be blended, as a kept image, over
what lies below it, and 8-bit premultiplied blending of one image rounds differently from
drawing its layers there one by one.

When the array a frame is drawn into still holds the frame before (a render chunk's one buffer,
which the exporter only reads; the caller says so), only the pixels that frame drew over the
still bottom are put back: the device boxes of the layers it drew, from their bounds, outset
past anti-aliasing. One moving title over a still background then costs its own box, not a
frame-sized copy. A layer whose reach cannot be told (effects, masks, precomps, footage) makes
the whole frame be put back.

Keeping pays only when drawing those layers costs more than putting them back, so where a
whole frame must be copied each time a run is timed when it is drawn a second time and kept
only if drawing it took longer than copying it (a full-frame solid under one moving title
costs less to draw than 8 MiB to copy).
"""

from __future__ import annotations

import math
import time
import weakref
from collections import OrderedDict

import numpy as np

# Bytes of kept pixels per worker process. Each entry is one output frame (8 MiB at 1080p,
# 32 MiB at 4K): a render keeps one per chunk's still run, a preview worker one per comp and
# preview size it shows. The budget is held by every drawing worker (each render worker and the
# preview worker), so more keeps more comps' still bottoms warm at the price of resident memory
# times the worker count; less, and a run is drawn again each time it is evicted: one extra
# draw of those layers per chunk, never a wrong pixel.
STILL_LAYER_BYTES = 96 << 20
# Runs remembered as not worth keeping (drawn faster than copied), so they are not timed again.
MAX_DECLINED = 256
# Anti-aliasing and rounding reach past a layer's bounds by less than a pixel; two is margin.
BOX_MARGIN = 2
# Past this many boxes a frame puts back their bounding box (copying many small boxes one by
# one costs more than one larger copy).
MAX_BOXES = 64
FULL = None  # a drawn box that could reach anywhere
# Arrays whose last frame is remembered: a render's buffer, the surfaces of a size or two.
MAX_RECORDS = 4


class StillLayers:
    """Kept still runs by key (render_plan.py's: the plan, the output, what shows, its files)."""

    def __init__(self, budget_bytes: int = STILL_LAYER_BYTES, always: bool = False) -> None:
        self.budget_bytes = budget_bytes
        # Keep every run that fits, however cheap to draw (tests, to compare kept and drawn).
        self.always = always
        self._kept: OrderedDict = OrderedDict()  # key -> (pixels, missing footage)
        self._bytes = 0
        self._seen: OrderedDict = OrderedDict()  # key -> None: drawn once, timed the next time
        self._declined: OrderedDict = OrderedDict()
        self.restores = 0  # frames that put a kept run back (for benchmarks and tests)
        self.restores_in_part = 0  # of them, those that put back only boxes
        # id(array) -> (weak reference to the array, key, damage) of the last frame drawn
        # into it (see record)
        self._last: OrderedDict = OrderedDict()

    def restore(self, key: tuple, pixels: np.ndarray, boxes: list | None = None) -> list | None:
        """Put the run kept under `key` back into `pixels` (only within `boxes`, when given)
        and return the footage it found missing; None when nothing is kept under it."""
        kept = self._kept.get(key)
        if kept is None:
            return None
        self._kept.move_to_end(key)
        self.restores += 1
        if boxes is None:
            np.copyto(pixels, kept[0])
        else:
            self.restores_in_part += 1
            for top, bottom, left, right in boxes:
                pixels[top:bottom, left:right] = kept[0][top:bottom, left:right]
        return kept[1]

    def record(self, pixels: np.ndarray, key: tuple | None, damage: list | None) -> None:
        """A frame was drawn into `pixels`: over the run kept under `key`, into `damage` (device
        boxes, FULL for anywhere); `key` None for a frame that cannot be built on."""
        self._last.pop(id(pixels), None)
        if key is not None and damage is not None:
            # The array is referred to weakly: holding it would keep a surface frame.py freed
            # (four huge previews' surfaces, half a GB idle); a dead reference tells an array
            # made later under the same id from this one.
            self._last[id(pixels)] = (weakref.ref(pixels), key, damage)
            while len(self._last) > MAX_RECORDS:
                self._last.popitem(last=False)

    def drawn_over(self, pixels: np.ndarray, key: tuple) -> list | None:
        """The boxes (rows and columns, clipped to the frame) the last frame drawn into
        `pixels` drew over the run under `key`, if it was drawn over that run; else None."""
        last = self._last.get(id(pixels))
        if last is None or last[0]() is not pixels or last[1] != key or FULL in last[2]:
            return None
        height, width = pixels.shape[:2]
        boxes = []
        for left, top, right, bottom in last[2]:
            box = (max(0, math.floor(top) - BOX_MARGIN),
                   min(height, math.ceil(bottom) + BOX_MARGIN),
                   max(0, math.floor(left) - BOX_MARGIN),
                   min(width, math.ceil(right) + BOX_MARGIN))
            if box[0] < box[1] and box[2] < box[3]:
                boxes.append(box)
        if len(boxes) > MAX_BOXES:
            boxes = [(min(b[0] for b in boxes), max(b[1] for b in boxes),
                      min(b[2] for b in boxes), max(b[3] for b in boxes))]
        return boxes

    def offer(self, key: tuple, pixels: np.ndarray, seconds: float, missing: list,
              restored_in_part: bool = False) -> None:
        """The run under `key` was just drawn into `pixels`, in `seconds`: keep a copy if that
        is worth it (always, when frames will put back only what they drew over it)."""
        if key in self._declined or pixels.nbytes > self.budget_bytes:
            return
        if restored_in_part:
            self._keep(key, pixels.copy(), missing)
            return
        if not self.always and key not in self._seen:
            # The first draw pays for first uses (a layout, a decode); time the second.
            _remember(self._seen, key)
            return
        started = time.perf_counter()
        copy = pixels.copy()
        if not self.always and seconds <= time.perf_counter() - started:
            _remember(self._declined, key)
            return
        self._keep(key, copy, missing)

    def _keep(self, key: tuple, copy: np.ndarray, missing: list) -> None:
        self._seen.pop(key, None)
        self._kept[key] = (copy, list(missing))
        self._bytes += copy.nbytes
        while self._bytes > self.budget_bytes:
            _, (dropped, _) = self._kept.popitem(last=False)
            self._bytes -= dropped.nbytes

    def clear(self) -> None:
        self._kept.clear()
        self._bytes = 0
        self._seen.clear()
        self._declined.clear()
        self._last.clear()


def _remember(keys: OrderedDict, key: tuple) -> None:
    keys[key] = None
    while len(keys) > MAX_DECLINED:
        keys.popitem(last=False)


# One per worker process, for every plan it draws.
STILL_LAYERS = StillLayers()
