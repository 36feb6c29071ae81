"""`rendervisor watch FOLDER [--workers N] [--once] [--poll S] [--stale S]`: the shared-folder
render farm.

Every project (`*.rvproj`) in FOLDER or one folder down whose render queue has items is rendered
once, by whichever node claims it first (supervisor/cli/claims.py), however many nodes watch the
folder. Beside each project a status file, `NAME.rvproj.status.json`, says what happened:

    {"state": "rendering" | "done" | "failed" | "stopped", "host", "pid", "started",
     "finished", "project": {"mtimeNs", "size"}, "items": [{item, status, output, error?}],
     "error"?, "clashesWith"?}

A project is rendered again only when it changes (its modification time or size differ from
the status file's `project`) or its last render was stopped; "done" and "failed" are final for
that version of the file, so a broken project is reported once, not retried forever. A failure
for an output clash (`clashesWith`) is looked at again every pass: it ends when the other
project changes, not only this one.

    scan: every project to do, opened, its output files named (supervisor/cli/watch_clashes.py)
      ─► for each: claim (O_EXCL) ─► status still "to do"? ─► render, or refuse ─► status
      └── --once: one pass, then exit;  otherwise: wait --poll seconds, or a signal, and scan

A pass that finds nothing to do says so in one line (`idle: nothing to render in FOLDER`), once
until the node has worked again, so an operator tailing a node's log sees it is alive without a
line every few seconds.

Projects, status and claim files are opened only when they are regular files, and without waiting
(supervisor/confinement/checked_files.py): a FIFO named like a project is one failed project, never
a node stuck in open() past SIGTERM. SIGINT or SIGTERM stops the render in progress (its partial
outputs removed, its status "stopped", its claim released) and exits 130.
"""

from __future__ import annotations

import glob
import json
import os
import socket
import sys
import time
from dataclasses import dataclass, field

from protocol.cancel import Cancel, Cancelled
from protocol.model.limits import MAX_DOCUMENT_BYTES
from supervisor.confinement.checked_files import read_small_file
from supervisor.cli.claims import STALE_AFTER, Claim, try_claim
from supervisor.errors import UsageError
from supervisor.engine.engine import Engine
from supervisor.engine.probes import Probes
from supervisor.errors import CommandError
from supervisor.engine.project_file import ProjectFileError, write_atomically
from supervisor.cli.render import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, on_signals,
                                   render_queue, start_pool)
from supervisor.cli.watch_clashes import ProjectClash, find_clashes, project_files
from supervisor.work import Work

STATUS_SUFFIX = ".status.json"
FINAL_STATES = ("done", "failed")


# A status file holds a render's report: a few hundred bytes an item, and a project has at most
# MAX_DOCUMENT_BYTES of items, so a longer one was not written by a watch node.
MAX_STATUS_BYTES = MAX_DOCUMENT_BYTES


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
    """The status file's record; `{}` when it is missing, unreadable, not a regular file, past
    MAX_STATUS_BYTES or nested past what JSON's parser follows (a file planted in the shared
    folder is refused, never parsed at length)."""
    try:
        status = json.loads(read_small_file(status_path(project), MAX_STATUS_BYTES))
        return status if isinstance(status, dict) else {}
    except (OSError, ValueError, RecursionError):
        return {}


def to_do(project: str, current: dict) -> bool:
    """Whether the status file leaves this version of the project to render: no final state
    recorded for it, or a failure for a clash, which only a pass can judge again."""
    status = read_status(project)
    return (status.get("state") not in FINAL_STATES or status.get("project") != current
            or "clashesWith" in status)


@dataclass
class Pending:
    """A project this pass would render, opened before any project of the pass renders."""
    project: str
    version: dict
    engine: Engine | None = None  # None: it could not be opened, for `error`
    error: str | None = None
    files: set[str] = field(default_factory=set)


def opened(project: str, current: dict, pool=None) -> Pending | None:
    """The project opened with every item queued again (its files read on `pool`'s probe
    workers), and the files it would write; None when its queue is empty (nothing to render,
    nothing to report)."""
    try:
        engine = Engine(project, probes=Probes(pool))
    except CommandError as error:  # unreadable, not a project, a FIFO: reported when claimed
        return Pending(project, current, error=str(error))
    if not engine.doc["renderQueue"]:
        return None
    requeue(engine)
    return Pending(project, current, engine, files=project_files(engine.doc))


class Watcher:
    def __init__(self, folder: str, pool, out=sys.stdout,
                 stale_after: float = STALE_AFTER) -> None:
        self.folder = folder
        self.pool = pool
        self.out = out
        self.stale_after = stale_after  # another node's claim untouched this long is taken over
        self.worked = 0  # projects rendered or refused: a pass that adds none was idle
        # The node's scope: SIGINT or SIGTERM cancels it, and with it the project rendering.
        self.cancel = Cancel()
        self.failed = 0

    def interrupt(self) -> None:
        self.cancel.cancel()

    def scan(self) -> None:
        pending = self.pending()
        clashes = find_clashes({entry.project: entry.files for entry in pending
                                if entry.engine is not None})
        for entry in pending:
            if self.cancel.cancelled:
                return
            clash = clashes.get(entry.project)
            if clash is not None and already_refused(entry, clash):
                continue  # reported in an earlier pass, still the same: nothing new to say
            claim = try_claim(entry.project, self.stale_after)
            if claim is None:
                continue
            try:
                # Checked again under the claim: another node may have finished it since our
                # scan, or the file changed (then the next pass opens the new version).
                if version(entry.project) == entry.version and \
                        to_do(entry.project, entry.version):
                    if clash is not None:
                        self.refuse(entry, clash.message, clashes_with=clash.other(
                            entry.project))
                    elif entry.error is not None:
                        self.refuse(entry, entry.error)
                    else:
                        self.render_claimed(entry, claim)
            finally:
                claim.release()

    def pending(self) -> list[Pending]:
        found = []
        for project in candidates(self.folder):
            if self.cancel.cancelled:
                break
            current = version(project)
            if current is not None and to_do(project, current):
                entry = opened(project, current, self.pool)
                if entry is not None:
                    found.append(entry)
        return found

    def idle_pass(self, worked_before: int) -> bool:
        """Whether the pass since `worked_before` found nothing to render or refuse."""
        return self.worked == worked_before and not self.cancel.cancelled

    def refuse(self, entry: Pending, error: str, clashes_with: str | None = None) -> None:
        """Record a project that is not rendered: one line, and a failed status."""
        now = time.time()
        status = {**self.new_status(entry, now), "state": "failed", "finished": now,
                  "error": error}
        if clashes_with is not None:
            status["clashesWith"] = clashes_with
        self.finish(entry.project, status)

    def render_claimed(self, entry: Pending, claim: Claim) -> None:
        project = entry.project
        status = self.new_status(entry, time.time())
        self.write_status(project, status)
        self.say(f"rendering {project}")
        with claim.refreshing():
            work = Work(cancel=self.cancel.child())
            try:
                report = render_queue(entry.engine, self.pool, work)
                work.cancel.check()  # the signal came as the last item finished
                status["items"] = report["items"]
                status["state"] = "failed" if report["failed"] else "done"
            except Cancelled:
                status["state"] = "stopped"
            except CommandError as error:  # outputs that clash within the project
                status["state"], status["error"] = "failed", str(error)
            finally:
                work.cancel.close()
        status["finished"] = time.time()
        self.finish(project, status)

    def new_status(self, entry: Pending, started: float) -> dict:
        return {"state": "rendering", "host": socket.gethostname(), "pid": os.getpid(),
                "started": started, "project": entry.version}

    def finish(self, project: str, status: dict) -> None:
        self.worked += 1
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


def already_refused(entry: Pending, clash: ProjectClash) -> bool:
    """Whether the status file records this very refusal for this version of the project."""
    status = read_status(entry.project)
    return status.get("project") == entry.version and status.get("error") == clash.message


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
    watcher = Watcher(folder, pool, stale_after=args.stale)
    on_signals(watcher.interrupt)
    said_idle = False
    idle_line = f"idle: nothing to render in {folder}" + (
        "" if args.once else f"; looking again every {args.poll:g} s")
    try:
        while not watcher.cancel.cancelled:
            worked_before = watcher.worked
            watcher.scan()
            if not watcher.idle_pass(worked_before):
                said_idle = False
            elif not said_idle:
                watcher.say(idle_line)
                said_idle = True
            if args.once:
                break
            watcher.cancel.wait(args.poll)  # a signal wakes it at once
    finally:
        pool.close()
    if watcher.cancel.cancelled:
        return EXIT_INTERRUPTED
    return EXIT_FAILED if watcher.failed else EXIT_OK
