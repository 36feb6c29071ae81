"""Benchmark of the vector features: frames per second one render worker draws, at 1080p.

    .venv/bin/python scripts/bench_vector.py [--passes 3] [--frames 90]

- `logo_reveal`: examples/logo_reveal.py's project built at 1920x1080: a 30-point bezier
  outline with an animated trim and offset, a dashed ring, a spring, and a text wiped in
  under a feathered, animated mask, over a full-frame radial gradient
  (docs/performance.md, "Vector animation").
- `logo_reveal_layers`: the same without its gradient background, which alone costs more than
  all the vector layers together in this Skia build.
- `lottie_50_shapes`: a 1920x1080 comp showing one Lottie animation of 50 moving, turning,
  stroked rects and ellipses (tests/helpers/lottie_documents.py's `many_shapes`), at 100%.
- `thorvg_alone`: the same animation drawn by ThorVG straight into its own buffer, no
  compositing: the floor the lottie layer's figure stands on; `lottie_over_thorvg` is the
  ratio of the two frame times.

Each is `render_frame(..., out=reused_array)`, what an encoding worker does, in this process on
one thread; best of the passes (taking turns) after a warm-up frame. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "examples"))

import numpy as np  # noqa: E402

import logo_reveal  # noqa: E402
from supervisor.engine.engine import Engine  # noqa: E402
from tests.helpers.lottie_documents import many_shapes  # noqa: E402
from workers.compositor import FootageCache, render_frame  # noqa: E402

WIDTH, HEIGHT = 1920, 1080


def frames_per_second(draws: dict, frames: int, passes: int) -> dict:
    """Frames per second of each of `draws` (name -> draw(index)), best of `passes`; the
    passes take turns, so a burst of load elsewhere on the machine falls on all of them alike."""
    for draw in draws.values():
        draw(0)  # warm-up: caches, parses, first allocations
    best = dict.fromkeys(draws, float("inf"))
    for _ in range(passes):
        for name, draw in draws.items():
            start = time.process_time()
            for index in range(frames):
                draw(index)
            best[name] = min(best[name], time.process_time() - start)
    return {name: round(frames / seconds, 1) for name, seconds in best.items()}


def comp_renderer(document: dict, comp: str, frame_rate: float):
    out = np.empty((HEIGHT, WIDTH, 4), np.uint8)
    cache = FootageCache()
    return lambda index: render_frame(document, comp, index / frame_rate, footage=cache, out=out)


def logo_reveal_document(folder: str, background: bool = True) -> dict:
    engine = Engine(logo_reveal.build(folder, width=WIDTH, height=HEIGHT))
    if not background:
        engine.run("layer.remove", {"comp": logo_reveal.COMP, "layer": "Glow"})
    return engine.doc


def lottie_document(folder: str) -> tuple[dict, str]:
    path = os.path.join(folder, "shapes.json")
    with open(path, "w") as handle:
        json.dump(many_shapes(50, WIDTH, HEIGHT, frame_rate=30, frames=90), handle)
    engine = Engine()
    engine.run("comp.new", {"name": "Lottie", "width": WIDTH, "height": HEIGHT,
                            "frameRate": 30, "duration": 3})
    engine.run("layer.add", {"comp": "Lottie", "type": "lottie", "path": path})
    return engine.doc, path


def thorvg_alone(path: str):
    import thorvg_python as tvg
    engine = tvg.Engine(threads=1)
    # As a lottie layer sets ThorVG up: every frame drawn whole, no smart (partial) rendering.
    canvas = tvg.SwCanvas(engine, tvg.EngineOption.NONE)
    canvas.set_target(WIDTH, HEIGHT, cs=tvg.Colorspace.ABGR8888)
    player = tvg.LottieAnimation(engine)
    picture = player.get_picture()
    with open(path, "rb") as handle:
        picture.load_data(handle.read(), "lottie", None, True)
    picture.set_size(WIDTH, HEIGHT)
    canvas.add(picture)

    def draw(index: int) -> None:
        player.set_frame(float(index))
        canvas.update()
        canvas.draw(True)
        canvas.sync()
    return draw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--frames", type=int, default=90)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        reveal = logo_reveal_document(folder)
        layers = logo_reveal_document(folder, background=False)
        lottie, path = lottie_document(folder)
        result = {"size": f"{WIDTH}x{HEIGHT}", "frames": args.frames, "passes": args.passes}
        result.update(frames_per_second({
            "logo_reveal_fps": comp_renderer(reveal, logo_reveal.COMP, 30),
            "logo_reveal_layers_fps": comp_renderer(layers, logo_reveal.COMP, 30),
            "lottie_50_shapes_fps": comp_renderer(lottie, "Lottie", 30),
            "thorvg_alone_fps": thorvg_alone(path),
        }, args.frames, args.passes))
        # What a lottie layer's frame costs over ThorVG's own drawing of it (the goal: < 1.5).
        result["lottie_over_thorvg"] = round(result["thorvg_alone_fps"] /
                                             result["lottie_50_shapes_fps"], 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
