"""What drawing wide blurs in float (workers/compositor/float_effects.py) costs beside Skia's own
8-bit blur chain, and what it buys. Prints one JSON object.

    .venv/bin/python scripts/bench_blur.py [--passes N]

Each case is a 1920x1080 comp with one layer through an effect chain: a full-frame photo-like
gradient plate under a gaussianBlur (the defocused background), a 960x540 card with a drop
shadow, a title-sized card with a glow, and a vignette (a dark plate cut by an inverted
ellipse mask feathered 400 px). `ms`: one frame rendered each way (the median and the
fastest of N passes, the two timed back to back in alternating order, so a busy machine slows
both alike); `ratio` = Skia's time / ours (above 1: ours is faster). `flat_run`: the longest flat
run of the column means along a dark blurred edge (1024 px, #101418 blurred by radius 200), each
way: the band a viewer sees; `feather_flat_run` the same along a mask's 600 px feather on that
plate.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from supervisor.engine.engine import Engine  # noqa: E402
from tests.helpers.bands import ramp_runs  # noqa: E402
from workers.compositor import float_effects, render_frame  # noqa: E402

WAYS = ("skia", "float")
FLOAT_FROM = float_effects.FLOAT_BLUR_FROM


def draw_as(way: str) -> None:
    """Leave every chain to Skia ("skia"), or draw wide ones in float as rendervisor does."""
    float_effects.FLOAT_BLUR_FROM = math.inf if way == "skia" else FLOAT_FROM


def project(layer: dict, effect: str | None, params: dict, width=1920, height=1080,
            background="#202830", mask: dict | None = None) -> dict:
    engine = Engine()
    engine.run("comp.new", {"name": "Main", "width": width, "height": height,
                            "duration": 1 / 30, "background": background})
    engine.run("layer.add", {"comp": "Main", "type": "shape", "shape": "rect", **layer})
    if effect is not None:
        engine.run("effect.add", {"comp": "Main", "layer": 1, "effect": effect,
                                  "params": params})
    if mask is not None:
        engine.run("mask.add", {"comp": "Main", "layer": 1, **mask})
    return engine.doc


CASES = {
    "background_blur_r60": project(
        {"size": [1920, 1080], "fill": {"type": "radial", "center": [700, 400], "radius": 1400,
                                        "stops": [[0, "#f0c060"], [0.5, "#4060a0"],
                                                  [1, "#102030"]]}},
        "gaussianBlur", {"radius": 60}),
    "card_shadow_s40": project({"size": [960, 540], "fill": "#f4f0e8"},
                               "dropShadow", {"softness": 40, "distance": 20}),
    "title_glow_r40": project({"size": [1200, 200], "fill": "#ffe0a0"},
                              "glow", {"radius": 40, "threshold": 40}),
    "vignette_feather_400": project({"size": [1920, 1080], "fill": "#080a0c"}, None, {},
                                    mask={"shape": "ellipse", "size": [1700, 900],
                                          "mode": "add", "inverted": True, "feather": 400}),
}


def render_ms(doc: dict, way: str) -> float:
    draw_as(way)
    start = time.perf_counter()
    render_frame(doc, "Main", 0.0)
    return time.perf_counter() - start


def edge_flat_run(way: str) -> int:
    doc = project({"size": [1024, 1280], "fill": "#101418", "position": [1024, 32]},
                  "gaussianBlur", {"radius": 200}, width=1024, height=64, background="#000000")
    return red_ramp_runs(doc, way)


def feather_flat_run(way: str) -> int:
    doc = project({"size": [1024, 64], "fill": "#101418"}, None, {}, width=1024, height=64,
                  background="#000000",
                  mask={"shape": "path", "mode": "add", "feather": 600,
                        "points": [[512, -200], [1600, -200], [1600, 300], [512, 300]]})
    return red_ramp_runs(doc, way)


def red_ramp_runs(doc: dict, way: str) -> int:
    """The longest flat run of the red column means along the ramp of `doc`'s frame."""
    draw_as(way)
    return ramp_runs(render_frame(doc, "Main", 0.0).pixels[:, :, 0].astype(float).mean(axis=0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=7)
    args = parser.parse_args()
    cases = {}
    for name, doc in CASES.items():
        times = {way: [] for way in WAYS}
        for way in WAYS:
            render_ms(doc, way)  # warm: fonts, shaders, first surfaces
        for turn in range(args.passes):
            for way in WAYS if turn % 2 else WAYS[::-1]:
                times[way].append(render_ms(doc, way))
        ms = {way: {"median": round(statistics.median(spent) * 1000, 1),
                    "fastest": round(min(spent) * 1000, 1)} for way, spent in times.items()}
        cases[name] = {"ms": ms,
                       "ratio": round(ms["skia"]["median"] / ms["float"]["median"], 2)}
    print(json.dumps({"cases": cases,
                      "flat_run": {way: edge_flat_run(way) for way in WAYS},
                      "feather_flat_run": {way: feather_flat_run(way) for way in WAYS},
                      "passes": args.passes}, indent=2))


if __name__ == "__main__":
    main()
