"""When each process of a `rendervisor render` starts and ends, and how much CPU it spends: a
whole render's start-up on a timeline, from the command's start to its exit.

    .venv/bin/python scripts/process_timeline.py [--passes 3] [--frames 0] [--checkout DIR]...
                                                 [-- extra render flags]

Renders the reference comp (examples/bench.rvproj) of each checkout (default: this one; name
others, such as the code before a change, to compare them pass by pass, alternating), to a PNG
for `--frames 0` and to H.264 (libx264 veryfast, crf 23) otherwise, reading the process tree
every SAMPLE_SECONDS. For each process (the supervisor, the forkserver, each worker by the
order it started): when it appeared and ended, in seconds from the command's start, and its
CPU seconds; for the supervisor also the CPU it had spent when the forkserver appeared (the
work done in series before the workers' imports can start) and when the first worker appeared
(what it spent beside the forkserver's preload, competing with it for the cores). One JSON
object, with the load average before and after: on a shared machine wall times are mostly the
scheduler's, the CPU figures much less so.
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

from process_tree import compile_bytecode, watch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE_SECONDS = 0.01


def command(checkout: str, folder: str, frames: str, extra: list[str]) -> list[str]:
    project = os.path.join(checkout, "examples", "bench.rvproj")
    if frames == "0":
        output = ["--output", os.path.join(folder, "one_[#####].png"), "--frames", "0"]
    else:
        output = ["--output", os.path.join(folder, "reference.mp4"), "--codec-option",
                  "preset=veryfast", "--codec-option", "crf=23"]
        if frames:
            output += ["--frames", frames]
    return [sys.executable, "-m", "supervisor.cli", "render", project, *output, "--quiet",
            *extra]


def role(process: psutil.Process, root_pid: int, forkserver: int | None) -> str:
    if process.pid == root_pid:
        return "supervisor"
    if forkserver is not None and process.ppid() == forkserver:
        return "worker"
    try:
        line = " ".join(process.cmdline())
    except psutil.Error:
        line = ""
    if "forkserver" in line:
        return "forkserver"
    return "resource tracker" if "resource_tracker" in line else "other"


def one_pass(checkout: str, folder: str, frames: str, extra: list[str]) -> dict:
    seen: dict[int, dict] = {}  # pid -> its role, start, CPU seconds, when last seen
    # Starts are read on the kernel's clock (each process's create time, from the command's),
    # last sightings on this one's, from the launch: the two can differ by a few tenths.
    found = {"forkserver": None, "origin": None, "launched": time.time()}

    def read(process, tree: list) -> None:
        if not tree:
            return
        root = tree[0]
        if found["origin"] is None:
            found["origin"] = root.create_time()  # the kernel's clock for every process's start
        now = time.time() - found["launched"]
        for member in tree:
            try:
                with member.oneshot():
                    times = member.cpu_times()
                    if member.pid not in seen:
                        seen[member.pid] = {"role": role(member, root.pid, found["forkserver"]),
                                            "start": round(member.create_time() - found["origin"],
                                                           2)}
                        if seen[member.pid]["role"] == "forkserver":
                            found["forkserver"] = member.pid
                            if root.pid in seen:
                                seen[root.pid]["supervisor_cpu_at_forkserver"] = \
                                    seen[root.pid]["cpu"]
                        if (seen[member.pid]["role"] == "worker" and root.pid in seen
                                and "supervisor_cpu_at_first_worker" not in seen[root.pid]):
                            seen[root.pid]["supervisor_cpu_at_first_worker"] = \
                                seen[root.pid]["cpu"]
                    entry = seen[member.pid]
                    entry["cpu"] = round(times.user + times.system, 2)
                    entry["last_seen"] = round(now, 2)
            except psutil.Error:
                pass

    seconds = watch(command(checkout, folder, frames, extra), checkout,
                    dict(os.environ, PYTHONPATH=checkout), read, SAMPLE_SECONDS)
    workers = 0
    for entry in sorted(seen.values(), key=lambda e: e["start"]):
        if entry["role"] == "worker":
            workers += 1
            entry["role"] = f"worker {workers}"
    return {"seconds": round(seconds, 2),
            "cpu_seconds": round(sum(e["cpu"] for e in seen.values()), 2),
            "processes": {e["role"]: {k: v for k, v in e.items() if k != "role"}
                          for e in sorted(seen.values(), key=lambda e: e["start"])}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--frames", default="0", help="0 (a PNG), or a --frames SPEC, or '' "
                        "for every frame (H.264)")
    parser.add_argument("--checkout", action="append", help="a rendervisor checkout "
                        "(repeatable); default this one")
    parser.add_argument("extra", nargs="*", help="more `rendervisor render` flags")
    args = parser.parse_args()
    checkouts = args.checkout or [ROOT]
    for checkout in checkouts:
        compile_bytecode(checkout)  # as installed: scripts/process_tree.py says why
    load = [os.getloadavg()[0]]
    runs: dict[str, list] = {checkout: [] for checkout in checkouts}
    with tempfile.TemporaryDirectory(prefix="rendervisor-timeline-") as folder:
        for checkout in checkouts:  # warm-up: the page cache, fonts
            one_pass(checkout, folder, args.frames, args.extra)
        for _ in range(args.passes):
            for checkout in checkouts:
                runs[checkout].append(one_pass(checkout, folder, args.frames, args.extra))
    load.append(os.getloadavg()[0])
    result = {"load_average": load, "frames": args.frames or "all"}
    for checkout, passes in runs.items():
        result[checkout] = {
            "seconds_median": statistics.median(p["seconds"] for p in passes),
            "cpu_seconds_median": statistics.median(p["cpu_seconds"] for p in passes),
            "passes": passes}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
