"""Frames a second of the compositor on the reference comp (examples/bench.rvproj: 1920x1080,
3 s at 30 fps) at each bit depth, in one process, beside its 8-bit figure in the same run:
`bitDepth` 8, 16 and "float", each with and without linear blending. Prints one JSON object.

    .venv/bin/python scripts/bench_bit_depth.py [--passes N]

Each figure is render_frame into a reused array (what a worker encoding each frame does), the
best of N passes after one warm-up frame; a deep comp's figure includes reading its float
frame back (deep_frames.py), what a deep render hands the exporter. `ratio_to_8_bit` is its
frames a second over the 8-bit figure of the same run, so a busy machine slows both.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from bench_render import load_project, timed  # noqa: E402
from protocol.model.keyframes import frame_count  # noqa: E402
from workers.compositor import FootageCache, render_frame  # noqa: E402

SETTINGS = [("8", {}), ("8 linear", {"linearBlending": True}), ("16", {"bitDepth": 16}),
            ("16 linear", {"bitDepth": 16, "linearBlending": True}),
            ("float", {"bitDepth": "float"}),
            ("float linear", {"bitDepth": "float", "linearBlending": True})]


def measure(document: dict, settings: dict, passes: int) -> float:
    document = copy.deepcopy(document)
    comp = document["comps"][0]
    comp.update(settings)
    rate, frames = comp["frameRate"], frame_count(comp["duration"], comp["frameRate"])
    cache = FootageCache()
    out = [render_frame(document, comp["id"], 0.0, footage=cache).pixels]
    return timed(lambda n: render_frame(document, comp["id"], n / rate, footage=cache,
                                        out=out[0] if out[0].dtype.name == "uint8" else None),
                 frames, passes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    path, document = load_project(None)
    figures = {name: measure(document, settings, args.passes) for name, settings in SETTINGS}
    base = figures["8"]
    print(json.dumps({
        "project": os.path.relpath(path, ROOT), "passes": args.passes,
        "fps": {name: round(fps, 1) for name, fps in figures.items()},
        "ratio_to_8_bit": {name: round(fps / base, 3) for name, fps in figures.items()},
    }, indent=2))


if __name__ == "__main__":
    main()
