"""Frames a second of the compositor on the reference comp (examples/bench.rvproj: 1920x1080,
3 s at 30 fps) at each bit depth, in one process, beside its 8-bit figure in the same run:
`bitDepth` 8, 16 and "float", each with and without linear blending, and colour-managed (the
built-in cg-config's ACEScg, shown through its default display and view, the ACES 2.0 SDR tone
map, or through Un-tone-mapped, with OpenColorIO). `--only` measures some of them (and 8 bits,
what the ratios are to).
Prints one JSON object.

    .venv/bin/python scripts/bench_bit_depth.py [--passes N] [--only NAME,...]

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
from workers.compositor.color_management import View  # noqa: E402

MANAGED = {"colorManagement": {"config": "cg-config", "workingSpace": "ACEScg"}}
UNTONED = View("sRGB - Display", "Un-tone-mapped")
# (name, comp settings, project settings, how frames leave a managed project's working space)
SETTINGS = [("8", {}), ("8 linear", {"linearBlending": True}), ("16", {"bitDepth": 16}),
            ("16 linear", {"bitDepth": 16, "linearBlending": True}),
            ("float", {"bitDepth": "float"}),
            ("float linear", {"bitDepth": "float", "linearBlending": True}),
            ("16 ACEScg", {"bitDepth": 16}, MANAGED),
            ("float ACEScg", {"bitDepth": "float"}, MANAGED),
            ("16 ACEScg untoned", {"bitDepth": 16}, MANAGED, UNTONED),
            ("float ACEScg untoned", {"bitDepth": "float"}, MANAGED, UNTONED)]


def measure(document: dict, settings: dict, project: dict | None = None,
            view: View | None = None, *, passes: int) -> float:
    document = copy.deepcopy(document)
    document.update(project or {})
    comp = document["comps"][0]
    comp.update(settings)
    rate, frames = comp["frameRate"], frame_count(comp["duration"], comp["frameRate"])
    cache = FootageCache()
    out = [render_frame(document, comp["id"], 0.0, footage=cache, view=view).pixels]
    return timed(lambda n: render_frame(document, comp["id"], n / rate, footage=cache,
                                        out=out[0] if out[0].dtype.name == "uint8" else None,
                                        view=view),
                 frames, passes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--only", help="comma-separated names of SETTINGS")
    args = parser.parse_args()
    wanted = {"8", *args.only.split(",")} if args.only else None
    path, document = load_project(None)
    figures = {name: measure(document, *rest, passes=args.passes) for name, *rest in SETTINGS
               if wanted is None or name in wanted}
    base = figures["8"]
    print(json.dumps({
        "project": os.path.relpath(path, ROOT), "passes": args.passes,
        "fps": {name: round(fps, 1) for name, fps in figures.items()},
        "ratio_to_8_bit": {name: round(fps / base, 3) for name, fps in figures.items()},
    }, indent=2))


if __name__ == "__main__":
    main()
