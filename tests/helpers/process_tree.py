"""The processes under a real `rendervisor mcp`, sorted by role, for tests that kill them and
then check that nothing is left: the forkserver, the workers it forked, the shells they run and
whatever those shells started."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import psutil


@dataclass
class Tree:
    forkserver: psutil.Process | None = None
    workers: list[psutil.Process] = field(default_factory=list)
    shell_workers: list[psutil.Process] = field(default_factory=list)
    shells: list[psutil.Process] = field(default_factory=list)  # /bin/sh of a shell job
    shell_grandchildren: list[psutil.Process] = field(default_factory=list)
    zombies: list[psutil.Process] = field(default_factory=list)


def tree_of(server_pid: int) -> Tree:
    tree = Tree()
    try:
        descendants = psutil.Process(server_pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return tree
    for process in descendants:
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                tree.zombies.append(process)
                continue
            command = " ".join(process.cmdline())
            parent = process.ppid()
        except psutil.Error:
            continue
        if "forkserver" in command and parent == server_pid:
            tree.forkserver = process
    for process in descendants:
        try:
            if tree.forkserver is not None and process.ppid() == tree.forkserver.pid:
                tree.workers.append(process)
        except psutil.Error:
            continue
    worker_pids = {worker.pid for worker in tree.workers}
    for process in descendants:
        try:
            parent = process.ppid()
            if parent in worker_pids and process.name() == "sh":
                tree.shells.append(process)
                tree.shell_workers.append(psutil.Process(parent))
        except psutil.Error:
            continue
    for shell in tree.shells:
        try:
            tree.shell_grandchildren += shell.children(recursive=True)
        except psutil.Error:
            continue
    return tree


def zombies_under(server_pid: int, settle: float = 3.0) -> list[psutil.Process]:
    """Zombies under the server that are still there after `settle` seconds (a process killed
    a moment ago is a zombie until its parent, or the subreaper, collects it)."""
    deadline = time.monotonic() + settle
    while True:
        zombies = tree_of(server_pid).zombies
        if not zombies or time.monotonic() > deadline:
            return zombies
        time.sleep(0.1)


def sleep_marker(whole_seconds: int) -> str:
    """`sleep N.PPPPPPP`: a command line no other test run on the machine has, for tests that
    look for it machine-wide. The fraction is this process's pid, zero-padded so that no
    marker is a prefix of another; N tells this process's tests apart."""
    return f"sleep {whole_seconds}.{os.getpid():07d}"


def processes_running(marker: str) -> list[psutil.Process]:
    """Live processes anywhere on the machine whose command line holds `marker` (an orphan
    re-parented to init is found too): to check that nothing outlived a test, with a marker
    only this run uses (sleep_marker)."""
    return _holding(marker, psutil.process_iter())


def descendants_running(root_pid: int, marker: str) -> list[psutil.Process]:
    """Live processes under `root_pid` whose command line holds `marker`: what a test may
    kill, never another run's process that happens to match."""
    try:
        return _holding(marker, psutil.Process(root_pid).children(recursive=True))
    except psutil.NoSuchProcess:
        return []


def _holding(marker: str, processes) -> list[psutil.Process]:
    found = []
    for process in processes:
        try:
            if marker in " ".join(process.cmdline()) and process.status() != psutil.STATUS_ZOMBIE:
                found.append(process)
        except psutil.Error:
            continue
    return found
