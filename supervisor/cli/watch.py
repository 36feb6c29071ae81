"""`rendervisor watch FOLDER [--workers N] [--once] [--poll S] [--stale S] [--settle S] [--json]
[--log FILE]`: the shared-folder render farm, a node an operator can leave running.

Every project (`*.rvproj`) in FOLDER or one folder down whose render queue has items is rendered
once, by whichever node claims it first (supervisor/cli/claims.py), however many nodes watch the
folder. Beside each project a status file, `NAME.rvproj.status.json`, says what happened:

    {"state": "rendering" | "done" | "failed" | "stopped", "host", "pid", "started",
     "finished", "project": {"mtimeNs", "size"}, "items": [{item, status, output, error?}],
     "error"?, "clashesWith"?, "missing"?}

A project is rendered again only when it changes (its modification time or size differ from
the status file's `project`) or its last render was stopped; "done" and "failed" are final for
that version of the file, so a broken project is reported once, not retried forever. Two
failures are looked at again every pass, because what ends them is not the project changing:
an output clash (`clashesWith`: ends when the other project changes) and missing inputs
(`missing`: the files the project needs that this node could not read; it renders as soon as
one of them is back, and is refused again, naming what is still gone, if that was not all).

    scan: the folders listed; each project to do that has settled, opened, its inputs checked,
          its output files named (supervisor/cli/watch_clashes.py)
      ─► for each: claim (O_EXCL) ─► status still "to do"? ─► render, or refuse ─► status
      └── --once: one pass (and more while projects settle), then exit;
          otherwise: wait --poll seconds, or a signal, and scan

A node keeps serving whatever one project does. A project that cannot be claimed, read or have
its status written (a folder made read-only or immutable, a file it may not read, a full disk)
is skipped with one line naming it and why, said again only when the reason changes, and tried
again every pass; a subfolder that cannot be listed is said the same way. A project whose size
or modification time changed within the settle time (`--settle`, SETTLE_TIME) is still being
copied in: it is left until it settles, so a half-copied file is never reported broken.

A pass that finds nothing to do says so in one line (`idle: nothing to render in FOLDER`), once
until the node has worked again, so an operator tailing a node's log sees it is alive without a
line every few seconds. Lines carry the local ISO time; `--json` makes them JSON events
(supervisor/cli/watch_events.py).

Projects, status and claim files are opened only when they are regular files, and without waiting
(supervisor/confinement/checked_files.py): a FIFO named like a project is one failed project, never
a node stuck in open() past SIGTERM. SIGINT or SIGTERM stops the render in progress (its partial
outputs removed, its status "stopped", its claim released) and exits 130.
"""

from __future__ import annotations

import json
import os
import socket
import time
from dataclasses import dataclass, field

from protocol.cancel import Cancel, Cancelled
from protocol.model.limits import MAX_DOCUMENT_BYTES
from supervisor.confinement.checked_files import NotRegularFile, open_regular, read_small_file
from supervisor.cli.claims import SETTLE_TIME, STALE_AFTER, Claim, claim_path, try_claim
from supervisor.cli.watch_events import WatchEvents
from supervisor.errors import UsageError
from supervisor.engine.engine import Engine
from supervisor.engine.input_files import missing_inputs, unreadable
from supervisor.engine.probes import Probes
from supervisor.errors import CommandError
from supervisor.engine.project_file import ProjectFileError, write_atomically
from supervisor.cli.render import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, on_signals,
                                   render_queue, start_pool)
from supervisor.cli.watch_clashes import ProjectClash, find_clashes, project_files
from supervisor.work import Work

STATUS_SUFFIX = ".status.json"
FINAL_STATES = ("done", "failed")
# `--once` waits for projects still settling, but not for ever: one rewritten again and again
# is left for the next run after this many settle times.
ONCE_SETTLE_PATIENCE = 10


# A status file holds a render's report: a few hundred bytes an item, and a project has at most
# MAX_DOCUMENT_BYTES of items, so a longer one was not written by a watch node.
MAX_STATUS_BYTES = MAX_DOCUMENT_BYTES


def status_path(project: str) -> str:
    return project + STATUS_SUFFIX


def candidates(folder: str) -> tuple[list[str], dict[str, str]]:
    """(projects in the folder and one level down, in a stable order, hidden files left out (an
    editor's or a copy's temporary); subfolder -> why it could not be listed)."""
    found: list[str] = []
    unlisted: dict[str, str] = {}
    for entry in _entries(folder, unlisted):
        if entry.name.startswith("."):
            continue
        if entry.name.endswith(".rvproj"):
            found.append(entry.path)
        elif _is_folder(entry):
            found.extend(sub.path for sub in _entries(entry.path, unlisted)
                         if sub.name.endswith(".rvproj") and not sub.name.startswith("."))
    return sorted(found), unlisted


def _entries(folder: str, unlisted: dict[str, str]) -> list:
    try:
        with os.scandir(folder) as listing:
            return list(listing)
    except OSError as error:
        unlisted[folder] = f"cannot list it ({error.strerror or error})"
        return []


def _is_folder(entry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def version(project: str) -> dict | None:
    try:
        info = os.stat(project)
    except OSError:
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
    recorded for it, a failure for a clash, which only a pass can judge again, or one for
    missing inputs of which one is back."""
    status = read_status(project)
    if status.get("state") not in FINAL_STATES or status.get("project") != current:
        return True
    if "clashesWith" in status:
        return True
    missing = status.get("missing")
    return isinstance(missing, list) and any(
        isinstance(path, str) and unreadable(path) is None for path in missing)


@dataclass
class Pending:
    """A project this pass would render, opened before any project of the pass renders."""
    project: str
    version: dict
    engine: Engine | None = None  # None: it could not be opened, for `error`
    error: str | None = None
    files: set[str] = field(default_factory=set)
    missing: list[str] = field(default_factory=list)  # its inputs this node cannot read


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
    entry = Pending(project, current, engine, files=project_files(engine.doc))
    comps = [item["comp"] for item in engine.doc["renderQueue"]]
    problems = missing_inputs(engine.doc, comps)
    if problems:
        entry.missing = [problem.path for problem in problems]
        entry.error = (f"its inputs are missing or cannot be read: "
                       f"{'; '.join(map(str, problems))}; put "
                       "them back (it renders as soon as they are) or point the project at "
                       "them.")
    return entry


def cannot_read(project: str) -> str | None:
    """Why this node may not read the project now (a permission, an I/O error): a reason to
    skip it and try again; None when it can, or when opening it says what it is (a FIFO, a
    folder, gone), which the project's open reports."""
    try:
        os.close(open_regular(project))
    except (NotRegularFile, FileNotFoundError):
        return None
    except OSError as error:
        return f"cannot read it ({error.strerror or error})"
    return None


class Watcher:
    def __init__(self, folder: str, pool, events: WatchEvents | None = None,
                 stale_after: float = STALE_AFTER, settle: float = SETTLE_TIME,
                 once: bool = False) -> None:
        self.folder = folder
        self.pool = pool
        self.events = events or WatchEvents()
        self.stale_after = stale_after  # another node's claim untouched this long is taken over
        self.settle = settle
        self.worked = 0  # projects rendered or refused: a pass that adds none was idle
        # The node's scope: SIGINT or SIGTERM cancels it, and with it the project rendering.
        self.cancel = Cancel()
        self.failed = 0
        # project -> (its version, time.monotonic() when this node first saw that version)
        self.seen: dict[str, tuple[dict, float]] = {}
        self.settling: set[str] = set()  # projects the last pass left to settle
        self.skipped: dict[str, str] = {}  # project or folder -> the reason last said
        self.again = "it is tried again by the next run" if once else \
            "it is tried again every pass"

    def interrupt(self) -> None:
        self.cancel.cancel()

    def scan(self) -> None:
        pending = self.pending()
        clashes = find_clashes({entry.project: entry.files for entry in pending
                                if entry.engine is not None and not entry.missing})
        for entry in pending:
            if self.cancel.cancelled:
                return
            clash = clashes.get(entry.project)
            if clash is not None and already_refused(entry, clash):
                continue  # reported in an earlier pass, still the same: nothing new to say
            try:
                claim = try_claim(entry.project, self.stale_after)
            except OSError as error:  # a folder made read-only or immutable, a full disk
                self.skip(entry.project, f"cannot claim it: cannot create "
                                         f"{claim_path(entry.project)} "
                                         f"({error.strerror or error})")
                continue
            if claim is None:
                continue
            try:
                # Checked again under the claim: another node may have finished it since our
                # scan, or the file changed (then the next pass opens the new version).
                if version(entry.project) == entry.version and \
                        to_do(entry.project, entry.version):
                    self.settled_with(entry, claim, clash)
            finally:
                claim.release()

    def settled_with(self, entry: Pending, claim: Claim, clash: ProjectClash | None) -> None:
        """Render or refuse a claimed project."""
        if clash is not None:
            self.refuse(entry, clash.message, clashesWith=clash.other(entry.project))
        elif entry.error is not None and entry.missing:
            self.refuse(entry, entry.error, missing=entry.missing)
        elif entry.error is not None:
            self.refuse(entry, entry.error)
        else:
            self.render_claimed(entry, claim)

    def pending(self) -> list[Pending]:
        found = []
        projects, unlisted = candidates(self.folder)
        for folder, reason in unlisted.items():
            self.skip(folder, reason)
        self.settling = set()
        for project in projects:
            if self.cancel.cancelled:
                break
            current = version(project)
            if current is None or not to_do(project, current):
                continue
            if not self.has_settled(project, current):
                self.settling.add(project)
                continue
            reason = cannot_read(project)
            if reason is not None:
                self.skip(project, reason)
                continue
            entry = opened(project, current, self.pool)
            if entry is not None:
                found.append(entry)
        return found

    def has_settled(self, project: str, current: dict) -> bool:
        """Whether this version of the project has stood for the settle time: by this node's
        clock since it first saw it, or by its modification time (a project that was there
        before the node started need not wait)."""
        now = time.monotonic()
        seen = self.seen.get(project)
        if seen is None or seen[0] != current:
            seen = self.seen[project] = (current, now)
        age = max(now - seen[1], time.time() - current["mtimeNs"] / 1e9)
        return age >= self.settle

    def idle_pass(self, worked_before: int) -> bool:
        """Whether the pass since `worked_before` found nothing to render or refuse."""
        return self.worked == worked_before and not self.cancel.cancelled

    def skip(self, project: str, reason: str) -> None:
        """One line for a project (or folder) left for a later pass, unless it said this."""
        if self.skipped.get(project) == reason:
            return
        self.skipped[project] = reason
        self.events.project("skipped", project, f"{reason}; {self.again}")

    def refuse(self, entry: Pending, error: str, **fields) -> None:
        """Record a project that is not rendered: one line, and a failed status."""
        now = time.time()
        status = {**self.new_status(entry, now), "state": "failed", "finished": now,
                  "error": error, **fields}
        self.finish(entry.project, status)

    def render_claimed(self, entry: Pending, claim: Claim) -> None:
        project = entry.project
        status = self.new_status(entry, time.time())
        problem = self.write_status(project, status)
        if problem is not None:  # a status nobody could read: render it when one can be
            self.skip(project, problem)
            return
        self.skipped.pop(project, None)
        self.events.project("rendering", project)
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
        self.skipped.pop(project, None)
        problem = self.write_status(project, status)
        if status["state"] == "failed":
            self.failed += 1
        fields = {key: status[key] for key in ("items", "missing", "clashesWith")
                  if key in status}
        message = status.get("error")
        if problem is not None:
            message = f"{message}; {problem}" if message else problem
        self.events.project(status["state"], project, message, **fields)

    def write_status(self, project: str, status: dict) -> str | None:
        """None once written, else why not (a sentence)."""
        try:
            write_atomically(status_path(project), json.dumps(status, indent=2) + "\n")
        except ProjectFileError as error:
            return f"its status file could not be written: {error}"
        except OSError as error:
            return (f"its status file could not be written ({error.strerror or error}: "
                    f"{status_path(project)})")
        return None


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
    events = WatchEvents(args.json, args.log)
    pool = start_pool(args.workers)  # before any thread: see render_cli.start_pool
    watcher = Watcher(folder, pool, events, stale_after=args.stale, settle=args.settle,
                      once=args.once)
    on_signals(watcher.interrupt)
    said_idle = False
    idle_line = f"idle: nothing to render in {folder}" + (
        "" if args.once else f"; looking again every {args.poll:g} s")
    settle_waits = 0
    try:
        while not watcher.cancel.cancelled:
            worked_before = watcher.worked
            watcher.scan()
            if not watcher.idle_pass(worked_before):
                said_idle = False
            elif not said_idle and not watcher.settling:
                events.idle(folder, idle_line)
                said_idle = True
            if args.once:
                if not watcher.settling:
                    break
                if settle_waits >= ONCE_SETTLE_PATIENCE:
                    for project in sorted(watcher.settling):
                        watcher.skip(project, "it is still being written (its size or "
                                              "modification time keeps changing)")
                    break
                settle_waits += 1  # what is still being copied in is part of "now"
                watcher.cancel.wait(min(args.settle, args.poll))
                continue
            watcher.cancel.wait(args.poll)  # a signal wakes it at once
    finally:
        pool.close()
        events.close()
    if watcher.cancel.cancelled:
        return EXIT_INTERRUPTED
    # A project --once had to skip was not rendered: an operator's script must not take the
    # run for a success.
    return EXIT_FAILED if watcher.failed or (args.once and watcher.skipped) else EXIT_OK
