"""A small template for the template tests: a card whose background color (`accent`), title
(`title`) and logo image (`logo`) are params, built with the engine's own commands, and logo
files of plain colors to give it, one per row."""

from __future__ import annotations

import os

import numpy as np
import skia

from protocol.model.template_params import apply_values, check_row, resolved_values
from supervisor.engine.engine import Engine
from supervisor.engine.template_values import footage_fields
from workers.compositor import render_frame

WIDTH, HEIGHT, RATE = 96, 54, 30
ACCENT, TITLE = "#203040", "Hello"
LOGO_SIZE = 16
# Where the logo sits (its top-left corner) and a point of the background no layer covers.
LOGO_AT = (8, 8)
BACKGROUND_AT = (WIDTH - 4, HEIGHT - 4)


def logo_png(path, rgb: tuple[int, int, int], size: int = LOGO_SIZE) -> str:
    pixels = np.empty((size, size, 4), np.uint8)
    pixels[..., :3], pixels[..., 3] = rgb, 255
    skia.Image.fromarray(pixels, colorType=skia.kRGBA_8888_ColorType).save(str(path),
                                                                            skia.kPNG)
    return str(path)


def card_template(folder, frames: int = 6, queue: list[dict] | None = None,
                  engine: Engine | None = None) -> Engine:
    """The card in `engine` (a new one by default), saved as `folder/card.rvproj` when
    `queue` is given (renderQueue.add params without comp, added before saving)."""
    engine = engine or Engine()
    run = engine.run
    logo = logo_png(os.path.join(str(folder), "logo.png"), (255, 255, 255))
    run("comp.new", {"name": "Card", "width": WIDTH, "height": HEIGHT, "frameRate": RATE,
                     "duration": frames / RATE})
    run("layer.add", {"comp": "Card", "type": "solid", "name": "Back", "color": "#000000"})
    run("layer.add", {"comp": "Card", "type": "image", "name": "Logo", "path": logo,
                      "position": [LOGO_AT[0] + LOGO_SIZE / 2, LOGO_AT[1] + LOGO_SIZE / 2]})
    run("layer.add", {"comp": "Card", "type": "text", "name": "Title", "text": "x",
                      "size": 14, "fill": "#ffe070", "position": [60, 30]})
    run("prop.addKey", {"comp": "Card", "layer": "Title", "path": "transform.rotation",
                        "time": 0, "value": 0})
    run("prop.addKey", {"comp": "Card", "layer": "Title", "path": "transform.rotation",
                        "time": frames / RATE, "value": 10})
    run("template.addParam", {"name": "accent", "comp": "Card", "layer": "Back",
                              "path": "color", "default": ACCENT,
                              "description": "the card's background"})
    run("template.addParam", {"name": "title", "comp": "Card", "layer": "Title",
                              "path": "text", "default": TITLE})
    run("template.addParam", {"name": "logo", "comp": "Card", "layer": "Logo",
                              "path": "footage", "default": logo})
    if queue is not None:
        run("project.save", {"path": os.path.join(str(folder), "card.rvproj")})
        for item in queue:
            run("renderQueue.add", {"comp": "Card", **item})
        run("project.save", {})
    return engine


def expected_card(engine: Engine, values: dict, number: int) -> np.ndarray:
    """The still renderer's frame `number` of the card with `values` (texts or values, the
    rest at their defaults) applied to the engine's document."""
    document = engine.snapshot()[1]
    values = resolved_values(document, check_row(document, values))
    applied = apply_values(document, values, footage_fields(engine, document, values))
    return render_frame(applied, document["comps"][0]["id"], number / RATE).pixels


def pixel(frame: np.ndarray, at: tuple[int, int]) -> tuple[int, ...]:
    """The RGB of a frame (an H x W x 3 or 4 array) at (x, y)."""
    return tuple(int(c) for c in frame[at[1], at[0], :3])


def close(a, b, tolerance: int = 12) -> bool:
    """Whether two RGB colors are equal within what a lossy encoder changes."""
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))
