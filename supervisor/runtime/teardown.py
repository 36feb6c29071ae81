"""Ending a job's whole process tree within a bound, and reaping what we own.

The order matters (docs/architecture.md, "Terminating a job"): the tree is snapshotted *before* the
first signal, because a grandchild that called setsid leaves the job's process group and, once
its parent dies, its place in the tree; only the snapshot still knows it. Each snapshotted
process is held by a pidfd, so a pid recycled during the grace is never signalled.
"""

from __future__ import annotations

import ctypes
import os
import select
import signal
import threading
import time
from dataclasses import dataclass

import psutil

# Seconds between a job's cooperative cancel and SIGKILL to its whole tree (`--teardown-grace`).
# Long enough for a render to finish the frame it is on and a shell's command to act on SIGTERM;
# short enough that a job that will not stop is gone before anyone waits on it for long.
TEARDOWN_GRACE = 1.0
# Seconds the calls still running when stdin ends get before they are torn down like a cancel
# (`--join-grace`; renders are let finish). Long enough for a piped script's last quick calls,
# short enough that a host closing the pipe sees the server exit promptly.
JOIN_GRACE = 5.0
PR_SET_CHILD_SUBREAPER = 36
# How long a background reaper keeps trying to collect a killed orphan. SIGKILL is immediate,
# so this bound only matters on a machine stalled under load; it prevents a reaper thread that
# waits forever on a pid that is, somehow, not ours.
REAP_BOUND = 10.0


def kill_deadline(grace: float = TEARDOWN_GRACE) -> float:
    """The monotonic time at which a job cancelled now is killed, tree and all: the one place
    the grace becomes a deadline."""
    return time.monotonic() + grace


def become_subreaper() -> bool:
    """Orphans of our workers re-parent to us instead of init, so none lingers as a zombie."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


@dataclass
class Held:
    pid: int
    pidfd: int | None


def snapshot(root_pid: int, include_root: bool = True) -> list[Held]:
    """The process tree under root_pid, each process held by a pidfd where the kernel has them."""
    try:
        root = psutil.Process(root_pid)
        processes = ([root] if include_root else []) + root.children(recursive=True)
    except psutil.Error:
        return []
    held = []
    for process in processes:
        try:
            pidfd = os.pidfd_open(process.pid)
        except (OSError, AttributeError):
            pidfd = None
        try:
            # The pid may have been recycled between listing and opening: check it is the same.
            if pidfd is not None and psutil.Process(process.pid).create_time() != process.create_time():
                os.close(pidfd)
                continue
        except psutil.Error:
            if pidfd is not None:
                os.close(pidfd)
            continue
        held.append(Held(process.pid, pidfd))
    return held


def adopted_commands() -> list[Held]:
    """Shell commands that re-parented to us (the subreaper) from a worker that died before it
    could name them, each with its tree. A shell's command runs in a session of its own, so a
    child of ours outside our session is one: the workers' forkserver and the resource tracker
    share our session, and everything else a worker starts stays under that worker."""
    mine = os.getsid(0)
    held = []
    try:
        children = psutil.Process().children()
    except psutil.Error:
        return held
    for child in children:
        try:
            if os.getsid(child.pid) != mine:
                held += frozen_snapshot(child.pid)
        except OSError:
            continue  # gone meanwhile
    return held


# Groups stopped for a snapshot and not yet killed. A supervisor that ends in between (a
# SIGTERM while a dead worker's command is being held) kills them on its way out
# (`kill_stopped_groups`, from Pool.close): a stopped group outlives everything, orphaned to
# init, and nothing ever kills it.
_stopped_groups: set[int] = set()
_stopped_lock = threading.Lock()


def frozen_snapshot(leader: int) -> list[Held]:
    """The tree under a process group's leader, taken with the group stopped (SIGSTOP), so a
    shell between two commands cannot start one more after the snapshot and before the kill:
    that one would be in no snapshot, and, once its shell is killed, nobody's to reap. Use
    only on a group that is about to be killed (kill_and_reap with its pgid)."""
    with _stopped_lock:
        _stopped_groups.add(leader)
    kill_group(leader, signal.SIGSTOP)
    return snapshot(leader)


def kill_stopped_groups() -> None:
    """SIGKILL every group stopped for a snapshot and not killed since: the last thing done
    before the supervisor exits."""
    with _stopped_lock:
        groups = list(_stopped_groups)
        _stopped_groups.clear()
    for pgid in groups:
        kill_group(pgid)


def signal_held(held: list[Held], signum: int) -> None:
    for process in held:
        try:
            if process.pidfd is not None:
                signal.pidfd_send_signal(process.pidfd, signum)
            else:
                os.kill(process.pid, signum)
        except (ProcessLookupError, PermissionError, OSError):
            pass


def kill_group(pgid: int | None, signum: int = signal.SIGKILL) -> None:
    if pgid:
        try:
            os.killpg(pgid, signum)
        except (ProcessLookupError, PermissionError, OSError):
            pass


def release(held: list[Held]) -> None:
    for process in held:
        if process.pidfd is not None:
            try:
                os.close(process.pidfd)
            except OSError:
                pass
            process.pidfd = None


def kill_and_reap(held: list[Held], pgids: tuple[int, ...] = ()) -> None:
    """SIGKILL the groups and every held process, then reap the ones that are our children (the
    orphans that re-parented to us) in the background; the pidfds are closed once reaped."""
    for pgid in pgids:
        kill_group(pgid)
    signal_held(held, signal.SIGKILL)
    with _stopped_lock:  # killed now: as groups, or by their leaders' pidfds
        _stopped_groups.difference_update({*pgids, *(process.pid for process in held)})
    threading.Thread(target=_reap_owned, args=(held, pgids), daemon=True,
                     name="reaper").start()


def _reap_owned(held: list[Held], pgids: tuple[int, ...] = ()) -> None:
    """Wait for each held process to be gone, reaping those that re-parented to us; then for
    the killed groups to be empty, reaping what of them is ours.

    A killed process whose parent is still alive is that parent's to reap; but its parent may be
    a worker we are killing too, and then it re-parents to us a moment later (we are a child
    subreaper). So a zombie that is not ours is watched until it is reaped or becomes ours."""
    deadline = time.monotonic() + REAP_BOUND
    _reap_held(held, deadline)
    for pgid in pgids:
        _reap_group(pgid, deadline)


def _reap_group(pgid: int, deadline: float) -> None:
    """Reap the members of a killed group that are our zombies until none is left. A shell's
    subshell forked as its group was killed can be in no snapshot, yet it dies with the group
    and re-parents to us: under load, one in a few hundred kills left such a zombie behind."""
    me = os.getpid()
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError, OSError):
            return  # nobody is left in the group, not even a zombie
        try:
            children = psutil.Process(me).children()
        except psutil.Error:
            return
        for child in children:
            try:
                if os.getpgid(child.pid) == pgid:
                    _state(child.pid, me)  # reaps it if it is our zombie
            except OSError:
                continue  # gone meanwhile
        time.sleep(0.02)


def _reap_held(held: list[Held], deadline: float) -> None:
    pending = list(held)
    me = os.getpid()
    while pending and time.monotonic() < deadline:
        running = []
        waiting_on_others = []
        for process in pending:
            state = _state(process.pid, me)
            if state == "running":
                running.append(process)
            elif state == "zombie-of-another":
                waiting_on_others.append(process)
        pending = running + waiting_on_others
        if not pending:
            break
        fds = [process.pidfd for process in running if process.pidfd is not None]
        if running and len(fds) == len(running) and not waiting_on_others:
            # pidfds become readable when the process exits: no polling while they run. poll,
            # not select.select, which fails on descriptors past 1023 (a busy supervisor's).
            poller = select.poll()
            for fd in fds:
                poller.register(fd, select.POLLIN)
            poller.poll(max(0.0, deadline - time.monotonic()) * 1000)
        else:
            time.sleep(0.02)  # re-parenting is not something a descriptor tells us about
    release(held)


def _state(pid: int, me: int) -> str:
    """"gone" (no such process, or reaped now), "zombie-of-another", or "running"."""
    try:
        process = psutil.Process(pid)
        parent = process.ppid()
        status = process.status()
    except psutil.Error:
        return "gone"
    if status != psutil.STATUS_ZOMBIE:
        return "running"
    if parent != me:
        return "zombie-of-another"
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return "gone"
    return "gone" if reaped else "zombie-of-another"


def all_gone(pids: list[int]) -> bool:
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                return False
        except psutil.NoSuchProcess:
            continue
    return True
