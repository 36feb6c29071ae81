"""What a frame costs per layer, one process at 1920x1080 (scripts/layer_scenes.py's scenes), as a
render worker draws it: from the snapshot's render plan, prepared for the chunk's frames, into
one reused array. Prints one JSON object.

    .venv/bin/python scripts/bench_layers.py [--passes 3] [--before CHECKOUT]

- `per_layer`: 400 moving, turning 80x60 solids against 1, so the difference per extra layer is
  the cost of a layer, beside a plain skia-python loop drawing the same frames
  (scripts/peers/plain_skia_reference.py), render only and with each frame encoded to a JPEG
  file (ours through the real render_chunk task and exporter; the peer through PyAV's mjpeg
  with the same settings). Goal: plain's cost per layer / ours >= 1.0.
- `scenes`: frames/s of 400 stroked ellipses, 50 text layers, a 300-character per-character
  text animator (scripts/bench_text.py's), 100 still solids under one moving rect, and that rect
  alone (goal: the comp of 101 within 1.5x the cost of the rect alone).
- `--before CHECKOUT`: the same scenes drawn by another checkout of rendervisor (the code before
  a change), in a child process, pass by pass between ours, so both see the same machine.

Each figure is the best of `--passes` (the range of passes beside it), after a warm-up frame,
timed by the process's CPU time (`--clock wall` for wall time): on a machine shared with
other work, wall time is mostly the scheduler's, CPU time far less.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "peers"))

import bench_text  # noqa: E402
import layer_scenes  # noqa: E402
import plain_skia_reference as peer  # noqa: E402
from frame_timing import render_seconds  # noqa: E402
from protocol.cancel import Cancel  # noqa: E402
from protocol.model.keyframes import frame_count  # noqa: E402
from workers.chunk_task import render_chunk  # noqa: E402

GOAL_RATIO = 1.0
GOAL_STILL_RATIO = 1.5


def scene_documents() -> dict:
    return {
        "solids_1": layer_scenes.solids(1),
        "solids_400": layer_scenes.solids(400),
        "ellipses_400": layer_scenes.ellipses(400),
        "texts_50": layer_scenes.texts(50),
        "text_animator_300": bench_text.build(True, layer_scenes.DURATION),
        "moving_over_100_still": layer_scenes.moving_over_still(100),
        "moving_alone": layer_scenes.moving_alone(),
    }


def encode_seconds(document: dict, frames: int, clock=time.perf_counter) -> float:
    """Seconds for the render_chunk task to draw and write `frames` frames as JPEG files."""
    class Job:
        def __init__(self, payload):
            self.payload, self.cancel = payload, Cancel()

        def progress(self, data) -> None:
            pass

    comp = document["comps"][0]
    with tempfile.TemporaryDirectory(prefix="rendervisor-bench-") as folder:
        def payload(numbers, token):
            return {"document": document, "snapshot": None, "comp": comp["id"],
                    "frames": list(numbers), "firstIndex": 0, "token": token,
                    "keyframeInterval": 1, "format": "jpeg",
                    "output": os.path.join(folder, f"{token}_[#####].jpg"),
                    "frameRate": comp["frameRate"], "codecOptions": {}}
        render_chunk(Job(payload([0], "warm")))
        started = clock()
        render_chunk(Job(payload(range(frames), "run")))
        return clock() - started


def one_pass(documents: dict, frames: int, encode: bool, clock) -> dict:
    """{scene: seconds per frame}, and the solids' with encoding."""
    result = {name: render_seconds(document, frames, clock) / frames
              for name, document in documents.items()}
    if encode:
        for name in ("solids_1", "solids_400"):
            result[name + "_jpeg"] = encode_seconds(documents[name], frames, clock) / frames
    return result


def peer_pass(frames: int, clock) -> dict:
    peer.solids_loop(1, 2)  # warm-up
    result = {}
    with tempfile.TemporaryDirectory(prefix="rendervisor-peer-") as folder:
        for count in (1, 400):
            result[f"solids_{count}"] = peer.solids_loop(count, frames, clock=clock) / frames
            result[f"solids_{count}_jpeg"] = peer.solids_loop(count, frames, folder,
                                                              clock) / frames
    return result


def before_pass(checkout: str, documents_file: str, frames: int, cpu: bool) -> dict:
    """One pass of the scenes timed by another checkout's code, in a child process."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(checkout))
    output = subprocess.run([sys.executable, os.path.join(HERE, "frame_timing.py"),
                             documents_file, str(frames), *(["cpu"] if cpu else [])], env=env,
                            capture_output=True, text=True, check=True, cwd=checkout).stdout
    return json.loads(output)


def summary(passes: list[dict]) -> dict:
    """{name: (best seconds per frame, [fps of each pass])}."""
    return {name: (min(p[name] for p in passes), [round(1 / p[name], 1) for p in passes])
            for name in passes[0]}


def per_layer(seconds: dict, suffix: str = "") -> float:
    """Microseconds a frame costs per extra solid."""
    return (seconds["solids_400" + suffix] - seconds["solids_1" + suffix]) / 399 * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--frames", type=int, default=frame_count(layer_scenes.DURATION,
                                                                  layer_scenes.FPS))
    parser.add_argument("--before", metavar="CHECKOUT",
                        help="also measure the scenes with another checkout's code")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="time by the process's CPU time (the default: what a shared "
                             "machine disturbs least) or by wall time")
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    documents = scene_documents()
    ours, peers, befores = [], [], []
    with tempfile.NamedTemporaryFile("w", suffix=".json") as documents_file:
        json.dump(documents, documents_file)
        documents_file.flush()
        for _ in range(args.passes):
            ours.append(one_pass(documents, args.frames, encode=True, clock=clock))
            peers.append(peer_pass(args.frames, clock))
            if args.before:
                befores.append(before_pass(args.before, documents_file.name, args.frames,
                                           args.clock == "cpu"))
    best, peer = summary(ours), summary(peers)
    seconds = {name: value[0] for name, value in best.items()}
    peer_seconds = {name: value[0] for name, value in peer.items()}
    layer = {}
    for suffix, what in (("", "render_only"), ("_jpeg", "with_jpeg")):
        mine, theirs = per_layer(seconds, suffix), per_layer(peer_seconds, suffix)
        layer[what] = {
            "rendervisor_us_per_layer": round(mine, 1), "plain_skia_us_per_layer": round(theirs, 1),
            "ratio_plain_over_rendervisor": round(theirs / mine, 3),
            "rendervisor_fps_400": best["solids_400" + suffix][1],
            "plain_skia_fps_400": peer["solids_400" + suffix][1],
            "passes_ratio": [round(per_layer(p, suffix) and
                                   per_layer(q, suffix) / per_layer(p, suffix), 3)
                             for p, q in zip(ours, peers)],
            "goal_met": theirs / mine >= GOAL_RATIO}
    scenes = {name: {"fps": round(1 / value[0], 1), "passes_fps": value[1]}
              for name, value in best.items() if not name.endswith("_jpeg")}
    if befores:
        before = summary(befores)
        for name, value in before.items():
            scenes[name]["before_fps"] = round(1 / value[0], 1)
            scenes[name]["before_passes_fps"] = value[1]
    still = seconds["moving_over_100_still"] / seconds["moving_alone"]
    print(json.dumps({
        "size": [layer_scenes.WIDTH, layer_scenes.HEIGHT], "frames": args.frames,
        "passes": args.passes, "clock": args.clock,
        "load_average": round(os.getloadavg()[0], 2), "per_layer": layer, "scenes": scenes,
        "moving_over_still": {"ratio_to_alone": round(still, 3),
                              "passes_ratio": [round(p["moving_over_100_still"] /
                                                     p["moving_alone"], 3) for p in ours],
                              "goal_met": still <= GOAL_STILL_RATIO}}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
