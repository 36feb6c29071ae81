"""What expressions cost a render: 100 moving, turning 80x60 solids at 1920x1080 (the scene of
scripts/layer_scenes.py), with keys alone, against the same comp with `wiggle(2, 40)` on every
layer's position over those keys, drawn as a render worker draws them (scripts/frame_timing.py:
the snapshot's render plan, prepared a chunk at a time, into one reused array). Prints one
JSON object.

    .venv/bin/python scripts/bench_expressions.py [--passes 3] [--frames 90]

- `keyed_fps`, `wiggled_fps`: frames a second, the best of `--passes` (each after a warm-up
  frame); `ratio`: the keyed comp's frames a second over the wiggled one's, the cost of the
  expressions as a multiple. Goal: at most 2.0.
- `compile_ms`: what binding the 100 expressions adds to compiling the render plan (once per
  snapshot in each worker).
- `per_evaluation_us`: one wiggle evaluated alone, through the worker's binding.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import layer_scenes  # noqa: E402
from frame_timing import render_seconds  # noqa: E402
from workers.compositor import FootageCache, RenderPlan  # noqa: E402
from workers.compositor.layer_boxes import content_rect  # noqa: E402
from workers.expressions.document_expressions import DocumentExpressions  # noqa: E402

GOAL_RATIO = 2.0
LAYERS = 100
WIGGLE = "wiggle(2, 40)"


def wiggled(document: dict) -> dict:
    """The document with WIGGLE on every layer's position, over its keys."""
    changed = copy.deepcopy(document)
    for layer in changed["comps"][0]["layers"]:
        layer["expressions"] = {"transform.position": WIGGLE}
    return changed


def compile_seconds(document: dict) -> float:
    started = time.perf_counter()
    RenderPlan(document, document["comps"][0]["id"], FootageCache())
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--frames", type=int, default=90)
    args = parser.parse_args()
    keyed = layer_scenes.solids(LAYERS)
    moving = wiggled(keyed)
    keyed_runs, wiggled_runs, ratios = [], [], []
    for _ in range(args.passes):  # side by side, pass by pass: both see the same machine
        keyed_runs.append(args.frames / render_seconds(keyed, args.frames))
        wiggled_runs.append(args.frames / render_seconds(moving, args.frames))
        ratios.append(keyed_runs[-1] / wiggled_runs[-1])
    compile_ms = (min(compile_seconds(moving) for _ in range(args.passes))
                  - min(compile_seconds(keyed) for _ in range(args.passes))) * 1e3
    bound = DocumentExpressions(moving, content_rect)
    key = f"{moving['comps'][0]['id']}/{moving['comps'][0]['layers'][0]['id']}/transform.position"
    count = 2000
    started = time.perf_counter()
    for number in range(count):
        bound.value(key, 100 + number / 30)
    per_evaluation = (time.perf_counter() - started) / count * 1e6
    best_keyed, best_wiggled = max(keyed_runs), max(wiggled_runs)
    print(json.dumps({
        "layers": LAYERS, "size": [layer_scenes.WIDTH, layer_scenes.HEIGHT],
        "frames": args.frames, "expression": WIGGLE,
        "keyed_fps": round(best_keyed, 1), "wiggled_fps": round(best_wiggled, 1),
        "ratio": round(best_keyed / best_wiggled, 2),
        "ratio_passes": [round(ratio, 2) for ratio in ratios],
        "goal_ratio_at_most": GOAL_RATIO,
        "met": best_keyed / best_wiggled <= GOAL_RATIO,
        "compile_ms": round(compile_ms, 1),
        "per_evaluation_us": round(per_evaluation, 1),
    }, indent=1))


if __name__ == "__main__":
    main()
