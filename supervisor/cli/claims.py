"""Claim files: how several `rendervisor watch` nodes on one shared folder agree that exactly one
of them renders a project.

A node claims `show.rvproj` by creating `show.rvproj.claim` with O_CREAT | O_EXCL: the file
system lets exactly one creator succeed, on one machine or over NFS v3+ and SMB alike. The
claim holds the node's host, pid, the process's start time and a random token. While the node
renders it touches the claim every REFRESH_INTERVAL, so the claim's age is "time since the
node was last alive", not the length of the render.

A claim is stale, and may be taken over, when
- its host is this host and its process is gone (the pid is not running, or is running but
  started at another time: a recycled pid), or
- it has not been touched for STALE_AFTER (its node crashed, lost power or the network; from
  another host a pid cannot be checked).

Taking over must not let two nodes replace the same stale claim one after the other (each
would believe it won). So a takeover first creates `show.rvproj.claim.takeover` with O_EXCL;
only its holder re-reads the claim, checks it is still the stale one, and replaces it
atomically (a temporary, then rename). A takeover file left by a node that died in those few
milliseconds is itself removed once older than TAKEOVER_STALE_AFTER.

A claim is read only if it is a regular file, without waiting (checked_files.read_small_file):
a FIFO at the claim's name reads as an unreadable claim, judged by its age like any other.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import threading
import time
from dataclasses import dataclass

import psutil

from supervisor.confinement.checked_files import read_small_file

CLAIM_SUFFIX = ".claim"
# Seconds between a node's scans of the folder (watch --poll's default). A dropped project, or
# one whose claim was released, waits at most this long; each scan lists two folder levels and
# reads small files, cheap even on a network share.
POLL_INTERVAL = 3.0
# A project whose size or modification time changed within this many seconds is still being
# written (a copy into the folder, an editor saving) and waits (watch --settle's default).
# Longer is safer over a slow share whose copies stall between writes; shorter starts a
# dropped project sooner.
SETTLE_TIME = 2.0
# A live node refreshes its claim this often; a claim untouched for STALE_AFTER is taken over.
# The gap tolerates a busy file server or a paused VM for minutes before a second node starts
# the same project; lowering it lets a crashed node's project restart sooner.
REFRESH_INTERVAL = 15.0
STALE_AFTER = 300.0  # the default of `watch --stale`; every node of one folder should agree
# A claim is refreshed at least this many times within its stale limit, so a short --stale
# never lets a live node's claim look stale between two refreshes.
REFRESHES_PER_STALE = 4
TAKEOVER_STALE_AFTER = 30.0
# A claim is a line of JSON; anything longer is not one of ours and is not read whole.
MAX_CLAIM_BYTES = 64 * 1024


def claim_path(project: str) -> str:
    return project + CLAIM_SUFFIX


def this_process() -> dict:
    return {"host": socket.gethostname(), "pid": os.getpid(),
            "pidStarted": psutil.Process().create_time(), "token": secrets.token_hex(8),
            "claimed": time.time()}


@dataclass
class Claim:
    """A claim this node holds; `release` removes it, `refreshing` keeps it fresh."""
    path: str
    owner: dict
    refresh_every: float = REFRESH_INTERVAL

    def touch(self) -> None:
        try:
            os.utime(self.path)
        except OSError:
            pass  # removed under us (an operator cleaning up): the render goes on regardless

    def release(self) -> None:
        """Remove the claim if it is still ours (a node that took it over keeps its own)."""
        if read_claim(self.path).get("token") == self.owner["token"]:
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass

    def refreshing(self) -> "Refresher":
        return Refresher(self)


class Refresher:
    """Touches a claim every claim.refresh_every while a render runs (a context manager)."""

    def __init__(self, claim: Claim) -> None:
        self.claim = claim
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="claim-refresh")

    def _run(self) -> None:
        while not self._stop.wait(self.claim.refresh_every):
            self.claim.touch()

    def __enter__(self) -> "Refresher":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def read_claim(path: str) -> dict:
    """The claim's owner, `{}` when it is gone, unreadable or half-written."""
    try:
        owner = json.loads(read_small_file(path, MAX_CLAIM_BYTES))
        return owner if isinstance(owner, dict) else {}
    except (OSError, ValueError, RecursionError):  # a planted claim nested past the parser
        return {}


def is_stale(path: str, owner: dict, now: float | None = None,
             stale_after: float = STALE_AFTER) -> bool:
    now = time.time() if now is None else now
    try:
        age = now - os.stat(path).st_mtime
    except FileNotFoundError:
        return False  # gone: not stale, simply free; the next try_claim creates it
    if age > stale_after:
        return True
    if owner.get("host") != socket.gethostname():
        return False
    return not process_alive(owner.get("pid"), owner.get("pidStarted"))


def process_alive(pid, started) -> bool:
    if not isinstance(pid, int):
        return False  # a claim being written (or garbage): judged by its age alone
    try:
        process = psutil.Process(pid)
        return started is None or abs(process.create_time() - float(started)) < 1.0
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError, TypeError):
        return False


def try_claim(project: str, stale_after: float = STALE_AFTER) -> Claim | None:
    """This node's claim on `project`, or None if another live node holds it (one touched
    within `stale_after` seconds, or a live process on this host)."""
    path = claim_path(project)
    owner = this_process()
    claim = Claim(path, owner, min(REFRESH_INTERVAL, stale_after / REFRESHES_PER_STALE))
    if _create(path, owner):
        return claim
    current = read_claim(path)
    if not current and _fresh(path):
        return None  # being written by its creator this instant
    if not is_stale(path, current, stale_after=stale_after):
        return None
    return _take_over(claim, current, stale_after)


def _create(path: str, owner: dict) -> bool:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(owner, handle)
    return True


def _fresh(path: str) -> bool:
    try:
        return time.time() - os.stat(path).st_mtime < TAKEOVER_STALE_AFTER
    except FileNotFoundError:
        return False


def _take_over(claim: Claim, stale: dict, stale_after: float) -> Claim | None:
    path, owner = claim.path, claim.owner
    lock = path + ".takeover"
    if not _create(lock, owner):
        if _fresh(lock):
            return None  # another node is taking it over right now
        try:
            os.unlink(lock)  # left by a node that died mid-takeover
        except FileNotFoundError:
            pass
        if not _create(lock, owner):
            return None
    try:
        current = read_claim(path)
        if current != stale or not (is_stale(path, current, stale_after=stale_after)
                                    or not os.path.exists(path)):
            return None  # renewed, released or taken meanwhile: not ours to replace
        temporary = f"{path}.{owner['token']}.tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(owner, handle)
        os.replace(temporary, path)
        return claim
    finally:
        try:
            os.unlink(lock)
        except FileNotFoundError:
            pass
