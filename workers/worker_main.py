"""The loop inside every worker process.

    supervisor ──job/cancel──► the main thread: reads a job, runs TASKS[task](job),
                               answers, reads the next; while a job runs, the job itself
                               takes the cancels that came for it (workers/job.py: at each
                               check, and whenever the socket is readable for a task that
                               waits on it)
               ◄──ready/progress/heartbeat/log/result/error── Channel.send (one lock)

One thread reads and runs, so a job starts the moment its frame is read, with no other thread
woken to take over reading and then competing with it for the interpreter (a thread handoff
cost more than a whole no-op job). The heartbeat thread beats while a job runs, on its own
clock, so the supervisor can tell a long job from a wedged one; a job that never checks its
scope is still stopped, by the supervisor's kill after the teardown grace. The worker exits
when the supervisor closes its end of the socket.
Never import supervisor code here: arrows go supervisor → workers, not back.
"""

from __future__ import annotations

import ctypes
import logging
import os
import resource
import socket
import sys
import threading
import time

from protocol.cancel import Cancelled
from protocol.wire import frames
from protocol.wire.frames import FrameError
from workers.channel import Channel
from workers.job import Job
from workers.tasks import TASK_MODULES, TASKS, TaskError

# How often a running job says it is alive. The supervisor's wedge deadline is several of these,
# so one late beat on a loaded machine is never taken for a wedge.
HEARTBEAT_INTERVAL = 0.5
PR_SET_CHILD_SUBREAPER = 36
M_ARENA_MAX = -8  # glibc's mallopt parameter number
# glibc gives each thread that allocates its own malloc arena, up to 8 per core, each reserving
# 64 MiB of address space: on a many-core machine, arenas alone could fill the memory limit
# without a byte of it used. Four keep the job, the heartbeat and an encoder's threads off
# each other's locks; more buys nothing a worker that renders one frame at a time can use.
MALLOC_ARENAS = 4


def quiet_when_the_supervisor_is_gone(kind, value, traceback) -> None:
    """sys.excepthook of the forkserver and so of every process it forks. A child forked for a
    supervisor that exited meanwhile finds the spawn pipe closed before it becomes a worker
    (multiprocessing reports EOFError, "Ran out of input", through this hook); nobody is left
    to start, and a traceback on the user's terminal would say nothing they can act on."""
    if issubclass(kind, (EOFError, ConnectionError)):
        return
    sys.__excepthook__(kind, value, traceback)


# Installed on import: the forkserver preloads this module (supervisor/runtime/pool.py), so the hook
# is in place in the forkserver before its first fork.
sys.excepthook = quiet_when_the_supervisor_is_gone


class FrameLogHandler(logging.Handler):
    """Ships log records as frames on this worker's own socket (never a shared queue)."""

    def __init__(self, channel: Channel) -> None:
        super().__init__()
        self.channel = channel

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.channel.send(frames.Log({
                "name": record.name, "levelno": record.levelno, "levelname": record.levelname,
                "msg": record.getMessage(), "args": None, "created": record.created,
                "process": record.process, "processName": record.processName,
                "threadName": record.threadName}))
        except Exception:  # a log line must never take a job down
            pass


def become_subreaper() -> None:
    """Orphans of this worker's jobs re-parent here, not to init, so the supervisor's snapshot of
    this worker's descendants still finds a grandchild whose parent exited."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def limit_memory(limit: int) -> None:
    """Cap this process's address space at `limit` bytes (never above a hard limit the
    operator set), so an allocation past it fails here, as a MemoryError the job reports,
    instead of the whole machine running out (supervisor/runtime/worker_memory.py says why and how
    much). Set on itself after the fork: the forkserver and the supervisor stay unlimited."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        ctypes.CDLL(None).mallopt(M_ARENA_MAX, MALLOC_ARENAS)
    except (OSError, AttributeError):  # not glibc: its allocator has no such arenas
        pass


def run(sock: socket.socket, kind: str, preload: tuple[str, ...] = (),
        memory_limit: int | None = None) -> None:
    """The worker's whole life. It ends, quietly, when the supervisor's end of the socket closes
    or breaks: a supervisor that exited owes nobody a traceback from its workers."""
    try:
        _serve(sock, kind, preload, memory_limit)
    except (OSError, FrameError):
        pass
    os._exit(0)


def _serve(sock: socket.socket, kind: str, preload: tuple[str, ...],
           memory_limit: int | None) -> None:
    if memory_limit is not None:
        limit_memory(memory_limit)
    for module in preload:
        __import__(module)
    for module in TASK_MODULES:
        __import__(module)
    channel = Channel(sock)
    root = logging.getLogger()
    root.handlers[:] = [FrameLogHandler(channel)]
    root.setLevel(logging.INFO)
    if kind == "shell":
        become_subreaper()
    state = WorkerState(channel)
    channel.send(frames.Ready(os.getpid()))
    while True:
        job = _read_until_job(state)
        if job is None:
            os._exit(0)  # the supervisor closed its end
        _run(job, state)


class WorkerState:
    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.heart = Heart(channel)
        self.current: dict[int, Job] = {}


def _read_until_job(state: WorkerState) -> Job | None:
    while True:
        frame = state.channel.receive()
        if frame is None:
            return None
        if isinstance(frame, frames.Job):
            job = Job(frame.id, frame.task, frame.payload, state.channel,
                      listen=lambda: _listen(state))
            state.current[job.id] = job
            return job
        # A cancel for a job that has finished (it crossed the answer): nothing to stop.


def _listen(state: WorkerState) -> None:
    """Cancel the running jobs whose cancel frames have come (the job's own scope calls this,
    in the job's thread: workers/job.py)."""
    try:
        cancels = state.channel.take_waiting(frames.CancelJob)
    except (OSError, FrameError):
        cancels = None
    if cancels is None:
        os._exit(0)  # the supervisor closed its end, or broke it: nobody is left to answer
    for frame in cancels:
        job = state.current.get(frame.id)
        if job is not None:
            job.cancel.cancel()


def _run(job: Job, state: WorkerState) -> None:
    channel = state.channel
    state.heart.beat_for(job.id)
    try:
        function = TASKS.get(job.task)
        if function is None:
            raise TaskError(f"this worker has no task named {job.task!r}")
        value = function(job)
        reply = frames.Result(job.id, value)
    except Cancelled:
        reply = frames.JobError(job.id, frames.CANCELLED, "the job was cancelled")
    except TaskError as exc:
        reply = frames.JobError(job.id, exc.type, str(exc))
    except MemoryError:
        # Whatever the job held is freed by now (the exception unwound it), so the reply can
        # still be built; the supervisor names the limit and replaces this worker.
        reply = frames.JobError(job.id, frames.OUT_OF_MEMORY,
                             f"the {job.task} task ran out of memory")
    except Exception as exc:
        logging.getLogger("rendervisor.worker").exception("task %s failed", job.task)
        reply = frames.JobError(job.id, frames.INTERNAL_ERROR,
                             f"the {job.task} task failed inside the worker: "
                             f"{type(exc).__name__}: {exc}")
    finally:
        state.heart.rest()
        state.current.pop(job.id, None)
    try:
        channel.send(reply)
    except FrameError as exc:  # a result too large or not msgpack-able: say so instead
        channel.send(frames.JobError(job.id, frames.INTERNAL_ERROR,
                                  f"the {job.task} task's result could not be sent: {exc}"))
    except MemoryError:  # packing the result needed a copy of it past the limit
        channel.send(frames.JobError(job.id, frames.OUT_OF_MEMORY,
                                  f"the {job.task} task's result did not fit in memory"))


class Heart:
    """Sends heartbeats for the running job, from one thread kept for the worker's life.

    The thread ticks on its own clock and is never woken per job: a thread started per job,
    or even a notify per job, cost more than a whole no-op job (each wake-up is one more
    thread competing for the interpreter while the job runs). A job's first beat therefore
    comes within HEARTBEAT_INTERVAL, far inside the supervisor's wedge deadline."""

    def __init__(self, channel: Channel) -> None:
        self._channel = channel
        self._job_id: int | None = None  # one reference, set and read whole: no lock needed
        threading.Thread(target=self._beat, daemon=True, name="heartbeat").start()

    def beat_for(self, job_id: int) -> None:
        self._job_id = job_id

    def rest(self) -> None:
        self._job_id = None

    def _beat(self) -> None:
        while True:
            time.sleep(HEARTBEAT_INTERVAL)
            job_id = self._job_id
            if job_id is None:
                continue
            try:
                self._channel.send(frames.Heartbeat(job_id))
            except OSError:
                return

