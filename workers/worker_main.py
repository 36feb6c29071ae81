"""The loop inside every worker process.

    supervisor ──job/cancel──► reader (main thread) ──job──► job thread ──► TASKS[task](job)
               ◄──ready/progress/heartbeat/log/result/error── Channel.send (one lock)

The main thread only reads frames, so a cancel reaches a running job at once; the job thread
runs one job at a time; a heartbeat thread beats while a job runs, so the supervisor can tell a
long job from a wedged one. The worker exits when the supervisor closes its end of the socket.
Never import supervisor code here: arrows go supervisor → workers, not back.
"""

from __future__ import annotations

import ctypes
import logging
import os
import queue
import socket
import threading

from protocol.frames import FrameError
from workers.channel import Channel
from workers.job import Job, JobCancelled
from workers.tasks import TASKS, TaskError

# How often a running job says it is alive. The supervisor's wedge deadline is several of these,
# so one late beat on a loaded machine is never taken for a wedge.
HEARTBEAT_INTERVAL = 0.5
PR_SET_CHILD_SUBREAPER = 36


class FrameLogHandler(logging.Handler):
    """Ships log records as frames on this worker's own socket (never a shared queue)."""

    def __init__(self, channel: Channel) -> None:
        super().__init__()
        self.channel = channel

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.channel.send({"kind": "log", "record": {
                "name": record.name, "levelno": record.levelno, "levelname": record.levelname,
                "msg": record.getMessage(), "args": None, "created": record.created,
                "process": record.process, "processName": record.processName,
                "threadName": record.threadName}})
        except Exception:  # a log line must never take a job down
            pass


def become_subreaper() -> None:
    """Orphans of this worker's jobs re-parent here, not to init, so the supervisor's snapshot of
    this worker's descendants still finds a grandchild whose parent exited."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def run(sock: socket.socket, kind: str, preload: tuple[str, ...] = ()) -> None:
    """The worker's whole life. It ends, quietly, when the supervisor's end of the socket closes
    or breaks: a supervisor that exited owes nobody a traceback from its workers."""
    try:
        _serve(sock, kind, preload)
    except (OSError, FrameError):
        pass
    os._exit(0)


def _serve(sock: socket.socket, kind: str, preload: tuple[str, ...]) -> None:
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
    jobs: queue.SimpleQueue = queue.SimpleQueue()
    current: dict[int, Job] = {}
    threading.Thread(target=_job_loop_until_gone, args=(jobs, current, channel), daemon=True,
                     name="job").start()
    channel.send({"kind": "ready", "pid": os.getpid()})
    while True:
        frame = channel.receive()
        if frame is None:
            break
        if frame["kind"] == "job":
            job = Job(frame["id"], frame["task"], frame.get("payload"), channel)
            current[job.id] = job
            jobs.put(job)
        elif frame["kind"] == "cancel":
            job = current.get(frame["id"])
            if job is not None:
                job.cancelled.set()
                on_cancel = getattr(job, "on_cancel", None)
                if on_cancel is not None:
                    on_cancel()


def _job_loop_until_gone(jobs: queue.SimpleQueue, current: dict, channel: Channel) -> None:
    try:
        _job_loop(jobs, current, channel)
    except OSError:  # the supervisor is gone; so are we
        os._exit(0)


def _job_loop(jobs: queue.SimpleQueue, current: dict, channel: Channel) -> None:
    while True:
        job = jobs.get()
        beating = threading.Event()
        heart = threading.Thread(target=_heartbeat, args=(job, beating), daemon=True)
        heart.start()
        try:
            function = TASKS.get(job.task)
            if function is None:
                raise TaskError(f"this worker has no task named {job.task!r}")
            value = function(job)
            reply = {"kind": "result", "id": job.id, "value": value}
        except JobCancelled:
            reply = {"kind": "error", "id": job.id, "type": "cancelled",
                     "message": "the job was cancelled"}
        except TaskError as exc:
            reply = {"kind": "error", "id": job.id, "type": "task", "message": str(exc)}
        except Exception as exc:
            logging.getLogger("rendervisor.worker").exception("task %s failed", job.task)
            reply = {"kind": "error", "id": job.id, "type": "internal",
                     "message": f"the {job.task} task failed inside the worker: "
                                f"{type(exc).__name__}: {exc}"}
        finally:
            beating.set()
            current.pop(job.id, None)
        try:
            channel.send(reply)
        except FrameError as exc:  # a result too large or not msgpack-able: say so instead
            channel.send({"kind": "error", "id": job.id, "type": "internal",
                          "message": f"the {job.task} task's result could not be sent: {exc}"})


def _heartbeat(job: Job, stop: threading.Event) -> None:
    while not stop.wait(HEARTBEAT_INTERVAL):
        try:
            job.channel.send({"kind": "heartbeat", "id": job.id})
        except OSError:
            return


# Modules whose tasks every worker can run. Imported inside the worker (and preloaded by the
# forkserver), never by the supervisor's own threads.
TASK_MODULES = ("workers.shell_runner", "workers.render_tasks")
