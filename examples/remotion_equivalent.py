"""A comp built the same way in rendervisor and in Remotion, for scripts/bench_remotion.py.

    .venv/bin/python examples/remotion_equivalent.py [--duration 10]
        # rewrites examples/remotion_equivalent.rvproj (3 s unless --duration says otherwise)

1920x1080, 30 fps: a full-frame linear gradient; the 600x400 picture of examples/bench_image.png
scaling up from 80% to 120%; 20 rectangles of 120x80 moving across the frame and turning; three
lines of text (Roboto), the 120 px bold title fading in and sliding up 80 px over its first
second, under a drop shadow of sigma 8 px (softness 16), a 56 px subtitle and a 36 px caption
still. Rendered to H.264.

`scene(duration)` holds every number of the comp as plain data; the project is built from it
through engine commands (`comp.new`, `layer.add`, `prop.addKey`, `effect.add`,
`renderQueue.add`, `project.save`), and the Remotion peer (scripts/peers/remotion/) draws from
the same data, passed to it as input props, so both sides draw one scene.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMP = "Remotion equivalent"
WIDTH, HEIGHT, FPS = 1920, 1080, 30
RECTS = 20
RECT_SIZE = (120, 80)
IMAGE_CENTER = (1380.0, 560.0)
IMAGE_SCALE = (80.0, 120.0)  # percent, from the start to the end
GRADIENT = ("#1e1b4b", "#0f766e")  # top left to bottom right
TITLE = {"text": "rendervisor", "size": 120, "weight": 700, "position": (560.0, 380.0),
         "rise": 80.0, "fade": (0.2, 1.2)}
SHADOW = {"distance": 8, "direction": 135, "softness": 16, "opacity": 60}  # sigma 8 px
LINES = [{"text": "Motion graphics, rendered headless", "size": 56, "position": (560.0, 520.0),
          "fill": "#e2e8f0"},
         {"text": "1920x1080 · 30 fps · H.264", "size": 36, "position": (560.0, 600.0),
          "fill": "#94a3b8"}]


def scene(duration: float = 3.0, seed: int = 36) -> dict:
    """Every number of the comp, as JSON-ready data (what the Remotion peer reads as props)."""
    chance = random.Random(seed)
    rects = []
    for _ in range(RECTS):
        start = [chance.uniform(100, WIDTH - 100), chance.uniform(80, HEIGHT - 80)]
        end = [chance.uniform(100, WIDTH - 100), chance.uniform(80, HEIGHT - 80)]
        color = "#%02x%02x%02x" % tuple(chance.randrange(80, 256) for _ in range(3))
        rects.append({"start": start, "end": end, "turn": chance.uniform(-360, 360),
                      "color": color})
    return {"width": WIDTH, "height": HEIGHT, "fps": FPS, "duration": duration,
            "frames": int(round(duration * FPS)), "gradient": list(GRADIENT),
            "image": {"center": list(IMAGE_CENTER), "scale": list(IMAGE_SCALE),
                      "size": [600, 400]},
            "rectSize": list(RECT_SIZE), "rects": rects,
            "title": {**TITLE, "position": list(TITLE["position"]), "fade": list(TITLE["fade"]),
                      "shadow": SHADOW},
            "lines": [{**line, "position": list(line["position"])} for line in LINES]}


def _keys(run, layer: str, path: str, keys) -> None:
    for time, value, interpolation in keys:
        run("prop.addKey", {"comp": COMP, "layer": layer, "path": path, "time": time,
                            "value": value, "interpolation": interpolation})


def build(duration: float = 3.0, folder: str = HERE, name: str = "remotion_equivalent") -> str:
    """Write NAME.rvproj (its comp `duration` seconds long, rendered to renders/NAME.mp4) and
    the picture (bench_image.png, as examples/bench_project.py makes it) into `folder`; the
    project's path."""
    sys.path.insert(0, os.path.dirname(HERE))
    sys.path.insert(0, HERE)
    from bench_project import write_bench_image
    from supervisor.engine.engine import Engine

    data = scene(duration)
    engine = Engine()
    run = engine.run
    run("project.new", {"name": "Remotion equivalent"})
    run("comp.new", {"name": COMP, "width": WIDTH, "height": HEIGHT, "frameRate": FPS,
                     "duration": duration, "background": "#000000"})
    # Bottom first: each new layer goes on top.
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Background", "shape": "rect",
                      "size": [WIDTH, HEIGHT],
                      "fill": {"type": "linear", "start": [0, 0], "end": [WIDTH, HEIGHT],
                               "stops": [[0, GRADIENT[0]], [1, GRADIENT[1]]]}})
    run("layer.add", {"comp": COMP, "type": "image", "name": "Picture",
                      "path": write_bench_image(os.path.join(os.path.abspath(folder),
                                                             "bench_image.png")),
                      "position": list(IMAGE_CENTER)})
    _keys(run, "Picture", "transform.scale", [(0.0, [IMAGE_SCALE[0]] * 2, "linear"),
                                              (duration, [IMAGE_SCALE[1]] * 2, "linear")])
    for index, rect in enumerate(data["rects"]):
        layer = f"Rect {index + 1}"
        run("layer.add", {"comp": COMP, "type": "shape", "name": layer, "shape": "rect",
                          "size": list(RECT_SIZE), "fill": rect["color"],
                          "position": rect["start"]})
        _keys(run, layer, "transform.position", [(0.0, rect["start"], "linear"),
                                                (duration, rect["end"], "linear")])
        _keys(run, layer, "transform.rotation", [(0.0, 0.0, "linear"),
                                                (duration, rect["turn"], "linear")])
    for index, line in enumerate(LINES):
        run("layer.add", {"comp": COMP, "type": "text", "name": f"Line {index + 2}",
                          "text": line["text"], "font": "Roboto", "size": line["size"],
                          "fill": line["fill"], "align": "left",
                          "position": list(line["position"])})
    x, y = TITLE["position"]
    start, end = TITLE["fade"]
    run("layer.add", {"comp": COMP, "type": "text", "name": "Title", "text": TITLE["text"],
                      "font": "Roboto", "weight": TITLE["weight"], "size": TITLE["size"],
                      "fill": "#ffffff", "align": "left", "position": [x, y]})
    _keys(run, "Title", "transform.position", [(start, [x, y + TITLE["rise"]], "easeOut"),
                                               (end, [x, y], "linear")])
    _keys(run, "Title", "transform.opacity", [(start, 0, "easeOut"), (end, 100, "linear")])
    run("effect.add", {"comp": COMP, "layer": "Title", "effect": "dropShadow",
                       "params": dict(SHADOW)})
    run("renderQueue.add", {"comp": COMP, "output": os.path.join(folder, "renders",
                                                                 f"{name}.mp4")})
    path = os.path.join(folder, f"{name}.rvproj")
    run("project.save", {"path": path})
    return path


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=3.0, help="seconds (3 = 90 frames)")
    print(build(parser.parse_args().duration))
