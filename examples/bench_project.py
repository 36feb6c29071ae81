"""The reference comp for scripts/bench_render.py, as a project document, and its image.

    /work/venv/bin/python examples/bench_project.py      # rewrites examples/bench.rvproj

1920x1080, 30 fps, 3 s: a background solid; three 300x200 rects at 60% opacity moving
200 px/s; a 600x400 image scaled 100% to 160% and turning 30 degrees a second about its center;
a 96 px text moving up. The plain Skia peer (scripts/peers/plain_skia_reference.py) draws the
same things from the same constants.

Built here as a dict following docs/document.md until the engine commands exist; it should then
be rebuilt through them (`comp.new`, `layer.add`, `prop.addKey`, `project.save`), so the example
is also a check that the commands produce what the compositor expects.
"""

from __future__ import annotations

import os
import sys

import numpy as np

WIDTH, HEIGHT, FPS, DURATION = 1920, 1080, 30, 3.0
BACKGROUND = [0.07, 0.08, 0.11, 1.0]
RECT_SIZE = (300, 200)
RECT_SPEED = 200.0  # px/s
RECT_STARTS = [(200.0, 200.0), (300.0, 500.0), (400.0, 800.0)]  # top-left corners at t=0
RECT_COLORS = [[0.95, 0.3, 0.3, 1.0], [0.3, 0.85, 0.45, 1.0], [0.3, 0.5, 0.95, 1.0]]
RECT_OPACITY = 60.0
IMAGE_SIZE = (600, 400)
IMAGE_CENTER = (1300.0, 540.0)
IMAGE_SCALE = (100.0, 160.0)  # percent, over the comp's duration
IMAGE_TURN = 30.0  # degrees per second
TEXT = "rendervisor"
TEXT_SIZE = 96
TEXT_FROM, TEXT_TO = (960.0, 1000.0), (960.0, 700.0)
TEXT_FILL = [1.0, 1.0, 1.0, 1.0]

HERE = os.path.dirname(os.path.abspath(__file__))


def bench_image_pixels() -> np.ndarray:
    """A 600x400 opaque RGBA picture: gradients and a checker, so scaling shows."""
    width, height = IMAGE_SIZE
    y, x = np.mgrid[0:height, 0:width]
    pixels = np.empty((height, width, 4), np.uint8)
    checker = ((x // 50 + y // 50) % 2) * 60
    pixels[..., 0] = (x * 255 // (width - 1)) // 2 + checker
    pixels[..., 1] = (y * 255 // (height - 1)) // 2 + checker
    pixels[..., 2] = 200 - checker
    pixels[..., 3] = 255
    return pixels


def write_bench_image(path: str) -> str:
    import skia
    skia.Image.fromarray(bench_image_pixels(), colorType=skia.kRGBA_8888_ColorType).save(
        path, skia.kPNG)
    return path


def _transform(anchor, position, scale=None, rotation=0.0, opacity=100.0) -> dict:
    return {"anchor": list(anchor), "position": position, "scale": scale or [100.0, 100.0],
            "rotation": rotation, "opacity": opacity}


def _layer(layer_id: str, name: str, layer_type: str, content: dict, transform: dict) -> dict:
    return {"id": layer_id, "name": name, "type": layer_type, "enabled": True,
            "inPoint": 0.0, "outPoint": DURATION, "startTime": 0.0, "parent": None,
            "blendMode": "normal", "trackMatte": None, "transform": transform,
            "content": content, "effects": []}


def _linear(start, end) -> dict:
    return {"keys": [{"time": 0.0, "value": list(start), "interpolation": "linear"},
                     {"time": DURATION, "value": list(end), "interpolation": "linear"}]}


def bench_document(image_path: str) -> dict:
    w, h = RECT_SIZE
    rects = []
    for index, ((x, y), color) in enumerate(zip(RECT_STARTS, RECT_COLORS)):
        center = (x + w / 2, y + h / 2)
        rects.append(_layer(
            f"layer{3 + index}", f"Rect {index + 1}", "shape",
            {"shape": "rect", "size": [w, h], "fill": color, "stroke": None, "strokeWidth": 0,
             "strokeJoin": "miter", "strokeCap": "butt", "cornerRadius": 0},
            _transform((w / 2, h / 2),
                       _linear(center, (center[0] + RECT_SPEED * DURATION, center[1])),
                       opacity=RECT_OPACITY)))
    iw, ih = IMAGE_SIZE
    image = _layer("layer6", "Picture", "image", {"footage": "footage2"},
                   _transform((iw / 2, ih / 2), list(IMAGE_CENTER),
                              scale=_linear([IMAGE_SCALE[0]] * 2, [IMAGE_SCALE[1]] * 2),
                              rotation={"keys": [
                                  {"time": 0.0, "value": 0.0, "interpolation": "linear"},
                                  {"time": DURATION, "value": IMAGE_TURN * DURATION,
                                   "interpolation": "linear"}]}))
    title = _layer("layer7", "Title", "text",
                   {"text": TEXT, "font": "Roboto", "size": TEXT_SIZE, "fill": TEXT_FILL,
                    "align": "center", "tracking": 0, "lineHeight": 1.2, "bold": False,
                    "italic": False},
                   _transform((0, 0), _linear(TEXT_FROM, TEXT_TO)))
    background = _layer("layer8", "Background", "solid",
                        {"color": BACKGROUND, "width": WIDTH, "height": HEIGHT},
                        _transform((WIDTH / 2, HEIGHT / 2), [WIDTH / 2, HEIGHT / 2]))
    comp = {"id": "comp1", "name": "Bench", "width": WIDTH, "height": HEIGHT,
            "frameRate": FPS, "duration": DURATION, "background": [0.0, 0.0, 0.0, 1.0],
            "motionBlur": {"enabled": False, "samples": 8, "shutterAngle": 180},
            "proxy": None, "layers": [title, *rects, image, background]}
    footage = {"id": "footage2", "name": os.path.basename(image_path), "path": image_path,
               "kind": "image", "width": iw, "height": ih}
    return {"version": 1, "name": "bench", "nextId": 9, "footage": [footage], "comps": [comp],
            "renderQueue": []}


def write_bench_project(folder: str = HERE) -> tuple[str, dict]:
    """Write bench_image.png and bench.rvproj into `folder`; return the project path and
    document. The footage path is absolute, as the schema asks."""
    image_path = write_bench_image(os.path.join(os.path.abspath(folder), "bench_image.png"))
    document = bench_document(image_path)
    project_path = os.path.join(folder, "bench.rvproj")
    import json
    with open(project_path + ".tmp", "w") as handle:
        json.dump(document, handle, indent=2)
        handle.write("\n")
    os.replace(project_path + ".tmp", project_path)
    return project_path, document


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(HERE))
    print(write_bench_project()[0])
