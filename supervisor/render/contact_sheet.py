"""A contact sheet: frames in a grid on one PNG, each with a label under it, drawn with Skia.

    ┌──────────┐ ┌──────────┐ ┌──────────┐
    │  frame   │ │  frame   │ │  frame   │   PADDING around and between cells
    └──────────┘ └──────────┘ └──────────┘
     0.00 s · frame 0   0.50 s · frame 15 ...   a LABEL_HEIGHT strip under each

Labels are laid out by the compositor's own text engine (workers/compositor/text_layout.py), in
its bundled default face, so a sheet reads the same on every machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import skia

from workers.compositor.text_layout import lay_out

PADDING = 8
LABEL_HEIGHT = 22
LABEL_SIZE = 14
BACKGROUND = skia.Color4f(0.12, 0.12, 0.12, 1)
LABEL_COLOR = skia.Color4f(0.92, 0.92, 0.92, 1)


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


def draw_sheet(frames: list[bytes], labels: list[str], columns: int) -> tuple[bytes, Grid]:
    """The sheet of `frames` (PNGs of one size) as a PNG, and its grid."""
    images = [skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(png)) for png in frames]
    grid = Grid(columns, math.ceil(len(images) / columns), images[0].width(),
                images[0].height())
    surface = skia.Surface(grid.width, grid.height)
    canvas = surface.getCanvas()
    canvas.clear(BACKGROUND)
    label_paint = skia.Paint(AntiAlias=True)
    label_paint.setColor4f(LABEL_COLOR)
    for index, (image, label) in enumerate(zip(images, labels)):
        left, top = grid.origin(index)
        canvas.drawImage(image, left, top)
        layout = lay_out({"text": label, "size": LABEL_SIZE, "align": "left",
                          "verticalAlign": "middle"})
        if layout.blob is not None:
            canvas.drawTextBlob(layout.blob, left + 2, top + grid.cell_height + LABEL_HEIGHT / 2,
                                label_paint)
    png = surface.makeImageSnapshot().encodeToData(skia.kPNG, 100)
    return bytes(png), grid
