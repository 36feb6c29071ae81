"""A contact sheet drawn with Skia: frames the workers drew, in the grid both sides agree on
(protocol/model/sheet_grid.py), each with a label under it laid out by the compositor's own text
engine in its bundled default face, so a sheet reads the same on every machine. Drawn on a
worker, like every picture: decoding the frames and encoding the sheet would otherwise hold the
supervisor's interpreter while pings wait."""

from __future__ import annotations

import math

import skia

from protocol.model.sheet_grid import LABEL_HEIGHT, LABEL_SIZE, Grid
from workers.compositor.text_layout import lay_out

BACKGROUND = skia.Color4f(0.12, 0.12, 0.12, 1)
LABEL_COLOR = skia.Color4f(0.92, 0.92, 0.92, 1)


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
