"""`rendervisor render --cluster ADDRESS|local`: a Dask distributed cluster standing in for this
machine's render workers.

    RenderRun (render/run.py, unchanged) ── one thread per cluster thread ──► ClusterPool.run
        │ client.submit(render_chunk_bytes, payload, <document: a task, once per snapshot>)
        ▼                                          Dask worker (any node, no shared disk)
    bytes back: frames or a video segment  ◄──────  workers/cluster_chunk.py renders the chunk
        │ written here under the exact names chunk_paths gave the chunk (recorded beforehand)
        ▼
    RenderRun joins segments and keeps outputs exactly as for a local render

An item's sound is mixed once, on the node that joins (`audio_mix` runs on a worker of this
node's own pool, `local`, never in this process: the mix decodes the project's sound files):
the joined file needs the track beside it, and one mix in one place is what keeps it the same
bytes however the pictures were spread. The mix reads the sound files from this node's disk.

ClusterPool has the few methods of supervisor/pool.Pool that RenderRun and run_with_snapshot
use (capacity, acquire, release, run, close), so chunk scheduling, retries of a failed chunk,
cleanup and joining stay in one place. Dask itself reschedules the tasks of a worker that is
lost (up to ALLOWED_FAILURES times); RETRIES covers a task that raised; a chunk that still
ran out of lost workers is one RenderRun retries once more, as it does a local worker's death.

Faults, and what each becomes:
- a scheduler that refuses the connection: one sentence at once (a plain socket is tried
  first; Dask's own connect would retry a refused port for the whole CONNECT_TIMEOUT);
- a scheduler with no workers: one sentence after WORKER_WAIT (both exit 2 in the CLI);
- a worker lost mid-render: Dask runs its tasks again elsewhere. The document the chunks draw
  is itself a task (`hold_document`, its value in the task's own arguments), never scattered
  data: a scattered value whose every copy died is gone for good ("scattered data, which
  can't be recovered"), while a task's result is computed again from its arguments by
  whichever worker is left. So killing workers, every one of them at once included, fails
  no render while a worker is, or comes back, within WORKER_WAIT;
- every worker gone for WORKER_WAIT during a render: its chunks fail, saying so.

dask[distributed] is optional (`pip install 'rendervisor[cluster]'`); `require_dask` says so in
one line when it is missing.
"""

from __future__ import annotations

import itertools
import logging
import os
import socket
import threading
import time
import warnings
from collections import OrderedDict
from typing import Any, Callable

from protocol.cancel import Cancel
from protocol.model.output_names import frame_path
from protocol.wire.frames import SNAPSHOT_MISSING
from supervisor.errors import UsageError
from supervisor.runtime.env_settings import positive_number
from supervisor.runtime.pool import JobFailed
from workers.cluster_chunk import hold_document, render_chunk_bytes
from workers.exporter import OpenedFiles
from workers.exporter.complete_frames import is_complete_frame
from workers.exporter.image_sequence import write_image
from workers.exporter.output_folders import OutputFolder
from workers.exporter.keyframe_grid import segment_path

# A task that raised is tried this many more times (a node whose footage mount hiccupped).
RETRIES = 2
# How many workers may die while running one task before Dask gives up on it (KilledWorker):
# a chunk that kills every node it touches is a bug to report, not to retry forever.
ALLOWED_FAILURES = 3
# How long to wait for a remote scheduler to answer before saying it cannot be reached (a port
# that refuses the connection is said at once, without this wait).
CONNECT_TIMEOUT = 20.0
# How long a render waits for a worker: at the start, for the first to join the scheduler, and
# during the render, for one to come back after every worker was lost. Long enough for a node
# to start (`dask worker` imports Skia and PyAV: seconds on a busy machine) or a nanny to
# restart a killed worker; past it the render says there are no workers instead of waiting
# forever on a scheduler nobody serves.
WORKER_WAIT = 60.0
WORKER_WAIT_SETTING = "RENDERVISOR_CLUSTER_WAIT"
# While a chunk waits, the scheduler's workers are counted this often (at most), to notice
# they are all gone.
WORKER_CHECK = 2.0
# Snapshots kept on the cluster: at least this many, and two per cluster slot. A render of
# template rows sends one document per row (supervisor/render/item_snapshots.py); keeping each
# would hold all of a 10,000-row job's documents in every node's memory until the render ends.
# Rows render in order, so this covers each row whose chunks are still out; a document let go
# too early is only sent again.
MIN_HELD = 8


def require_dask() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError("rendervisor render: --cluster needs Dask distributed, which is not "
                         "installed; install it with pip install 'rendervisor[cluster]'.") \
            from None


def connect(address: str, workers: int, worker_wait: float):
    """(the LocalCluster started here or None, a Client with at least one worker), or
    UsageError with the sentence: a scheduler that cannot be reached (a refused port at once),
    or one no worker joins within `worker_wait` seconds."""
    import dask
    from distributed import Client, LocalCluster
    dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES})
    if address == "local":
        # Loopback only, processes (the compositor holds the GIL), one thread each (a worker
        # process's footage cache is not shared between threads).
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None,
                               silence_logs=logging.ERROR)
        return cluster, Client(cluster)
    try:
        reach(address)
        client = Client(address, timeout=f"{CONNECT_TIMEOUT}s")
    except (OSError, TimeoutError, ValueError) as error:
        raise UsageError(f"rendervisor render: cannot reach the Dask scheduler at {address} "
                         f"({_reason(error)}); start one with dask scheduler, or use "
                         "--cluster local.") from None
    try:
        client.wait_for_workers(1, timeout=worker_wait)
    except (OSError, TimeoutError) as error:
        client.close()
        said = "no worker joined it" if isinstance(error, TimeoutError) else _reason(error)
        raise UsageError(f"rendervisor render: the Dask scheduler at {address} has no workers "
                         f"({said} within {worker_wait:g} s, {WORKER_WAIT_SETTING}); start "
                         f"one on each node with dask worker {address} --nthreads 1, then "
                         "render again.") from None
    return None, client


def reach(address: str) -> None:
    """Open and close a plain connection to a tcp scheduler: OSError at once when nothing
    listens there (Dask's own connect retries a refused port until its timeout)."""
    from distributed.comm import parse_address, parse_host_port
    scheme, location = parse_address(address)
    if scheme != "tcp":
        return  # tls, ucx...: Dask's connect alone knows how to speak to those
    host, port = parse_host_port(location, 8786)
    socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()


def _reason(error: BaseException) -> str:
    if isinstance(error, ConnectionRefusedError):
        return "the connection was refused: nothing listens on that port"
    return getattr(error, "strerror", None) or str(error) or type(error).__name__


class ClusterWorker:
    """A slot of the cluster as RenderRun sees a worker: the snapshot id it was sent."""

    _numbers = itertools.count(1)

    def __init__(self) -> None:
        self.kind = "render"
        self.alive = True
        self.state: dict = {}
        self.name = f"cluster slot {next(self._numbers)}"


class ClusterPool:
    def __init__(self, address: str, workers: int, local=None) -> None:
        self.address = address
        self.local = local  # this node's own pool, for the sound mixes made here
        self.worker_wait = positive_number(WORKER_WAIT_SETTING, WORKER_WAIT, "seconds")
        self.cluster, self.client = connect(address, workers, self.worker_wait)
        self.slots = max(1, sum(self.client.nthreads().values()))
        # snapshot id -> the document's hold_document future, the most recently used last
        self._documents: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()  # chunk threads of one render share the documents
        # snapshot id -> the document, for the mix made here, the most recently used last
        self._here: OrderedDict[str, dict] = OrderedDict()

    # -- what RenderRun uses of a Pool ---------------------------------------------------------

    def capacity(self, kind: str) -> int:
        return self.slots

    def acquire(self, kind: str, cancel: Cancel | None = None) -> ClusterWorker:
        if cancel is not None and cancel.cancelled:
            raise JobFailed("the call was cancelled", "cancelled")
        return ClusterWorker()

    def release(self, worker: ClusterWorker) -> None:
        pass

    def run(self, kind: str, task: str, payload: dict, *, worker: ClusterWorker,
            cancel: Cancel | None = None,
            on_progress: Callable[[Any], None] | None = None, **_: Any) -> dict:
        if task == "audio_mix":
            return self._mix_here(payload, cancel or Cancel())
        if task != "render_chunk":
            raise JobFailed(f"a cluster runs render chunks and sound mixes only, not {task} "
                            "jobs")
        job = dict(payload)
        document = job.pop("document", None)
        with self._lock:
            held = self._held(job["snapshot"], document)
        future = self.client.submit(render_chunk_bytes, job, held, retries=RETRIES,
                                    pure=False)
        result = self._wait(future, cancel)
        return self._write(job, result, on_progress or (lambda number: None))

    def close(self) -> None:
        for closing in (self.client, self.cluster):
            if closing is not None:
                try:
                    closing.close()
                except Exception:  # a cluster already gone has nothing left to close
                    pass

    # -- internals -----------------------------------------------------------------------------

    def _mix_here(self, payload: dict, cancel: Cancel) -> dict:
        """An item's sound track, mixed on this node (a worker of its own pool) into the name
        the run recorded."""
        job = dict(payload)
        document = job.pop("document", None)
        with self._lock:
            if document is not None:
                self._here[job["snapshot"]] = document
            document = self._here.get(job["snapshot"])
            if document is None:  # run_with_snapshot sends it again
                raise JobFailed("this node does not hold the snapshot yet", SNAPSHOT_MISSING)
            self._keep_recent(self._here, job["snapshot"])  # one per template row, too
        return self.local.run("render", "audio_mix", {**job, "document": document},
                              cancel=cancel)

    def _held(self, snapshot_id: str, document: dict | None):
        """The cluster's copy of a snapshot, a `hold_document` task: sent once, not once per
        chunk, and computed again from its arguments if every worker holding it is lost.
        Without the document (RenderRun sent this slot the snapshot before), one that was let
        go is asked for again as a missing snapshot, as a replaced local worker would."""
        if snapshot_id not in self._documents:
            if document is None:
                raise JobFailed(f"the cluster no longer holds snapshot {snapshot_id}",
                                SNAPSHOT_MISSING)
            with warnings.catch_warnings():
                # Dask suggests scattering a large argument; scattered data is what a lost
                # worker takes with it (see the module's docstring).
                warnings.filterwarnings("ignore", message="Large object")
                self._documents[snapshot_id] = self.client.submit(hold_document, document,
                                                                  pure=False)
        held = self._documents[snapshot_id]
        self._keep_recent(self._documents, snapshot_id)  # Dask keeps one a task still needs
        return held

    def _keep_recent(self, documents: OrderedDict, snapshot_id: str) -> None:
        """Mark `snapshot_id` the most recently used, and let go of the least recently used
        past MIN_HELD or two per slot (see MIN_HELD)."""
        documents.move_to_end(snapshot_id)
        while len(documents) > max(MIN_HELD, 2 * self.slots):
            documents.popitem(last=False)

    def _wait(self, future, cancel: Cancel | None) -> dict:
        """The task's result; woken by the future's completion or the render's cancel,
        whichever comes first, or failed once the cluster has had no worker for the worker
        wait (the only polling: a count of workers every WORKER_CHECK)."""
        woken = threading.Event()
        future.add_done_callback(lambda _: woken.set())
        forget = cancel.on_cancel(woken.set) if cancel is not None else (lambda: None)
        without_workers_since: float | None = None
        try:
            while not woken.wait(WORKER_CHECK):
                if self._has_workers():
                    without_workers_since = None
                    continue
                now = time.monotonic()
                without_workers_since = without_workers_since or now
                if now - without_workers_since >= self.worker_wait:
                    future.cancel()
                    raise JobFailed(f"the Dask scheduler at {self.address} has had no "
                                    f"workers for {self.worker_wait:g} s ("
                                    f"{WORKER_WAIT_SETTING}); start workers, then render "
                                    "again with --skip-existing", "error")
        finally:
            forget()
        if not future.done():  # woken by the cancel
            future.cancel()
            raise JobFailed("the job was cancelled", "cancelled")
        try:
            return future.result()
        except Exception as error:
            from distributed import KilledWorker  # Dask is optional: imported once in use
            if isinstance(error, KilledWorker):
                # "died": RenderRun runs the chunk once more (a new task), as for a local
                # worker that died; killed nodes alone do not fail a render.
                raise JobFailed(f"the Dask workers running it were lost "
                                f"{ALLOWED_FAILURES + 1} times", "died") from None
            raise JobFailed(str(error) or type(error).__name__, "error") from None

    def _has_workers(self) -> bool:
        try:
            return bool(self.client.nthreads())
        except (OSError, TimeoutError):  # the scheduler itself is out of reach
            return False

    def _write(self, job: dict, result: dict, on_progress: Callable[[Any], None]) -> dict:
        """Put the chunk's bytes where a local render worker would have written them: frames
        through their token's temporaries, a segment at its token's name, in the output
        folder the run holds (held again here by its identity, as a worker does)."""
        held = None
        # The run recorded these names already; this record is for a failure.
        try:
            held = OutputFolder.of_job(job)
            opened = OpenedFiles(held=held)
            if "segment" in result:
                path = segment_path(job["output"], job["firstIndex"], job["token"])
                opened.make_folders(path)
                with os.fdopen(opened.create(path), "wb") as handle:
                    handle.write(result["segment"])
                for number in job["frames"]:
                    on_progress(number)
                return {"segment": path, "missing": result["missing"],
                        "frames": len(job["frames"])}
            for number, data in result["frames"]:
                final = frame_path(job["output"], number, job.get("startNumber", 0))
                if job.get("skipExisting") and is_complete_frame(final, job["format"]):
                    continue
                write_image(data, final, opened, job["token"])
                on_progress(number)
            return {"segment": None, "missing": result["missing"],
                    "frames": len(job["frames"])}
        except OSError as error:
            raise JobFailed(f"the chunk's files could not be written here: {error}") from None
        finally:
            if held is not None:
                held.close()

