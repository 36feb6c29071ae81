"""`rendervisor watch FOLDER [--workers N] [--once]`: the shared-folder render farm.

Every project (`*.rvproj`) in FOLDER or one folder down whose render queue has items is rendered
once, by whichever node claims it first (supervisor/claims.py), however many nodes watch the
folder. Beside each project a status file, `NAME.rvproj.status.json`, says what happened:

    {"state": "rendering" | "done" | "failed" | "stopped", "host", "pid", "started",
     "finished", "project": {"mtimeNs", "size"}, "items": [{item, status, output, error?}],
     "error"?}

A project is rendered again only when it changes (its modification time or size differ from
the status file's `project`) or its last render was stopped; "done" and "failed" are final for
that version of the file, so a broken project is reported once, not retried forever.

    scan ─► for each candidate: claim (O_EXCL) ─► status still says "to do"? ─► render ─► status
      └── --once: one scan, then exit;  otherwise: wait POLL_INTERVAL, or a signal, and scan again

SIGINT or SIGTERM stops the render in progress (its partial outputs removed, its status
"stopped", its claim released) and exits 130.
"""

from __future__ import annotations

import glob
import json
import os
import socket
import sys
import threading
import time

from supervisor.claims import Claim, try_claim
from supervisor.cli import UsageError
from supervisor.engine import CommandError
from supervisor.project_file import ProjectFileError, write_atomically
from supervisor.render_cli import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, on_signals,
                                   render_queue, start_pool)

# Seconds between scans of the folder. A dropped project waits at most this long; each scan
# lists two folder levels and reads small files, cheap even on a network share.
POLL_INTERVAL = 3.0
STATUS_SUFFIX = ".status.json"
FINAL_STATES = ("done", "failed")


def status_path(project: str) -> str:
    return project + STATUS_SUFFIX


def candidates(folder: str) -> list[str]:
    """Projects in the folder and one level down, in a stable order; hidden files left out
    (an editor's or a copy's temporary)."""
    found = glob.glob(os.path.join(glob.escape(folder), "*.rvproj")) + \
        glob.glob(os.path.join(glob.escape(folder), "*", "*.rvproj"))
    return sorted(path for path in found if not os.path.basename(path).startswith("."))


def version(project: str) -> dict | None:
    try:
        info = os.stat(project)
    except FileNotFoundError:
        return None
    return {"mtimeNs": info.st_mtime_ns, "size": info.st_size}


def read_status(project: str) -> dict:
    try:
        with open(status_path(project), encoding="utf-8") as handle:
            status = json.load(handle)
        return status if isinstance(status, dict) else {}
    except (OSError, ValueError):
        return {}


def to_do(project: str) -> bool:
    """Whether this version of the project still needs a render: it has queue items (an
    unreadable file counts, so its error is reported) and no final status."""
    current = version(project)
    if current is None:
        return False
    status = read_status(project)
    if status.get("state") in FINAL_STATES and status.get("project") == current:
        return False
    try:
        with open(project, encoding="utf-8") as handle:
            queue = json.load(handle).get("renderQueue")
        return bool(queue) or not isinstance(queue, list)
    except (OSError, ValueError, AttributeError):
        return True


class Watcher:
    def __init__(self, folder: str, pool, out=sys.stdout) -> None:
        self.folder = folder
        self.pool = pool
        self.out = out
        self.stopping = threading.Event()
        self.failed = 0
        self._ctx = None
        self._lock = threading.Lock()

    def interrupt(self) -> None:
        self.stopping.set()
        with self._lock:
            ctx = self._ctx
        if ctx is not None:
            ctx.cancel()

    def scan(self) -> None:
        for project in candidates(self.folder):
            if self.stopping.is_set():
                return
            if to_do(project):
                claim = try_claim(project)
                if claim is not None:
                    try:
                        self.render_claimed(project, claim)
                    finally:
                        claim.release()

    def render_claimed(self, project: str, claim: Claim) -> None:
        # Checked again under the claim: another node may have finished it since our scan.
        if not to_do(project):
            return
        from supervisor.engine import Engine
        from supervisor.tools.registry import CallContext, Cancelled
        status = {"state": "rendering", "host": socket.gethostname(), "pid": os.getpid(),
                  "started": time.time(), "project": version(project)}
        self.write_status(project, status)
        self.say(f"rendering {project}")
        with claim.refreshing():
            try:
                engine = Engine(project)
                requeue(engine)
                ctx = CallContext(session=None)
                with self._lock:
                    self._ctx = ctx
                if self.stopping.is_set():
                    ctx.cancel()
                report = render_queue(engine, self.pool, ctx)
                if ctx.cancelled.is_set():
                    raise Cancelled()
                status["items"] = report["items"]
                status["state"] = "failed" if report["failed"] else "done"
            except Cancelled:
                status["state"] = "stopped"
            except CommandError as error:  # unreadable project, outputs that clash
                status["state"], status["error"] = "failed", str(error)
            finally:
                with self._lock:
                    self._ctx = None
        status["finished"] = time.time()
        self.write_status(project, status)
        if status["state"] == "failed":
            self.failed += 1
        self.say(f"{status['state']} {project}" + (f": {status['error']}"
                                                   if "error" in status else ""))

    def write_status(self, project: str, status: dict) -> None:
        try:
            write_atomically(status_path(project), json.dumps(status, indent=2) + "\n")
        except ProjectFileError as error:
            self.say(f"rendervisor watch: {error}")

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)


def requeue(engine) -> None:
    """Queue every item again: a status saved in the project is an earlier session's memory."""
    for item in list(engine.doc["renderQueue"]):
        engine.run("renderQueue.set", {"item": item["id"]})


def run(args) -> int:
    folder = os.path.abspath(args.folder)
    if not os.path.isdir(folder):
        raise UsageError(f"rendervisor watch: {args.folder} is not a folder; give the folder "
                         "that projects are dropped into.")
    pool = start_pool(args.workers)  # before any thread: see render_cli.start_pool
    watcher = Watcher(folder, pool)
    on_signals(watcher.interrupt)
    try:
        while not watcher.stopping.is_set():
            watcher.scan()
            if args.once:
                break
            watcher.stopping.wait(POLL_INTERVAL)  # a signal wakes it at once
    finally:
        pool.close()
    if watcher.stopping.is_set():
        return EXIT_INTERRUPTED
    return EXIT_FAILED if watcher.failed else EXIT_OK
