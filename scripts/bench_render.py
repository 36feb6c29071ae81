"""Render-only frame rate of the compositor, one process, on the reference comp
(examples/bench.rvproj: 1920x1080, 3 s at 30 fps), next to a plain Skia loop drawing the same
things (scripts/peers/plain_skia_reference.py). Prints one JSON object.

    /work/venv/bin/python scripts/bench_render.py [--project FILE] [--passes N]

`fps` is render_frame into a reused array (what a worker that encodes each frame does);
`fps_new_array` allocates each frame's array; `fps_surface_only` skips the readback. Each figure
is the best of N passes after one warm-up frame (the first frame decodes the image and lays out
the text, which a worker does once per job, not per frame).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "peers"))

import numpy as np  # noqa: E402

import bench_project  # noqa: E402
import plain_skia_reference  # noqa: E402
from protocol.keyframes import frame_count  # noqa: E402
from workers.compositor import FootageCache, render_frame, render_to_surface  # noqa: E402

GOAL_FPS = 60


def load_project(path: str | None) -> tuple[str, dict]:
    """The bench project as the engine opens it (footage paths resolved against its folder),
    (re)written into examples/ when it or its image is missing."""
    from supervisor.engine import Engine
    if path is None:
        path = os.path.join(ROOT, "examples", "bench.rvproj")
        if not os.path.exists(path) or not os.path.exists(
                os.path.join(os.path.dirname(path), "bench_image.png")):
            return bench_project.write_bench_project(os.path.dirname(path))
    return path, Engine(path).snapshot()[1]


def timed(render, frames: int, passes: int) -> float:
    best = float("inf")
    for _ in range(passes):
        started = time.perf_counter()
        for frame in range(frames):
            render(frame)
        best = min(best, time.perf_counter() - started)
    return frames / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--project", help="a saved project (default: examples/bench.rvproj)")
    parser.add_argument("--comp", default=None, help="comp id or name (default: the first)")
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    path, document = load_project(args.project)
    comp = document["comps"][0] if args.comp is None else next(
        c for c in document["comps"] if args.comp in (c["id"], c["name"]))
    frames = frame_count(comp["duration"], comp["frameRate"])
    rate = comp["frameRate"]
    cache = FootageCache()
    out = np.empty((comp["height"], comp["width"], 4), np.uint8)
    first = render_frame(document, comp["id"], 0.0, footage=cache, out=out)
    if first.missing:
        sys.exit(f"bench footage missing: {first.missing}")

    fps = timed(lambda n: render_frame(document, comp["id"], n / rate, footage=cache, out=out),
                frames, args.passes)
    fps_new = timed(lambda n: render_frame(document, comp["id"], n / rate, footage=cache),
                    frames, args.passes)
    fps_surface = timed(lambda n: render_to_surface(document, comp["id"], n / rate,
                                                    footage=cache), frames, args.passes)
    peer = plain_skia_reference.measure(frames, args.passes)
    print(json.dumps({
        "project": os.path.relpath(path, ROOT),
        "comp": comp["name"], "size": [comp["width"], comp["height"]], "frames": frames,
        "fps": round(fps, 1),
        "fps_new_array": round(fps_new, 1),
        "fps_surface_only": round(fps_surface, 1),
        "plain_skia_fps": round(peer["fps"], 1),
        "ratio_to_plain_skia": round(fps / peer["fps"], 3),
        "goal_fps": GOAL_FPS,
        "meets_goal": fps >= GOAL_FPS,
        "passes": args.passes,
    }))


if __name__ == "__main__":
    main()
