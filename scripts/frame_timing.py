"""How long frames take as a render worker draws them, with whatever rendervisor is importable:
from the snapshot's render plan, prepared a chunk at a time, into one reused array; a checkout
from before render plans draws them with render_frame alone, as its workers did.

    render_seconds(document, frames)
    python scripts/frame_timing.py DOCUMENTS.json FRAMES     # {name: seconds per frame}

scripts/bench_layers.py runs the second form with PYTHONPATH set to an older checkout, so the
same documents are timed by the code before a change, on the same machine, between its own
passes.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

from protocol.model.keyframes import frame_time
from workers.compositor import FootageCache, render_frame

try:
    from workers.compositor import RenderPlan
except ImportError:  # a checkout from before render plans
    RenderPlan = None

CHUNK = 24  # frames per prepared chunk, as a video chunk of the reference render


def render_seconds(document: dict, frames: int) -> float:
    """Seconds to draw `frames` frames of the document's first comp (after a warm-up frame)."""
    comp = document["comps"][0]
    out = np.empty((comp["height"], comp["width"], 4), np.uint8)
    cache = FootageCache()
    times = [frame_time(number, comp["frameRate"]) for number in range(frames)]
    if RenderPlan is None:
        render_frame(document, comp["id"], times[0], footage=cache, out=out)
        started = time.perf_counter()
        for at in times:
            render_frame(document, comp["id"], at, footage=cache, out=out)
        return time.perf_counter() - started
    plan = RenderPlan(document, comp["id"], cache)
    render_frame(document, comp["id"], times[0], footage=cache, out=out, plan=plan)
    started = time.perf_counter()
    for first in range(0, frames, CHUNK):
        chunk = times[first:first + CHUNK]
        plan.prepare(chunk, reused_out=True)  # as the render_chunk task does
        for at in chunk:
            render_frame(document, comp["id"], at, footage=cache, out=out, plan=plan)
    return time.perf_counter() - started


if __name__ == "__main__":
    with open(sys.argv[1]) as handle:
        documents = json.load(handle)
    count = int(sys.argv[2])
    print(json.dumps({name: render_seconds(document, count) / count
                      for name, document in documents.items()}))
