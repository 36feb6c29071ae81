"""The worker pool: worker processes, each on a private msgpack socket, and how jobs run on them.

    lane thread (one per running tools/call)
        │  Pool.run(kind, task, payload, cancel=scope)
        ▼
    Worker ──socketpair (msgpack frames, protocol/wire/frames.py)──► worker process
        ▲   Job, CancelJob ────────────────────────────────────────►  workers/worker_main.py
        └── Ready, Progress, CommandStarted, Heartbeat, Log, Result, JobError ◄──
    the calling thread itself waits on [the socket, the worker's sentinel, its wake-up pipe,
    which the job's cancel scope writes to]: no reader thread per worker, no polling, and
    nothing shared between workers. What it sees goes to the job's lifecycle
    (supervisor/runtime/job_lifecycle.py: a state machine with no I/O, which decides); what
    that answers is done here (JobProcesses: send the cancel, hold the tree, kill).

    forkserver (started by main() while the supervisor is still single-threaded, with the worker
    modules preloaded) ── forks ──► render workers (N), the preview worker, probe workers,
                                    shell workers

The kinds and what each means here are one table, supervisor/runtime/worker_kinds.py. Work
that may use spare capacity but must never delay a kind's own jobs borrows an idle worker
(`borrow_idle`: never waits, never starts one) for one job at a time.

A job ends one of four ways: a result; a task error (the worker is fine and goes back to the
pool); a cancel (cooperative first, then the whole tree killed after TEARDOWN_GRACE), also
when a job holds a worker past its kind's deadline (the preview worker, a probe worker); or the
worker dying, wedging or running out of its memory limit (reported by name, the worker
replaced in the background). Every kind but the shell runs under a memory limit
(supervisor/runtime/worker_memory.py).
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import select
import selectors
import signal
import socket
import tempfile
import threading
import time
from collections import deque
from typing import Any, Callable

from protocol.cancel import TIMEOUT, Cancel
from protocol.wire import frames
from supervisor.errors import UsageError
from supervisor.runtime import teardown
from supervisor.runtime.job_lifecycle import (Action, Answered, BadFrame, BrokeChannel,
                                              CancelUndelivered, End, Event, FrameArrived,
                                              ForwardLog, HoldOrphans, HoldTree, JobLifecycle,
                                              KillJob, KillLeftovers, OutOfMemory, Outcome,
                                              Refused, RememberCommand, ReportProgress,
                                              RetireWorker, SendCancel, StopAsked, Stopped,
                                              TimePassed, Wedged, WorkerEnded)
from supervisor.runtime.env_settings import positive_number
from supervisor.runtime.worker_kinds import KINDS
from supervisor.runtime.worker_memory import describe_bytes, memory_limits
from workers import worker_main
from workers.tasks import TASK_MODULES

log = logging.getLogger("rendervisor.pool")

# A running job must beat at least this often (workers beat every 0.5 s). Generous, because a
# 2-core machine under a full render can starve a heartbeat thread for a while; too short a
# deadline would kill healthy renders, too long would leave a wedged one hanging the call.
WEDGE_DEADLINE = 30.0
# A new worker must say "ready" within this; the forkserver preloads the heavy modules, so a fork
# is fast, but the first fork waits for that preload.
STARTUP_DEADLINE = 60.0
# JobFailed.reason, and the cancel reason, of a job stopped by its kind's deadline (the
# preview deadline, the probe deadline: supervisor/runtime/worker_kinds.py).
DEADLINE = "deadline"
# The longest path a Unix socket may have (sun_path is 108 bytes with its NUL).
SOCKET_PATH_BYTES = 107
# The modules the forkserver preloads, so a fork is cheap: the worker loop and every module of
# tasks (one list, workers/tasks.py's, which the loop imports too).
WORKER_MODULES = ("workers.worker_main",) + TASK_MODULES


class JobFailed(Exception):
    """The job did not produce a result; the message is a sentence for a person."""

    def __init__(self, message: str, reason: str = "error") -> None:
        super().__init__(message)
        # "error", "task", "internal", "cancelled", "timeout", "deadline" (a kind's
        # deadline), "died", "wedged", frames.OUT_OF_MEMORY
        self.reason = reason


class WorkerDied(JobFailed):
    def __init__(self, message: str, reason: str = "died", how: str = "died") -> None:
        super().__init__(message, reason)
        self.how = how  # describe_exit's words: "was killed by signal 11 (SIGSEGV)"


def describe_exit(exitcode: int | None) -> str:
    if exitcode is None:
        return "stopped answering"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"was killed by signal {-exitcode} ({name})"
    return f"exited with code {exitcode}"


def stopped_reason(scope: Cancel) -> str:
    """Why a stopped job failed, as JobFailed.reason: its deadline ("timeout", or DEADLINE for
    its kind's deadline), or "cancelled" however its caller's scope was cancelled."""
    return failure_reason(scope.reason)


def failure_reason(cancel_reason: str | None) -> str:
    """A scope's cancel reason as JobFailed.reason: a deadline's own ("timeout", DEADLINE),
    else "cancelled"."""
    return cancel_reason if cancel_reason in (TIMEOUT, DEADLINE) else "cancelled"


def stop_message(reason: str | None, kind: str = "", deadline: float | None = None) -> str:
    if reason == DEADLINE:
        if deadline is None:  # a deadline its caller set (a filmstrip's frame on a render worker)
            return "the job ran past its deadline and was stopped"
        return f"the job ran past the {deadline:g} s {kind} deadline and was stopped"
    return "the job timed out and was stopped" if reason == TIMEOUT else "the job was cancelled"


class Worker:
    """One worker process and the supervisor's end of its socket."""

    _numbers = itertools.count(1)

    def __init__(self, context: multiprocessing.context.BaseContext, kind: str,
                 preload: tuple[str, ...], memory_limit: int | None = None) -> None:
        self.kind = kind
        self.number = next(self._numbers)
        self.name = f"{kind} worker {self.number}"
        self.memory_limit = memory_limit
        parent_end, child_end = socket.socketpair()
        self.process = context.Process(target=worker_main.run,
                                       args=(child_end, kind, preload, memory_limit),
                                       name=self.name, daemon=True)
        self.process.start()
        child_end.close()
        self.sock = parent_end
        self.reader = frames.FrameReader()
        self.pending: list[frames.Frame] = []
        self.pid = self.process.pid
        self.alive = True
        self.state: dict = {}  # what the supervisor knows this worker caches (its snapshot id)
        self.job_group: int | None = None  # the process group of the running shell command
        self._wake_lock = threading.Lock()
        # Kept for the worker's life: building an epoll set per job cost more than the job's
        # own round trip. A job adds its cancel pipe for its duration.
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.sock, selectors.EVENT_READ, "frames")
        self.selector.register(self.process.sentinel, selectors.EVENT_READ, "sentinel")
        # The job's cancel wakes its wait through this pipe (a scope's callback writes a byte);
        # kept for the worker's life, like the selector, so a job adds no descriptors.
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)
        self.selector.register(self.wake_read, selectors.EVENT_READ, "cancel")
        self._await_ready()

    def _await_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_DEADLINE
        while True:
            frame = self._next_frame(deadline)
            if frame is None:
                self.process.join(1.0)  # if it died, learn how: "killed by signal 9", not silence
                self.kill()
                raise WorkerDied(f"{self.name} {describe_exit(self.process.exitcode)} "
                                 "while starting", "died")
            if isinstance(frame, frames.Ready):
                return
            self._side_frame(frame)

    def _next_frame(self, deadline: float) -> frames.Frame | None:
        """The next frame, or None if the worker died or the deadline passed first."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.sock, selectors.EVENT_READ)
            while not self.pending:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    return None
                data = _receive(self.sock)
                if not data:
                    return None
                self.pending.extend(self.reader.feed(data))
        return self.pending.pop(0)

    def sound_while_idle(self) -> bool:
        """Alive, and nothing but side frames (late logs, a last heartbeat) on its socket: an
        idle worker has nothing else to say, so garbage or an end means it is broken."""
        if not self.process.is_alive():
            return False
        try:
            while _has_data(self.sock):
                data = _receive(self.sock)
                if not data:
                    return False
                for frame in self.reader.feed(data):
                    self._side_frame(frame)
        except frames.FrameError:
            return False
        return True

    def send(self, frame: frames.Frame) -> None:
        self.sock.sendall(frames.encode(frame))

    def log(self, record: dict) -> None:
        """Re-emit a log record the worker sent, in the supervisor's logging, named by worker."""
        made = logging.makeLogRecord(record)
        made.msg = f"[{self.name}] {made.msg}"
        logging.getLogger(made.name).handle(made)

    def _side_frame(self, frame: frames.Frame) -> None:
        """A frame outside any job: a log line is logged; the rest (a late heartbeat) is not
        news."""
        if isinstance(frame, frames.Log):
            self.log(frame.record)

    def kill(self) -> None:
        """SIGKILL this worker and everything under it (snapshotted first), and close our end.
        Used for retiring a healthy worker too: whatever a shell command left running must
        not outlive its worker."""
        self.alive = False
        held = teardown.snapshot(self.pid)
        teardown.kill_and_reap(held)
        try:
            self.selector.close()
            self.sock.close()
        except OSError:
            pass
        with self._wake_lock:
            for fd in (self.wake_read, self.wake_write):
                os.close(fd)
            self.wake_read = self.wake_write = -1

    def wake(self) -> None:
        """Wake the job's wait (a cancel scope's callback: quick, never blocking)."""
        # Under the lock, so a late cancel never writes to a closed, maybe reused, descriptor.
        with self._wake_lock:
            if self.wake_write >= 0:
                try:
                    os.write(self.wake_write, b"x")
                except BlockingIOError:
                    pass  # already awake: the pipe holds bytes nobody has read yet

    def drain_wake(self) -> None:
        with self._wake_lock:
            try:
                while os.read(self.wake_read, 4096):
                    pass
            except (BlockingIOError, OSError):
                pass


class Pool:
    def __init__(self, context: multiprocessing.context.BaseContext, render_workers: int,
                 teardown_grace: float = teardown.TEARDOWN_GRACE,
                 preload: tuple[str, ...] = (), wedge_deadline: float = WEDGE_DEADLINE) -> None:
        self.context = context
        self.wedge_deadline = wedge_deadline
        self.render_count = max(1, render_workers)
        # Read here, when a front door starts its pool: a bad setting stops it with one line.
        self.deadlines = {name: positive_number(kind.deadline.setting, kind.deadline.seconds,
                                                "seconds")
                          for name, kind in KINDS.items() if kind.deadline is not None}
        self.memory_limits = memory_limits(self.render_count)
        self.teardown_grace = teardown_grace
        self.preload = preload
        self._lock = threading.Lock()
        self._spawn_lock = threading.Lock()  # cold starts one at a time: no duplicate spawns
        self._idle: dict[str, list[Worker]] = {kind: [] for kind in KINDS}
        self._started: dict[str, int] = {kind: 0 for kind in KINDS}
        self._available = threading.Condition(self._lock)
        self._all: set[Worker] = set()
        self._closed = False
        self.job_ids = itertools.count(1)

    @property
    def preview_deadline(self) -> float:
        return self.deadlines["preview"]

    @property
    def memory_limit(self) -> int:
        """The drawing workers' limit (render, preview)."""
        return self.memory_limits["drawing"]

    # -- acquiring and returning workers ------------------------------------------------------

    def capacity(self, kind: str) -> int | None:
        capacity = KINDS[kind].capacity
        return self.render_count if capacity == "workers" else capacity

    def acquire(self, kind: str, cancel: Cancel | None = None) -> Worker:
        """A free worker of this kind, started if needed; waits while all are busy (and wakes
        at once when `cancel` is cancelled)."""
        # Registered outside the lock: a scope already cancelled runs the callback at once.
        forget = cancel.on_cancel(self._wake_waiters) if cancel is not None else lambda: None
        try:
            return self._acquire(kind, cancel)
        finally:
            forget()

    def _wake_waiters(self) -> None:
        with self._available:
            self._available.notify_all()

    def _acquire(self, kind: str, cancel: Cancel | None) -> Worker:
        with self._available:
            while True:
                if self._closed:
                    raise JobFailed("the server is shutting down", "cancelled")
                if cancel is not None and cancel.cancelled:
                    raise JobFailed("the call was cancelled", "cancelled")
                idle = self._sound_idle(kind)
                if idle:
                    return idle.pop()
                limit = self.capacity(kind)
                if limit is None or self._started[kind] < limit:
                    self._started[kind] += 1
                    break
                self._available.wait()
        try:
            with self._spawn_lock:
                worker = self._start(kind)
        except BaseException:
            with self._available:
                self._started[kind] -= 1
                self._available.notify_all()
            raise
        with self._lock:
            self._all.add(worker)
        if KINDS[kind].runs_commands:
            self._prewarm(kind)  # the next command starts on a warm spare
        return worker

    def _sound_idle(self, kind: str) -> list[Worker]:
        """The idle workers of this kind, after dropping any that died or broke their pipe
        while idle (under the lock): their place is given back, or the kind loses capacity for
        good and, at zero, every job waits; the job at hand goes to a sound worker instead of
        taking the blame."""
        idle = self._idle[kind]
        while idle and not idle[-1].sound_while_idle():
            dead = idle.pop()
            dead.kill()
            self._all.discard(dead)
            self._started[kind] -= 1
        return idle

    def borrow_idle(self, kind: str) -> Worker | None:
        """An idle worker of this kind, or None at once: never waits, never starts one. For work
        that may use spare capacity but must never take it from the kind's own jobs (a
        filmstrip's frames on render workers no render is using). Borrow for one job at a time
        and `release` after it, so a render that starts meanwhile waits for a worker at most
        that one job."""
        with self._available:
            if self._closed:
                return None
            idle = self._sound_idle(kind)
            return idle.pop() if idle else None

    def _start(self, kind: str) -> Worker:
        return Worker(self.context, kind, self.preload,
                      self.memory_limits.get(KINDS[kind].memory))

    def release(self, worker: Worker) -> None:
        """Give a healthy worker back. Shell workers are retired after each job (whatever the
        command left behind dies with them) and a warm spare takes their place."""
        runs_commands = KINDS[worker.kind].runs_commands
        if runs_commands or not worker.alive:
            self._discard(worker)
            if runs_commands:
                return
            self._prewarm(worker.kind)  # replace a dead render or preview worker
            return
        with self._available:
            if self._closed:
                worker.kill()
                return
            self._idle[worker.kind].append(worker)
            self._available.notify()

    def _discard(self, worker: Worker) -> None:
        if worker.alive:
            worker.kill()
        with self._available:
            self._all.discard(worker)
            self._started[worker.kind] -= 1
            self._available.notify_all()

    def _prewarm(self, kind: str) -> None:
        """Start a spare worker of this kind in the background (a shell spare, a replacement)."""
        def start() -> None:
            with self._available:
                limit = self.capacity(kind)
                spare_wanted = (KINDS[kind].runs_commands and not self._idle[kind]) or (
                    limit is not None and self._started[kind] < limit)
                if self._closed or not spare_wanted:
                    return
                self._started[kind] += 1
            try:
                with self._spawn_lock:
                    worker = self._start(kind)
            except Exception as exc:
                with self._available:
                    self._started[kind] -= 1
                    closing = self._closed
                # While the pool closes, a spare dying as it starts is the close itself (at
                # exit, multiprocessing terminates the children it started), not news: a
                # one-shot `rendervisor preview` would print it under its own answer.
                if not closing:
                    log.warning("a spare %s worker could not start: %s", kind, exc)
                return
            with self._available:
                self._all.add(worker)
                if self._closed:
                    worker.kill()
                    return
                self._idle[kind].append(worker)
                self._available.notify()
        threading.Thread(target=start, daemon=True, name=f"prewarm-{kind}").start()

    def warm(self, kind: str, count: int = 1) -> None:
        for _ in range(count):
            self._prewarm(kind)

    # -- running a job ------------------------------------------------------------------------

    def run(self, kind: str, task: str, payload: Any, *, cancel: Cancel | None = None,
            on_progress: Callable[[Any], None] | None = None,
            worker: Worker | None = None) -> Any:
        """Run one job on a worker of `kind` and return its result, or raise JobFailed.

        `cancel` is the job's scope: cancelling it wakes the wait at once, and its deadline (a
        shell's timeout) stops the job the same way, with reason "timeout". A job on a kind with
        a deadline (a preview, a probe) also stops there. Pass `worker` to run on one already
        acquired."""
        own = worker is None
        if own:
            worker = self.acquire(kind, cancel)
        scope = cancel.child() if cancel is not None else Cancel()
        try:
            if worker.kind not in self.deadlines:
                return self._run_on(worker, task, payload, scope, on_progress)
            # The kind's deadline is a scope of its own inside the caller's: both let go of
            # their parents when the job ends, or each job would leave a callback on the
            # caller's scope (a session's previews, all on one scope).
            limited = scope.child(self.deadlines[worker.kind], DEADLINE)
            try:
                return self._run_on(worker, task, payload, limited, on_progress)
            finally:
                limited.close()
        finally:
            scope.close()
            if own:
                self.release(worker)

    def _run_on(self, worker: Worker, task: str, payload: Any, scope: Cancel,
                on_progress: Callable | None) -> Any:
        """Send the job and wait on its worker, feeding what happens to the job's lifecycle
        (supervisor/runtime/job_lifecycle.py, which decides) and doing what it says."""
        job_id = next(self.job_ids)
        worker.job_group = None
        try:
            worker.send(frames.Job(job_id, task, payload))
        except (OSError, frames.FrameError) as exc:
            worker.kill()
            raise WorkerDied(f"{worker.name} could not be sent the {task} job: {exc}", "died")
        job = JobLifecycle(
            job_id, clock=time.monotonic, wedge_deadline=self.wedge_deadline,
            grace=self.teardown_grace if KINDS[worker.kind].tidies_up else 0.0,
            deadline=scope.deadline, deadline_reason=failure_reason(scope.deadline_reason))
        processes = JobProcesses(worker, job_id, on_progress)
        forget = scope.on_cancel(worker.wake)
        try:
            while True:
                events = deque(_wait(worker, scope, job))
                while events:
                    for action in job.handle(events.popleft()):
                        if isinstance(action, End):
                            return self._outcome(worker, task, action.outcome, processes)
                        events.extend(processes.carry_out(action))
        finally:
            forget()
            if worker.alive:
                worker.drain_wake()  # a cancel that came as the job ended must not wake the next

    def _outcome(self, worker: Worker, task: str, outcome: Outcome,
                 processes: "JobProcesses") -> Any:
        """The job's outcome as its caller sees it: the value, or JobFailed with a sentence."""
        if isinstance(outcome, Answered):
            return outcome.value
        if isinstance(outcome, Refused):
            raise JobFailed(outcome.message, outcome.type)
        if isinstance(outcome, OutOfMemory):
            limit = (f"its {describe_bytes(worker.memory_limit)} memory limit"
                     if worker.memory_limit else "memory")
            raise JobFailed(f"{worker.name} ran out of {limit} and was replaced",
                            frames.OUT_OF_MEMORY)
        if isinstance(outcome, Stopped):
            raise JobFailed(self._stop_message(worker, outcome.reason), outcome.reason)
        if isinstance(outcome, Wedged):
            raise JobFailed(f"{worker.name} stopped answering for {self.wedge_deadline:.0f} s "
                            f"while running the {task} job and was killed", "wedged")
        if isinstance(outcome, BrokeChannel):
            raise WorkerDied(f"{worker.name} sent a bad frame and was replaced: "
                             f"{outcome.problem}", "died")
        how = processes.how_it_ended
        raise WorkerDied(f"{worker.name} {how} while running the {task} job", "died", how)

    def _stop_message(self, worker: Worker, reason: str) -> str:
        return stop_message(reason, worker.kind, self.deadlines.get(worker.kind))

    # -- shutdown -----------------------------------------------------------------------------

    def close(self) -> None:
        """Kill every worker and its tree. Jobs still waiting on them see their worker die."""
        with self._available:
            self._closed = True
            workers = list(self._all)
            self._available.notify_all()
        for worker in workers:
            worker.kill()
        teardown.kill_stopped_groups()  # a dead worker's command, stopped as it was being held


class JobProcesses:
    """The I/O side of one job's lifecycle: what its actions do to the worker and the processes
    under it. Returns the events that doing them caused (a cancel that could not be sent)."""

    def __init__(self, worker: Worker, job_id: int, on_progress: Callable | None) -> None:
        self.worker = worker
        self.job_id = job_id
        self.on_progress = on_progress
        self.held: list[teardown.Held] = []
        self.how_it_ended = "died"  # describe_exit's words, once HoldOrphans learnt them

    def carry_out(self, action: Action) -> list[Event]:
        worker = self.worker
        if isinstance(action, ReportProgress):
            if self.on_progress is not None:
                self.on_progress(action.data)
        elif isinstance(action, ForwardLog):
            worker.log(action.record)
        elif isinstance(action, RememberCommand):
            worker.job_group = action.pid
        elif isinstance(action, HoldTree):
            self.held = teardown.snapshot(worker.pid, include_root=False)
        elif isinstance(action, HoldOrphans):
            self._hold_orphans()
        elif isinstance(action, SendCancel):
            try:
                worker.send(frames.CancelJob(self.job_id))
            except OSError:
                return [CancelUndelivered()]
        elif isinstance(action, KillLeftovers):
            teardown.kill_and_reap([held for held in self.held if held.pid != worker.pid])
        elif isinstance(action, KillJob):
            teardown.kill_and_reap(self.held, (worker.job_group,) if worker.job_group else ())
            worker.kill()
        elif isinstance(action, RetireWorker):
            worker.kill()
        return []

    def _hold_orphans(self) -> None:
        worker = self.worker
        worker.process.join(1.0)  # learn how it ended: "killed by signal 9", not silence
        self.how_it_ended = describe_exit(worker.process.exitcode)
        self.held = teardown.snapshot(worker.pid, include_root=False)
        if worker.job_group:
            # A worker that died on its own has no tree left: what it ran was re-parented to
            # us (the subreaper), and nothing we hold would reap it. A shell's command still
            # leads its own session, with its setsid children under it: hold that.
            self.held += teardown.frozen_snapshot(worker.job_group)
        elif KINDS[worker.kind].runs_commands:
            # It died before naming its command (no CommandStarted came): find it by its
            # session instead, or it runs on, and then lingers as our zombie.
            self.held += teardown.adopted_commands()


def _wait(worker: Worker, scope: Cancel, job: JobLifecycle) -> list[Event]:
    """Wait on the worker's socket, its sentinel and its wake-up pipe until something happens
    or the job's next deadline; what happened, as the job's events, time last."""
    events: list[Event] = []
    for key, _ in worker.selector.select(max(0.0, job.next_deadline() - time.monotonic())):
        if key.data == "cancel":
            worker.drain_wake()
        elif key.data == "frames":
            data = _receive(worker.sock)
            if not data:
                return events + [WorkerEnded()]
            try:
                events += [FrameArrived(frame) for frame in worker.reader.feed(data)]
            except frames.FrameError as exc:
                return events + [BadFrame(str(exc))]
        elif key.data == "sentinel" and not _has_data(worker.sock):
            # Dead. What it sent before dying is read first (its command's pid, so that tree
            # is found and reaped; even its result): its socket then ends.
            return events + [WorkerEnded()]
    if scope.cancelled:
        events.append(StopAsked(stopped_reason(scope)))
    return events + [TimePassed()]


def _receive(sock: socket.socket) -> bytes:
    """The next bytes from a worker, or b"" once it is gone. A worker that died with frames of
    ours unread resets the connection (ECONNRESET) instead of closing it: the same death."""
    try:
        return sock.recv(1 << 20)
    except ConnectionResetError:
        return b""


def _has_data(sock: socket.socket) -> bool:
    """Whether reading the socket would not block: bytes are waiting, or its end."""
    poller = select.poll()  # not select.select: it fails on descriptors past 1023
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


def make_context(preload: tuple[str, ...] = WORKER_MODULES) -> multiprocessing.context.BaseContext:
    """A forkserver context with the worker modules preloaded. Call this, and start the server,
    before the supervisor starts any thread: workers are then forked from the single-threaded
    forkserver, never from the multithreaded supervisor."""
    check_socket_folder()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(preload))
    from multiprocessing import forkserver
    forkserver.ensure_running()
    return context


def start_forkserver() -> multiprocessing.context.BaseContext:
    """The subreaper flag and the forkserver the workers fork from, with every worker module
    preloaded: call this while the process is still single-threaded (no worker starts yet).
    Starting it again is free: the forkserver already running is the one used."""
    teardown.become_subreaper()
    return make_context(worker_preload())


def check_socket_folder() -> None:
    """UsageError when the temporary folder is too long a path for the forkserver's socket: a
    Unix socket's path holds at most 107 bytes, and multiprocessing makes it inside the
    temporary folder as `pymp-XXXXXXXX/listener-XXXXXXXX` (32 bytes more)."""
    folder = tempfile.gettempdir()
    room = SOCKET_PATH_BYTES - len("/pymp-XXXXXXXX/listener-XXXXXXXX")
    if len(os.fsencode(folder)) > room:
        raise UsageError(f"rendervisor: the temporary folder {folder} is too long a path for the "
                         f"worker pool's socket ({len(os.fsencode(folder))} bytes, at most "
                         f"{room}); set TMPDIR to a shorter folder, such as /tmp.")


def worker_preload() -> tuple[str, ...]:
    """The modules every worker needs, imported once in the forkserver so a fork is cheap."""
    return WORKER_MODULES
