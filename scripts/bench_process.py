"""Whole processes, in one run: `rendervisor render` of the reference comp (examples/bench.rvproj,
1920x1080, 90 frames) to H.264 beside MoviePy 2 writing the same scene with the same encoder
settings (scripts/peers/moviepy_reference.py), each timed from its command's start to its exit,
alternating; then how the cost grows with the output and over a long render. One JSON object.

    .venv/bin/python scripts/bench_process.py [--passes 3] [--rss-minutes 10]

- `reference`: frames/s of each whole process (start-up, imports, workers, render, encode, join),
  the best of `--passes` and every pass; goal: ours at least 6x MoviePy's. Beside it
  `cpu_ratio`, MoviePy's CPU time over ours (each whole process tree), which a machine shared
  with other work disturbs far less than the wall time.
- `start_up`: a 1-frame PNG render of the reference, the whole process, beside the floor under
  it: `python -c pass` and `python -c "import supervisor.cli.main"` (what runs before a worker
  can be asked for anything).
- `sizes`: the reference scene built at 1280x720, 1920x1080 and 3840x2160 (every length of
  examples/bench_project.py scaled, the image drawn at its scaled size), frames/s and
  megapixels/s; goal: close to linear in pixels (megapixels/s about the same at each size).
- `rss`: with `--rss-minutes M` (0 to skip), the reference stretched so its render lasts about
  M minutes at 1080p, the resident memory of the render's whole process tree sampled every
  second; goal: flat after the first minute (the growth after it is reported).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import psutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import bench_project  # noqa: E402
import process_tree  # noqa: E402
from bench_render import QUEUE_CODEC_OPTIONS, stretch  # noqa: E402

GOAL_RATIO = 6.0
REFERENCE_FRAMES = 90
SIZES = {"720p": 2 / 3, "1080p": 1.0, "4K": 2.0}
# The lengths of examples/bench_project.py that scale with the output.
SCALED = ("WIDTH", "HEIGHT", "RECT_SIZE", "RECT_SPEED", "RECT_STARTS", "IMAGE_SIZE",
          "IMAGE_CENTER", "TEXT_SIZE", "TEXT_FROM", "TEXT_TO")
ENV = dict(os.environ, PYTHONPATH=ROOT)


def render_command(project: str, output: str, *extra: str) -> list[str]:
    """`rendervisor render` of the bench comp; to H.264 with the encoder settings the render
    queue bench uses (scripts/bench_render.py), when `output` is a video."""
    codec = [argument for key, value in QUEUE_CODEC_OPTIONS.items()
             for argument in ("--codec-option", f"{key}={value}")]
    return [sys.executable, "-m", "supervisor.cli", "render", project, "--comp",
            bench_project.COMP, "--output", output, *(codec if output.endswith(".mp4") else ()),
            "--quiet", *extra]


def wall(command: list[str], sample=None) -> float:
    """Seconds from starting `command` to its exit; `sample(process)` is called every second."""
    return run_whole(command, sample)["seconds"]


def run_whole(command: list[str], sample=None) -> dict:
    """Wall seconds from starting `command` to its exit and the CPU seconds of its whole process
    tree (scripts/process_tree.py); `sample(process)` is called every second."""
    return process_tree.run_whole(command, ROOT, ENV, sample)


def scaled_project(folder: str, factor: float, seconds: float | None = None) -> str:
    """The reference scene written into `folder` with every length times `factor`."""
    kept = {name: getattr(bench_project, name) for name in SCALED}
    try:
        for name, value in kept.items():
            setattr(bench_project, name, _times(value, factor))
        path, _ = bench_project.write_bench_project(folder)
    finally:
        for name, value in kept.items():
            setattr(bench_project, name, value)
    if seconds is not None:
        from supervisor.engine.engine import Engine
        engine = Engine(path)
        engine.edit_quietly(lambda doc: stretch(doc["comps"][0], seconds))
        engine.run("project.save", {"path": path})
    return path


def _times(value, factor: float):
    if isinstance(value, (tuple, list)):
        return type(value)(_times(inner, factor) for inner in value)
    return round(value * factor) if isinstance(value, int) else value * factor


def reference(folder: str, passes: int) -> dict:
    project = os.path.join(ROOT, "examples", "bench.rvproj")
    output = os.path.join(folder, "reference.mp4")
    moviepy = [sys.executable, os.path.join(ROOT, "scripts", "peers", "moviepy_reference.py"),
               "--passes", "1"]
    wall(render_command(project, output))  # warm-up: the page cache, fonts, the encoder
    ours, theirs = [], []
    for _ in range(passes):
        ours.append(run_whole(render_command(project, output)))
        theirs.append(run_whole(moviepy))
    our_fps = [REFERENCE_FRAMES / run["seconds"] for run in ours]
    their_fps = [REFERENCE_FRAMES / run["seconds"] for run in theirs]
    # MoviePy's CPU time over ours, pass by pass: the work each needs, which other processes
    # on a shared machine disturb far less than the wall time.
    cpu = [theirs_run["cpu_seconds"] / ours_run["cpu_seconds"]
           for ours_run, theirs_run in zip(ours, theirs)]
    return {"frames": REFERENCE_FRAMES, "codec_options": QUEUE_CODEC_OPTIONS,
            "rendervisor_fps": round(max(our_fps), 1), "moviepy_fps": round(max(their_fps), 1),
            "ratio": round(max(our_fps) / max(their_fps), 2), "goal_ratio": GOAL_RATIO,
            "goal_met": max(our_fps) / max(their_fps) >= GOAL_RATIO,
            "rendervisor_passes_fps": [round(v, 1) for v in our_fps],
            "moviepy_passes_fps": [round(v, 1) for v in their_fps],
            "passes_ratio": [round(o / t, 2) for o, t in zip(our_fps, their_fps)],
            "rendervisor_cpu_seconds": [round(run["cpu_seconds"], 2) for run in ours],
            "moviepy_cpu_seconds": [round(run["cpu_seconds"], 2) for run in theirs],
            "cpu_ratio": {"median": round(statistics.median(cpu), 2),
                          "passes": [round(r, 2) for r in cpu]}}


def start_up(folder: str, passes: int) -> dict:
    project = os.path.join(ROOT, "examples", "bench.rvproj")
    one = render_command(project, os.path.join(folder, "one_[#####].png"), "--frames", "0")
    floors = {"python": [sys.executable, "-c", "pass"],
              "import_cli": [sys.executable, "-c", "import supervisor.cli.main"]}
    result = {"one_frame_render_s": round(min(wall(one) for _ in range(passes)), 3)}
    for name, command in floors.items():
        result[name + "_s"] = round(min(wall(command) for _ in range(passes)), 3)
    return result


def sizes(folder: str, passes: int) -> dict:
    result = {}
    for name, factor in SIZES.items():
        here = os.path.join(folder, name)
        os.makedirs(here)
        project = scaled_project(here, factor)
        command = render_command(project, os.path.join(here, "out.mp4"))
        wall(command)
        best = min(wall(command) for _ in range(passes))
        width, height = round(1920 * factor), round(1080 * factor)
        result[name] = {"size": [width, height], "fps": round(REFERENCE_FRAMES / best, 1),
                        "megapixels_per_s": round(REFERENCE_FRAMES * width * height / best / 1e6,
                                                  1)}
    return result


def rss(folder: str, minutes: float) -> dict:
    """The tree's resident MiB each second of a render lasting about `minutes`."""
    here = os.path.join(folder, "rss")
    os.makedirs(here)
    probe = scaled_project(here, 1.0)
    fps = REFERENCE_FRAMES / wall(render_command(probe, os.path.join(here, "probe.mp4")))
    project = scaled_project(here, 1.0, seconds=round(minutes * 60 * fps / 30))
    samples: list[tuple[float, float]] = []
    started = time.perf_counter()

    def sample(process) -> None:
        try:
            tree = [psutil.Process(process.pid)] + psutil.Process(process.pid).children(True)
            total = sum(p.memory_info().rss for p in tree if p.is_running())
        except psutil.NoSuchProcess:
            return
        samples.append((time.perf_counter() - started, total / 2 ** 20))

    seconds = wall(render_command(project, os.path.join(here, "long.mp4")), sample)
    after_first = [mib for at, mib in samples if at >= 60]
    return {"render_s": round(seconds, 1), "samples": len(samples),
            "first_minute_max_mib": round(max(mib for at, mib in samples if at < 60), 1),
            "after_first_minute_min_mib": round(min(after_first), 1) if after_first else None,
            "after_first_minute_max_mib": round(max(after_first), 1) if after_first else None,
            "last_mib": round(samples[-1][1], 1) if samples else None,
            # The largest sample of each 10 s: the shape of the curve, without every second.
            "per_10s_max_mib": [round(max(mib for at, mib in samples if start <= at < start + 10),
                                      1) for start in range(0, int(samples[-1][0]) + 1, 10)
                                if any(start <= at < start + 10 for at, _ in samples)]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--rss-minutes", type=float, default=10.0)
    parser.add_argument("--only", choices=("reference", "start_up", "sizes", "rss"),
                        action="append")
    args = parser.parse_args()
    parts = {"reference": lambda f: reference(f, args.passes),
             "start_up": lambda f: start_up(f, args.passes),
             "sizes": lambda f: sizes(f, args.passes),
             "rss": lambda f: rss(f, args.rss_minutes)}
    chosen = args.only or [name for name in parts if name != "rss" or args.rss_minutes > 0]
    process_tree.compile_bytecode(ROOT)  # as installed: scripts/process_tree.py says why
    result = {"cores": os.cpu_count(), "load_average": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory(prefix="rendervisor-bench-") as folder:
        for name in chosen:
            result[name] = parts[name](folder)
    result["load_average_after"] = os.getloadavg()[0]
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
