"""Render-only frame rate of text, one process, at 1080p: a 300-character paragraph with a
per-character animator whose range moves every frame (each frame regroups and transforms every
glyph), beside the same paragraph still (its layout and blob cached after the first frame).
Prints one JSON object.

    .venv/bin/python scripts/bench_text.py [--passes 5] [--frames 90]

Built with the engine's own commands (text.animate's `pop` preset: scale and opacity per
character through an overshooting ease). `fps` is render_frame into a reused array, best of
`--passes` after one warm-up frame; `first_frame_ms` is the first frame alone (shaping and
line breaking, which a worker does once per text, not per frame). The goal is 30 frames/s per
worker for the animated text.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

from supervisor.engine.engine import Engine  # noqa: E402
from workers.compositor import render_frame  # noqa: E402

GOAL_FPS = 30
WIDTH, HEIGHT, RATE = 1920, 1080, 30
SENTENCE = "Kinetic type moves letter by letter, and every glyph is shaped, kerned and placed. "
TEXT = (SENTENCE * 4)[:300]


def build(animated: bool, seconds: float) -> dict:
    engine = Engine()
    engine.run("comp.new", {"name": "Text", "width": WIDTH, "height": HEIGHT,
                            "frameRate": RATE, "duration": seconds, "background": "#101018"})
    engine.run("layer.add", {"comp": "Text", "type": "text", "name": "Paragraph",
                             "text": TEXT, "font": "Lato", "size": 64, "box": [1600, 900],
                             "align": "justify", "fill": "#f0f0f8"})
    if animated:
        engine.run("text.animate", {"comp": "Text", "layer": "Paragraph", "preset": "pop",
                                    "start": 0.0, "duration": seconds})
    return engine.snapshot()[1]


def measure(document: dict, frames: int, passes: int) -> dict:
    out = np.empty((HEIGHT, WIDTH, 4), np.uint8)
    started = time.perf_counter()
    render_frame(document, "Text", 0.0, out=out)
    first = time.perf_counter() - started
    best = float("inf")
    for _ in range(passes):
        started = time.perf_counter()
        for frame in range(1, frames + 1):
            render_frame(document, "Text", frame / RATE, out=out)
        best = min(best, time.perf_counter() - started)
    return {"fps": round(frames / best, 1), "ms_per_frame": round(1000 * best / frames, 2),
            "first_frame_ms": round(1000 * first, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--frames", type=int, default=90)
    args = parser.parse_args()
    seconds = (args.frames + 1) / RATE
    animated = measure(build(True, seconds), args.frames, args.passes)
    still = measure(build(False, seconds), args.frames, args.passes)
    print(json.dumps({"characters": len(TEXT), "size": [WIDTH, HEIGHT], "frames": args.frames,
                      "passes": args.passes, "animated_per_character": animated,
                      "still": still, "goal_fps": GOAL_FPS,
                      "goal_met": animated["fps"] >= GOAL_FPS}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
