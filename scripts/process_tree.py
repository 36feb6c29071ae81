"""A command run as a whole process tree and measured: the wall seconds from its start to its
exit, the CPU seconds of every process in the tree, and the tree's largest resident size.

    run_whole(command, cwd, env, sample=None)
        -> {"seconds": ..., "cpu_seconds": ..., "peak_rss_mb": ...}

Processes started by a forkserver (rendervisor's render workers) or by a browser (Chromium's
helpers) are not waited for along the command's own chain of parents, so the kernel's
children's times (getrusage) never see them. The tree is read instead every SAMPLE_SECONDS,
each process's own CPU time kept at its last reading: what a process spends in its last
SAMPLE_SECONDS before it exits is missed, a small undercount for either side of a comparison.
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
import time
from typing import Callable

import psutil

SAMPLE_SECONDS = 0.1
PACKAGES = ("protocol", "supervisor", "workers")  # rendervisor's own, in a checkout


def watch(command: list, cwd: str, env: dict,
          on_tree: Callable[[subprocess.Popen, list], None],
          interval: float = SAMPLE_SECONDS) -> float:
    """Run `command` to its exit, giving `on_tree(process, tree)` its process tree (psutil
    processes, the command's own first) every `interval` seconds; the wall seconds it took.
    A command that fails ends this script with its error output."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    root = psutil.Process(process.pid)
    while process.poll() is None:
        try:
            tree = [root] + root.children(recursive=True)
        except psutil.NoSuchProcess:
            tree = []
        on_tree(process, tree)
        try:
            process.wait(interval)
        except subprocess.TimeoutExpired:
            pass
    seconds = time.perf_counter() - started
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {process.stderr.read().decode()[-3000:]}")
    return seconds


def run_whole(command: list, cwd: str, env: dict, sample=None) -> dict:
    """Run `command` to its exit and measure its tree; `sample(process)`, if given, is called
    about once a second while it runs."""
    cpu: dict[tuple, float] = {}  # (pid, start time) -> its own CPU seconds at the last reading
    peak, sampled = [0], [time.perf_counter()]

    def read(process: subprocess.Popen, tree: list) -> None:
        rss = 0
        for member in tree:
            try:
                with member.oneshot():
                    times = member.cpu_times()
                    cpu[(member.pid, member.create_time())] = times.user + times.system
                    rss += member.memory_info().rss
            except psutil.Error:
                pass
        peak[0] = max(peak[0], rss)
        if sample is not None and time.perf_counter() - sampled[0] >= 1.0:
            sampled[0] = time.perf_counter()
            sample(process)

    seconds = watch(command, cwd, env, read)
    return {"seconds": seconds, "cpu_seconds": sum(cpu.values()), "peak_rss_mb": peak[0] / 2**20}


def compile_bytecode(checkout: str) -> None:
    """Compile a rendervisor checkout's modules to bytecode, as installing a package does (pip
    compiles every module it installs, the peers' included). A checkout run in place writes its
    bytecode on first import, except where PYTHONDONTWRITEBYTECODE is set: there every run
    compiles its 300-odd modules again, in the supervisor and again in the forkserver (about
    0.6 s of CPU a run), a cost no installed rendervisor pays. Run before measuring."""
    for package in PACKAGES:
        compileall.compile_dir(os.path.join(checkout, package), quiet=1)
