"""`rendervisor render --cluster ADDRESS|local`: a Dask distributed cluster standing in for this
machine's render workers.

    RenderRun (render/run.py, unchanged) ── one thread per cluster thread ──► ClusterPool.run
        │ client.submit(render_chunk_bytes, payload, <document scattered once per snapshot>)
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
lost (up to ALLOWED_FAILURES times); RETRIES covers a task that raised.

dask[distributed] is optional (`pip install 'rendervisor[cluster]'`); `require_dask` says so in
one line when it is missing.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
from collections import OrderedDict
from typing import Any, Callable

from protocol.cancel import Cancel
from protocol.model.output_names import frame_path
from protocol.wire.frames import SNAPSHOT_MISSING
from supervisor.errors import UsageError
from supervisor.runtime.pool import JobFailed
from workers.cluster_chunk import render_chunk_bytes
from workers.exporter import OpenedFiles
from workers.exporter.complete_frames import is_complete_frame
from workers.exporter.image_sequence import write_image
from workers.exporter.output_folders import OutputFolder
from workers.exporter.segments import segment_path

# A task that raised is tried this many more times (a node whose footage mount hiccupped).
RETRIES = 2
# How many workers may die while running one task before Dask gives up on it (KilledWorker):
# a chunk that kills every node it touches is a bug to report, not to retry forever.
ALLOWED_FAILURES = 3
# How long to wait for a remote scheduler to answer before saying it cannot be reached.
CONNECT_TIMEOUT = "20s"
# Snapshots kept scattered: at least this many, and two per cluster slot. A render of template
# rows scatters one document per row (supervisor/render/item_snapshots.py); keeping every one
# would hold all of a 10,000-row job's documents in every node's memory until the render ends.
# Rows render in order, so this covers each row whose chunks are still out; a document let go
# too early is only scattered again.
MIN_SCATTERED = 8


def require_dask() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError("rendervisor render: --cluster needs Dask distributed, which is not "
                         "installed; install it with pip install 'rendervisor[cluster]'.") \
            from None


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
        import dask
        from distributed import Client, LocalCluster
        dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES})
        self.cluster = None
        self.local = local  # this node's own pool, for the sound mixes made here
        try:
            if address == "local":
                # Loopback only, processes (the compositor holds the GIL), one thread each
                # (a worker process's footage cache is not shared between threads).
                self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                            processes=True, host="127.0.0.1",
                                            dashboard_address=None,
                                            silence_logs=logging.ERROR)
                self.client = Client(self.cluster)
            else:
                self.client = Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as error:
            self.close()
            raise UsageError(f"rendervisor render: cannot reach the Dask scheduler at "
                             f"{address} ({error}); start one with dask scheduler, or use "
                             "--cluster local.") from None
        self.slots = max(1, sum(self.client.nthreads().values()))
        # snapshot id -> the scattered document, the most recently used last
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
            scattered = self._scattered(job["snapshot"], document)
        future = self.client.submit(render_chunk_bytes, job, scattered, retries=RETRIES,
                                    pure=False)
        result = self._wait(future, cancel)
        return self._write(job, result, on_progress or (lambda number: None))

    def close(self) -> None:
        for closing in (getattr(self, "client", None), self.cluster):
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

    def _scattered(self, snapshot_id: str, document: dict | None):
        """The cluster's copy of a snapshot: sent to every node once, not once per chunk.
        Without the document (RenderRun sent this slot the snapshot before), one that was let
        go is asked for again as a missing snapshot, as a replaced local worker would."""
        if snapshot_id not in self._documents:
            if document is None:
                raise JobFailed(f"the cluster no longer holds snapshot {snapshot_id}",
                                SNAPSHOT_MISSING)
            # In a list: Dask scatters a dict's values under the dict's own keys, so two
            # documents ("comps", "footage", ...) would share names and one task draw the
            # other's. A list's element is named by a hash of its content.
            self._documents[snapshot_id] = self.client.scatter([document], broadcast=True)[0]
        document = self._documents[snapshot_id]
        self._keep_recent(self._documents, snapshot_id)  # Dask keeps one a task still needs
        return document

    def _keep_recent(self, documents: OrderedDict, snapshot_id: str) -> None:
        """Mark `snapshot_id` the most recently used, and let go of the least recently used
        past MIN_SCATTERED or two per slot (see MIN_SCATTERED)."""
        documents.move_to_end(snapshot_id)
        while len(documents) > max(MIN_SCATTERED, 2 * self.slots):
            documents.popitem(last=False)

    def _wait(self, future, cancel: Cancel | None) -> dict:
        """The task's result; woken by the future's completion or the render's cancel,
        whichever comes first (no polling)."""
        woken = threading.Event()
        future.add_done_callback(lambda _: woken.set())
        forget = cancel.on_cancel(woken.set) if cancel is not None else (lambda: None)
        try:
            woken.wait()
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
                raise JobFailed(f"the Dask workers running it were lost {ALLOWED_FAILURES} "
                                "times", "error") from None
            raise JobFailed(str(error) or type(error).__name__, "error") from None

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

