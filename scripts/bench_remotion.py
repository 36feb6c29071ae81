"""Whole processes, side by side in one run: `rendervisor render` of the Remotion-equivalent comp
(examples/remotion_equivalent.py) to H.264 beside Remotion 4 rendering the same scene
(scripts/peers/remotion/: React in headless Chromium, its own compositor and FFmpeg), at 90 and
300 frames, alternating, with the same encoder settings. One JSON object.

    .venv/bin/python scripts/bench_remotion.py [--passes 2] [--frames 90,300]
        [--remotion FOLDER] [--concurrency N] [--workers N]

Remotion is installed from npm (`remotion`, `@remotion/cli`, `@remotion/renderer`, React) into
a temporary folder, unless `--remotion` names a folder where that was done before (it is
reused, and made there when empty). It renders with Debian's `chromium` (`apt-get install -y
chromium`) through `--browser-executable`, and its default concurrency unless
`--concurrency` says otherwise. This is a benchmark: nothing in the tests needs it.

Each figure times a whole process, from its command's start to its exit: ours is the
interpreter, imports, the forkserver and workers, the render, encode and join; Remotion's its
bundling, Chromium, the frames and its FFmpeg. `cpu_utilisation` is the CPU time of the
process tree (every child, every thread; scripts/process_tree.py) over the cores times the wall
time, `cpu_ratio_N`
Remotion's CPU time over ours (the work each needs, which other processes on the machine
disturb far less than the wall time); `peak_rss_mb` the largest resident size of the tree,
sampled every tenth of a second. `per_extra_frame_ms` and
`fixed_s` come from the two lengths' medians (a line through them). Goal: ours at least 5x
Remotion's frames/s at both lengths. `load` is the load average and CPU pressure
(/proc/pressure/cpu, some avg10) before and after: on a shared machine the ratio, measured
pass by pass, is what to read.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

import rendercv_fonts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import remotion_equivalent  # noqa: E402
import process_tree  # noqa: E402

GOAL_RATIO = 5.0
# Remotion's packages must share one version: the CLI's newest, which `remotion` itself can be
# ahead of on the registry.
PACKAGES = ("remotion", "@remotion/cli", "@remotion/renderer")
REACT = ("react@18", "react-dom@18")
PEER_SOURCE = os.path.join(ROOT, "scripts", "peers", "remotion")
IMAGE = os.path.join(ROOT, "examples", "bench_image.png")
FONTS = os.path.join(os.path.dirname(rendercv_fonts.__file__), "Roboto")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Both sides encode with these (libx264; yuv420p on both).
PRESET, CRF = "veryfast", 23
ENV = dict(os.environ, PYTHONPATH=ROOT)


def remotion_project(folder: str) -> str:
    """A Remotion project in `folder`: its packages installed when they are not there yet, the
    peer's source in src/, the picture and fonts in public/."""
    os.makedirs(folder, exist_ok=True)
    if not os.path.isdir(os.path.join(folder, "node_modules", "@remotion", "cli")):
        with open(os.path.join(folder, "package.json"), "w") as handle:
            json.dump({"name": "rendervisor-remotion-peer", "private": True}, handle)
        version = subprocess.run(["npm", "view", "@remotion/cli@4", "version"], check=True,
                                 capture_output=True, text=True).stdout.split()[-1].strip("'")
        subprocess.run(["npm", "install", "--no-audit", "--no-fund",
                        *(f"{package}@{version}" for package in PACKAGES), *REACT],
                       cwd=folder, check=True, stdout=subprocess.DEVNULL)
    shutil.copytree(PEER_SOURCE, os.path.join(folder, "src"), dirs_exist_ok=True)
    public = os.path.join(folder, "public")
    os.makedirs(public, exist_ok=True)
    shutil.copy(IMAGE, public)
    for face in ("Roboto-Regular.ttf", "Roboto-Bold.ttf"):
        shutil.copy(os.path.join(FONTS, face), public)
    return folder


def remotion_command(folder: str, props: str, output: str, concurrency: int | None) -> list:
    command = [os.path.join(folder, "node_modules", ".bin", "remotion"), "render",
               "src/index.ts", "Equivalent", output, f"--props={props}",
               f"--browser-executable={CHROMIUM}", "--codec=h264", f"--crf={CRF}",
               f"--x264-preset={PRESET}", "--log=error"]
    if concurrency:
        command.append(f"--concurrency={concurrency}")
    return command


def rendervisor_command(project: str, output: str, workers: int | None) -> list:
    command = [sys.executable, "-m", "supervisor.cli", "render", project, "--output", output,
               "--codec-option", f"preset={PRESET}", "--codec-option", f"crf={CRF}", "--quiet"]
    if workers:
        command += ["--workers", str(workers)]
    return command


def run_whole(command: list, cwd: str) -> dict:
    return process_tree.run_whole(command, cwd, ENV)


def decoded_frames(path: str) -> int:
    import av
    with av.open(path) as container:
        return sum(1 for _ in container.decode(video=0))


def load() -> dict:
    with open("/proc/pressure/cpu") as handle:
        some = handle.readline().split()[1].split("=")[1]
    return {"load_average": round(os.getloadavg()[0], 2), "cpu_pressure_avg10": float(some)}


def summary(runs: list, frames: int) -> dict:
    seconds = [run["seconds"] for run in runs]
    median = statistics.median(seconds)
    cores = os.cpu_count() or 1
    return {"seconds": [round(s, 2) for s in seconds], "median_s": round(median, 2),
            "fps": round(frames / median, 2),
            "cpu_seconds": [round(run["cpu_seconds"], 2) for run in runs],
            "cpu_utilisation": [round(run["cpu_seconds"] / (cores * run["seconds"]), 2)
                                for run in runs],
            "peak_rss_mb": [round(run["peak_rss_mb"]) for run in runs]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--frames", default="90,300", help="comma list of lengths in frames")
    parser.add_argument("--remotion", help="a folder to install Remotion into (or reuse)")
    parser.add_argument("--concurrency", type=int, help="Remotion's --concurrency")
    parser.add_argument("--workers", type=int, help="rendervisor's --workers")
    parser.add_argument("--only", choices=("rendervisor", "remotion"))
    args = parser.parse_args()
    lengths = [int(n) for n in args.frames.split(",")]
    process_tree.compile_bytecode(ROOT)  # as installed: scripts/process_tree.py says why

    with tempfile.TemporaryDirectory(prefix="bench_remotion_") as scratch:
        peer = remotion_project(args.remotion or os.path.join(scratch, "remotion"))
        projects, props = {}, {}
        for frames in lengths:
            duration = frames / remotion_equivalent.FPS
            projects[frames] = remotion_equivalent.build(duration, scratch, f"equivalent_{frames}")
            props[frames] = os.path.join(scratch, f"props_{frames}.json")
            with open(props[frames], "w") as handle:
                json.dump(remotion_equivalent.scene(duration), handle)
        sides = {"rendervisor": lambda frames, out: run_whole(
                     rendervisor_command(projects[frames], out, args.workers), ROOT),
                 "remotion": lambda frames, out: run_whole(
                     remotion_command(peer, props[frames], out, args.concurrency), peer)}
        if args.only:
            sides = {args.only: sides[args.only]}
        runs = {name: {frames: [] for frames in lengths} for name in sides}
        before = load()
        for _ in range(args.passes):
            for frames in lengths:
                for name, render in sides.items():
                    output = os.path.join(scratch, f"{name}_{frames}.mp4")
                    runs[name][frames].append(render(frames, output))
                    decoded = decoded_frames(output)
                    if decoded != frames:
                        sys.exit(f"{name} wrote {decoded} frames of {frames} to {output}")
                    os.remove(output)
        result = {"encoder": {"codec": "libx264", "preset": PRESET, "crf": CRF,
                              "pix_fmt": "yuv420p"},
                  "load_before": before, "load_after": load(), "passes": args.passes}
        for name in sides:
            result[name] = {str(frames): summary(runs[name][frames], frames)
                            for frames in lengths}
            if len(lengths) >= 2:
                short, long = lengths[0], lengths[-1]
                a = result[name][str(short)]["median_s"]
                b = result[name][str(long)]["median_s"]
                per_frame = (b - a) / (long - short)
                result[name]["per_extra_frame_ms"] = round(per_frame * 1000, 1)
                result[name]["fixed_s"] = round(a - per_frame * short, 2)
        if len(sides) == 2:
            for frames in lengths:
                ratios = [theirs["seconds"] / ours["seconds"] for ours, theirs in
                          zip(runs["rendervisor"][frames], runs["remotion"][frames])]
                result[f"ratio_{frames}"] = {
                    "median": round(statistics.median(ratios), 2),
                    "passes": [round(r, 2) for r in ratios], "goal": GOAL_RATIO,
                    "met": statistics.median(ratios) >= GOAL_RATIO}
                cpu = [theirs["cpu_seconds"] / ours["cpu_seconds"] for ours, theirs in
                       zip(runs["rendervisor"][frames], runs["remotion"][frames])]
                result[f"cpu_ratio_{frames}"] = {"median": round(statistics.median(cpu), 2),
                                                 "passes": [round(r, 2) for r in cpu]}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
