"""Sandbox benchmark: what bubblewrap costs a shell call, beside an unconfined shell, one run.

    python scripts/bench_sandbox.py [--calls 200] [--spawns 300] [--srt PACKAGE_FOLDER]

Prints one JSON object:
- a shell call through `rendervisor mcp` (the whole round trip an agent waits for: the call,
  a fresh shell worker, the command, the answer), for `true` and `/usr/bin/python3 -c pass`: an
  unconfined server's host shell beside a confined server's sandbox, median and p90 in ms, and
  the difference of the medians, the sandbox's start-up cost per call;
- the bare start-up, no server: `/bin/sh -c true` spawned directly beside the same command
  under bwrap with exactly the arguments a confined session's call gets (its private folder,
  the seccomp filter, the environment through --args), median in ms;
- with --srt, the peer: the same commands under Anthropic's sandbox runtime, what Claude Code
  runs its commands under on Linux (scripts/peers/srt_shell_reference.mjs says how; needs node).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench_frontdoor import OURS, Driver, percentile

from supervisor.confinement.roots import Confinement
from supervisor.confinement.shell_policy import ShellPolicy
from workers.shell_runner import sandboxed_command

SRT_REFERENCE = os.path.join(HERE, "peers", "srt_shell_reference.mjs")

# /usr/bin/python3 on both sides: on the host, `python3` may be a virtual environment's or a
# version manager's shim, which would measure that instead of the sandbox.
COMMANDS = {"true": "true", "python3": "/usr/bin/python3 -c pass"}


def call_times(server: list[str], folder: str, command: str, calls: int) -> list[float]:
    driver = Driver(server, folder)
    try:
        for _ in range(5):  # warm: the first calls also start the forkserver's first workers
            driver.wait(driver.call("shell", {"command": command}))
        times = []
        for _ in range(calls):
            sent = time.perf_counter()
            arrived, message = driver.wait(driver.call("shell", {"command": command}))
            assert message["result"]["structuredContent"]["exit_code"] == 0, message
            times.append((arrived - sent) * 1000)
        return times
    finally:
        driver.close()


def summary(times: list[float]) -> dict:
    return {"median_ms": round(statistics.median(times), 2),
            "p90_ms": round(percentile(times, 0.9), 2)}


def bare_spawns(root: str, spawns: int) -> dict:
    host = []
    for _ in range(spawns):
        started = time.perf_counter()
        subprocess.run(["/bin/sh", "-c", "true"], check=True)
        host.append((time.perf_counter() - started) * 1000)
    policy = ShellPolicy("sandbox", Confinement([], [root]))
    sandboxed = []
    with policy.sandbox(root) as sandbox:
        for _ in range(spawns):
            started = time.perf_counter()
            command, env, fds, status = sandboxed_command({"command": "true"}, sandbox)
            subprocess.run(command, env=env, pass_fds=fds, check=True)
            sandboxed.append((time.perf_counter() - started) * 1000)
            for fd in (*fds, status):
                os.close(fd)
    return {"host_sh_median_ms": round(statistics.median(host), 2),
            "bwrap_sh_median_ms": round(statistics.median(sandboxed), 2),
            "difference_ms": round(statistics.median(sandboxed) - statistics.median(host), 2)}


def srt_spawns(package: str, root: str, spawns: int) -> dict:
    """The peer's per-command cost, from its own script (JSON on its stdout)."""
    run = subprocess.run(["node", SRT_REFERENCE, os.path.abspath(package), root, str(spawns)],
                         cwd=root, capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--spawns", type=int, default=300)
    parser.add_argument("--srt", metavar="PACKAGE_FOLDER",
                        help="the installed @anthropic-ai/sandbox-runtime, to measure it too")
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="bench-sandbox-")
    confined = OURS + ["--write-root", root]
    result = {}
    for name, command in COMMANDS.items():
        host = call_times(OURS, root, command, args.calls)
        sandbox = call_times(confined, root, command, args.calls)
        result[f"shell_call_{name}"] = {
            "host": summary(host), "sandbox": summary(sandbox),
            "sandbox_cost_ms": round(statistics.median(sandbox) - statistics.median(host), 2)}
    result["bare_start"] = bare_spawns(root, args.spawns)
    if args.srt:
        result["peer_srt"] = srt_spawns(args.srt, root, args.spawns)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
