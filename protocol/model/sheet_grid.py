"""A contact sheet's grid: where each of its frames and labels sits, which the worker that draws
the sheet (workers/contact_sheets.py) and the supervisor that sizes its frames and describes it
(supervisor/render/filmstrip.py) must agree on.

    ┌──────────┐ ┌──────────┐ ┌──────────┐
    │  frame   │ │  frame   │ │  frame   │   PADDING around and between cells
    └──────────┘ └──────────┘ └──────────┘
     0.00 s · frame 0   0.50 s · frame 15 ...   a LABEL_HEIGHT strip under each

Pure: numbers only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PADDING = 8
LABEL_HEIGHT = 22
LABEL_SIZE = 14


@dataclass(frozen=True)
class Grid:
    columns: int
    rows: int
    cell_width: int
    cell_height: int

    @property
    def width(self) -> int:
        return self.columns * self.cell_width + (self.columns + 1) * PADDING

    @property
    def height(self) -> int:
        return self.rows * (self.cell_height + LABEL_HEIGHT) + (self.rows + 1) * PADDING

    def origin(self, index: int) -> tuple[int, int]:
        """Top-left corner of cell `index`'s frame (cells run left to right, then down)."""
        row, column = divmod(index, self.columns)
        return (PADDING + column * (self.cell_width + PADDING),
                PADDING + row * (self.cell_height + LABEL_HEIGHT + PADDING))


def frame_side(count: int, columns: int, comp_size: tuple[int, int], max_side: int) -> int:
    """The longer side of each frame such that a sheet of `count` frames in `columns` has no
    side longer than `max_side` (frames are never drawn larger than the comp)."""
    width, height = comp_size
    rows = math.ceil(count / columns)
    by_width = (max_side - (columns + 1) * PADDING) / columns
    by_height = ((max_side - (rows + 1) * PADDING) / rows - LABEL_HEIGHT) * width / height
    cell_width = max(1.0, min(by_width, by_height, float(width)))
    return max(1, math.floor(cell_width * max(width, height) / width))
