"""The reference comp for scripts/bench_render.py, as a project document, and its image.

    .venv/bin/python examples/bench_project.py      # rewrites examples/bench.rvproj

1920x1080, 30 fps, 3 s: a background solid; three 300x200 rects at 60% opacity moving
200 px/s; a 600x400 image scaled 100% to 160% and turning 30 degrees a second about its center;
a 96 px text moving up. The plain Skia peer (scripts/peers/plain_skia_reference.py) draws the
same things from the same constants.

Built through engine commands (`comp.new`, `layer.add`, `prop.addKey`, `project.save`), so the
example is also a check that the commands produce what the compositor expects. The image's path
is stored relative to the project file, so the project works from any clone.
"""

from __future__ import annotations

import os
import sys

import numpy as np

COMP = "Bench"
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


def _linear(run, layer: str, path: str, start, end) -> None:
    """Animate `path` from `start` at 0 s to `end` at the comp's end, at constant speed."""
    for time, value in ((0.0, start), (DURATION, end)):
        run("prop.addKey", {"comp": COMP, "layer": layer, "path": path, "time": time,
                            "value": value, "interpolation": "linear"})


def write_bench_project(folder: str = HERE) -> tuple[str, dict]:
    """Write bench_image.png and bench.rvproj into `folder`, building the project with engine
    commands; return the project path and its document (paths absolute, as in memory)."""
    sys.path.insert(0, os.path.dirname(HERE))
    from supervisor.engine.engine import Engine

    image_path = write_bench_image(os.path.join(os.path.abspath(folder), "bench_image.png"))
    engine = Engine()
    run = engine.run
    run("project.new", {"name": "bench"})
    run("comp.new", {"name": COMP, "width": WIDTH, "height": HEIGHT, "frameRate": FPS,
                     "duration": DURATION, "background": [0.0, 0.0, 0.0, 1.0]})
    # Bottom first: each new layer goes on top.
    run("layer.add", {"comp": COMP, "type": "solid", "name": "Background", "color": BACKGROUND})
    run("layer.add", {"comp": COMP, "type": "image", "name": "Picture", "path": image_path,
                      "position": list(IMAGE_CENTER)})
    _linear(run, "Picture", "transform.scale", [IMAGE_SCALE[0]] * 2, [IMAGE_SCALE[1]] * 2)
    _linear(run, "Picture", "transform.rotation", 0.0, IMAGE_TURN * DURATION)
    w, h = RECT_SIZE
    for index in reversed(range(len(RECT_STARTS))):
        (x, y), name = RECT_STARTS[index], f"Rect {index + 1}"
        center = [x + w / 2, y + h / 2]
        run("layer.add", {"comp": COMP, "type": "shape", "name": name, "shape": "rect",
                          "size": [w, h], "fill": RECT_COLORS[index], "opacity": RECT_OPACITY})
        _linear(run, name, "transform.position", center,
                [center[0] + RECT_SPEED * DURATION, center[1]])
    run("layer.add", {"comp": COMP, "type": "text", "name": "Title", "text": TEXT,
                      "font": "Roboto", "size": TEXT_SIZE, "fill": TEXT_FILL})
    _linear(run, "Title", "transform.position", list(TEXT_FROM), list(TEXT_TO))
    project_path = os.path.join(os.path.abspath(folder), "bench.rvproj")
    run("project.save", {"path": project_path})
    return project_path, engine.snapshot()[1]


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(HERE))
    print(write_bench_project()[0])
