"""Render-only frame rate of the compositor, one process, on the reference comp
(examples/bench.rvproj: 1920x1080, 3 s at 30 fps), next to a plain Skia loop drawing the same
things (scripts/peers/plain_skia_reference.py); and the render queue's frame rate, rendering
that comp to H.264 through the real render service on every core, next to MoviePy 2
(scripts/peers/moviepy_reference.py) with the same encoder settings. Prints one JSON object.

    .venv/bin/python scripts/bench_render.py [--project FILE] [--passes N]
                                                  [--only compositor|queue] [--workers N]
                                                  [--long SECONDS]

`fps` is render_frame into a reused array (what a worker that encodes each frame does);
`fps_new_array` allocates each frame's array; `fps_surface_only` skips the readback. Each figure
is the best of N passes after one warm-up frame (the first frame decodes the image and lays out
the text, which a worker does once per job, not per frame).

`render_queue`: renderQueue.render of one h264 item (preset veryfast, yuv420p, crf 23: x264's
default, which MoviePy's ffmpeg uses too) on `--workers` render workers (default: every core),
after one warm-up render, alternating with MoviePy runs; best of N each. `efficiency` is the
render workers' CPU time (rendering and encoding, every thread) divided by cores x wall time.
The reference is 90 frames: key frame intervals of 12 (keyframe_interval_for: a video under 240
frames gets about 8 intervals), so 2 workers share four chunks of 24, 24, 24 and 18 frames;
`render_queue_long` renders the same scene stretched to `--long` seconds (keys and layer ends
scaled; 300 frames: intervals of 30), where chunks outnumber workers. On a shared
machine `other_processes_cores` says how many cores other processes kept busy during the best
run, and `efficiency_on_free_cores` is the efficiency on what they left free.
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
import moviepy_reference  # noqa: E402
import plain_skia_reference  # noqa: E402
from protocol.model.keyframes import frame_count  # noqa: E402
from workers.compositor import FootageCache, render_frame, render_to_surface  # noqa: E402

GOAL_FPS = 60
QUEUE_GOAL_RATIO = 4.0  # render queue fps over MoviePy's
QUEUE_GOAL_EFFICIENCY = 0.85
QUEUE_CODEC_OPTIONS = {"preset": "veryfast", "pix_fmt": "yuv420p", "crf": "23"}


def load_project(path: str | None) -> tuple[str, dict]:
    """The bench project as the engine opens it (footage paths resolved against its folder),
    (re)written into examples/ when it or its image is missing."""
    from supervisor.engine.engine import Engine
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


def measure_compositor(path: str, document: dict, comp_ref: str | None, passes: int) -> dict:
    comp = document["comps"][0] if comp_ref is None else next(
        c for c in document["comps"] if comp_ref in (c["id"], c["name"]))
    frames = frame_count(comp["duration"], comp["frameRate"])
    rate = comp["frameRate"]
    cache = FootageCache()
    out = np.empty((comp["height"], comp["width"], 4), np.uint8)
    first = render_frame(document, comp["id"], 0.0, footage=cache, out=out)
    if first.missing:
        sys.exit(f"bench footage missing: {first.missing}")

    fps = timed(lambda n: render_frame(document, comp["id"], n / rate, footage=cache, out=out),
                frames, passes)
    fps_new = timed(lambda n: render_frame(document, comp["id"], n / rate, footage=cache),
                    frames, passes)
    fps_surface = timed(lambda n: render_to_surface(document, comp["id"], n / rate,
                                                    footage=cache), frames, passes)
    peer = plain_skia_reference.measure(frames, passes)
    return {
        "project": os.path.relpath(path, ROOT),
        "comp": comp["name"], "size": [comp["width"], comp["height"]], "frames": frames,
        "fps": round(fps, 1),
        "fps_new_array": round(fps_new, 1),
        "fps_surface_only": round(fps_surface, 1),
        "plain_skia_fps": round(peer["fps"], 1),
        "ratio_to_plain_skia": round(fps / peer["fps"], 3),
        "goal_fps": GOAL_FPS,
        "meets_goal": fps >= GOAL_FPS,
        "passes": passes,
    }


def stretch(comp: dict, seconds: float) -> None:
    """The same scene over `seconds` instead of its own duration: every key time and layer
    end scaled alike, so each frame still moves and costs what the reference's frames do."""
    factor = seconds / comp["duration"]

    def scale_keys(value) -> None:
        if isinstance(value, dict) and "keys" in value:
            for key in value["keys"]:
                key["time"] *= factor
        elif isinstance(value, dict):
            for inner in value.values():
                scale_keys(inner)
        elif isinstance(value, list):
            for inner in value:
                scale_keys(inner)

    comp["duration"] = seconds
    for layer in comp["layers"]:
        layer["inPoint"] *= factor
        layer["outPoint"] *= factor
        scale_keys([layer["transform"], layer["content"], layer["effects"]])


def measure_queue(path: str, passes: int, workers: int, context, seconds: float | None = None,
                  with_peer: bool = True) -> dict:
    """renderQueue.render of the bench comp to H.264 through a real session and pool,
    alternating with MoviePy; the best of `passes` each. `seconds` stretches the comp."""
    import tempfile

    import psutil

    from supervisor.runtime.pool import Pool
    from supervisor.mcp.session import Options, Session

    made, preload = context
    pool = Pool(made, workers, preload=preload)
    session = Session(Options(project=path, workers=workers), pool)
    engine = session.engine
    comp = engine.doc["comps"][0]
    reference_frames = frame_count(comp["duration"], comp["frameRate"])  # MoviePy's scene
    if seconds is not None:
        engine.edit_quietly(lambda doc: stretch(doc["comps"][0], seconds))
    frames = frame_count(comp["duration"], comp["frameRate"])
    runs, peer_runs = [], []  # peer: MoviePy's seconds per frame
    try:
        with tempfile.TemporaryDirectory(prefix="rendervisor-bench-") as folder:
            output = os.path.join(folder, "bench.mp4")
            item = engine.run("renderQueue.add", {"comp": comp["id"], "output": output,
                                                  "codecOptions": QUEUE_CODEC_OPTIONS})["item"]

            def render_once() -> dict:
                engine.run("renderQueue.set", {"item": item})  # queued again
                workers_now = [w for w in list(pool._all) if w.kind == "render" and w.alive]
                before = {w.pid: _cpu(psutil, w.pid) for w in workers_now}
                machine = _busy(psutil)
                started = time.perf_counter()
                report = engine.run("renderQueue.render", {})
                wall = time.perf_counter() - started
                if report["completed"] != 1:
                    sys.exit(f"the bench render failed: {report}")
                cpu = sum(_cpu(psutil, pid) - spent for pid, spent in before.items())
                # What other processes took meanwhile: on a shared machine the render cannot
                # use those core-seconds, whatever its own efficiency.
                others = max(0.0, _busy(psutil) - machine - cpu)
                return {"wall": wall, "cpu": cpu, "others": others}

            render_once()  # warm-up: workers start, the snapshot and the image reach them
            for _ in range(passes):
                runs.append(render_once())
                if with_peer:
                    peer_runs.append(moviepy_reference.measure(1)["seconds"] / reference_frames)
    finally:
        session.close()
        pool.close()
    best = min(runs, key=lambda run: run["wall"])
    cores = os.cpu_count() or 1
    fps = frames / best["wall"]
    efficiency = best["cpu"] / (cores * best["wall"])
    result = {
        "frames": frames, "size": [comp["width"], comp["height"]], "workers": workers,
        "cores": cores, "codec_options": QUEUE_CODEC_OPTIONS,
        "fps": round(fps, 1), "efficiency": round(efficiency, 3),
        "wall_s": round(best["wall"], 3), "worker_cpu_s": round(best["cpu"], 3),
        "passes_fps": [round(frames / run["wall"], 1) for run in runs],
        "passes_efficiency": [round(run["cpu"] / (cores * run["wall"]), 3) for run in runs],
        "goal_efficiency": QUEUE_GOAL_EFFICIENCY,
        # Efficiency on the core-seconds other processes left free (equal to `efficiency` on an
        # idle machine), and how many cores those processes kept busy on average.
        "efficiency_on_free_cores": round(
            best["cpu"] / max(best["cpu"], cores * best["wall"] - best["others"]), 3),
        "other_processes_cores": round(best["others"] / best["wall"], 2),
    }
    if peer_runs:
        peer_fps = 1 / min(peer_runs)
        result.update({
            "moviepy_fps": round(peer_fps, 1), "ratio_to_moviepy": round(fps / peer_fps, 2),
            "moviepy_passes_fps": [round(1 / spent, 1) for spent in peer_runs],
            "goal_ratio": QUEUE_GOAL_RATIO,
            "meets_goals": fps / peer_fps >= QUEUE_GOAL_RATIO
            and efficiency >= QUEUE_GOAL_EFFICIENCY})
    return result


def _busy(psutil) -> float:
    """CPU seconds the whole machine has spent busy (not idle), every core summed."""
    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0)


def _cpu(psutil, pid: int) -> float:
    """User and system CPU seconds of a process, every thread (the encoder's too)."""
    try:
        times = psutil.Process(pid).cpu_times()
    except psutil.NoSuchProcess:
        return 0.0
    return times.user + times.system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--project", help="a saved project (default: examples/bench.rvproj)")
    parser.add_argument("--comp", default=None, help="comp id or name (default: the first)")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--only", choices=("compositor", "queue"),
                        help="measure one part (default: both)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="render workers for the queue (default: every core)")
    parser.add_argument("--long", type=float, default=10.0, metavar="SECONDS",
                        help="also render the scene stretched to this many seconds, where "
                             "chunks outnumber workers (0: skip; default 10)")
    args = parser.parse_args()
    context = None
    if args.only != "compositor":
        # The forkserver first, while this process is single-threaded (see
        # supervisor/runtime/pool.py).
        from supervisor.runtime.pool import make_context, worker_preload
        preload = worker_preload()
        context = (make_context(preload), preload)
    path, document = load_project(args.project)
    result = {}
    if args.only != "queue":
        result = measure_compositor(path, document, args.comp, args.passes)
    if args.only != "compositor":
        result["render_queue"] = measure_queue(path, args.passes, args.workers, context)
        if args.long:
            result["render_queue_long"] = measure_queue(path, args.passes, args.workers,
                                                        context, args.long, with_peer=False)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
