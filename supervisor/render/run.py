"""One render in progress: the chunks of its items spread over the render workers, and what is
left behind when it ends (finished outputs) or stops (nothing it created).

    RenderRun.run (the render's own thread)
        │ starts one thread per render worker it uses (at most the pool's capacity)
        ▼
    chunk thread ── pool.acquire("render") ── loop: next task (items in queue order)
        │   an item's first task: its output folder made, opened and checked, then held by
        │     descriptor (output_folders.py), and what a killed render left there removed
        │   record the task's files (chunk_paths, the sound track) in its item's OpenedFiles
        │   run_with_snapshot(... "render_chunk" ...)  ◄── progress: one frame written
        │     or, first among an item's tasks, its sound: "audio_mix" (render/sound_jobs.py)
        │   a dead worker: release it, retry the task once on a fresh worker (new token)
        └── the item's last task in: join the video's segments and its sound track (stream
            copy), or put a wav's track in place; read the output back (a video on a probe
            worker, a sequence's frames by their markers: verified_outputs.py), and keep it
            only if it is whole
    an item is settled once nothing of it runs (a failed one as its last task returns, the
    rest when the threads end): every recorded file of an item not done is removed, except the
    frames it keeps for a rerun with skipExisting: a failed item's from chunks that finished,
    and, on a farm node (`keep_stopped`: a preempted task is resumed, not started over), a
    stopped item's every frame a worker reported written (each complete: a frame appears by
    rename); a video keeps its finished segments in its cache (segment_cache.py). Then its
    folder is let go.

Every file of an item is created, renamed and removed through its held folder, here and in the
workers (which hold the same folder again by its identity, and refuse to write if its name
now reaches another): a link swapped in for the folder mid-render redirects nothing.

What happens to each item is decided by its lifecycle, supervisor/render/item_run.py (a state
machine with no I/O: events in, actions out); this module moves the files and the workers and
feeds it what happened.

Every chunk job shares the run's one cancel scope: `stop()` wakes every wait at once, each
worker stops at its next frame (or is killed after the teardown grace), and the threads end.
Files are recorded here, before dispatch, because a killed worker's own record dies with it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from protocol.cancel import Cancel
from supervisor.engine.probes import Probes
from supervisor.runtime.pool import JobFailed, Pool, Worker
from supervisor.render.item_run import (AttemptStarted, Announce, Began, Broke, ChunkCached,
                                        CountFrame, Event, FolderRefused, FrameWritten, ItemRun,
                                        LogFailure, OutputBroken, OutputFailed, OutputPlaced,
                                        PlaceOutput, RenderEnded, Retry, Settle, Status,
                                        TaskFailed, TaskFinished, TaskReturned, TaskTaken)
from supervisor.render.leftovers import Leftovers
from supervisor.render.plan import ItemPlan
from supervisor.render.segment_cache import SegmentCache, content_key, remove_cache
from supervisor.render.snapshot_jobs import run_with_snapshot
from supervisor.render.verified_outputs import broken_frames, video_problem
from supervisor.render.sound_jobs import SOUND, place_output, sound_payload
from workers.exporter.chunk_plan import Chunk, chunk_paths, with_new_token
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.output_folders import OutputFolder, folder_to_hold

log = logging.getLogger("rendervisor.render")


@dataclass
class ItemFiles:
    """What an item has on disk during the render: the files recorded for it, its folder
    (held from its first task until it is settled), a video's segment cache."""
    opened: OpenedFiles = field(default_factory=OpenedFiles)
    folder: OutputFolder | None = None
    cache: SegmentCache | None = None


class RenderRun:
    def __init__(self, pool: Pool, snapshot_id: str, document: dict, plans: list[ItemPlan],
                 on_progress: Callable[[int, int, str], None] | None = None,
                 on_item: Callable[[str, str, float], None] | None = None,
                 kind: str = "render", cancel: Cancel | None = None,
                 keep_stopped: bool = False,
                 check_write: Callable[[str], object] | None = None,
                 probes: Probes | None = None) -> None:
        self.pool = pool
        # Where a finished video is read back before its item is done (verified_outputs.py);
        # None: this process's own probe pool.
        self.probes = probes or Probes()
        # The session's write rule, asked again of each output folder as it is opened: the
        # plan checked the name, this checks the folder the render holds (raises to refuse).
        self.check_write = check_write
        self._leftovers = Leftovers()
        self.kind = kind  # "render"; a still (comp.saveFrameAs) runs on the preview worker
        self.snapshot_id = snapshot_id  # Engine.snapshot's: what the workers cache it by
        self.document = document
        contents: dict[int, str] = {}  # a segment cache's key per document drawn

        def cache_for(plan: ItemPlan) -> SegmentCache | None:
            if plan.is_sequence or not plan.chunks:
                return None
            # An item rendering template values draws its own document: its segments are
            # named by that document's content, never by the project's.
            drawn = plan.snapshot[1] if plan.snapshot else document
            if id(drawn) not in contents:
                contents[id(drawn)] = content_key(drawn)
            return SegmentCache(plan, contents[id(drawn)])

        self.items = [ItemRun(plan, clock=time.monotonic, keep_stopped=keep_stopped)
                      for plan in plans]
        self._files = {item: ItemFiles(cache=cache_for(item.plan)) for item in self.items}
        self._queue: deque[tuple[ItemRun, int, Chunk]] = deque(
            (item, index, chunk) for item in self.items if not item.finished
            for index, chunk in self._tasks(item))
        # Frames drawn: a wav draws none (its progress is its item's status).
        self.total = sum(len(chunk.frames) for _item, index, chunk in self._queue
                         if index != SOUND)
        self.written = 0
        # The render's scope: its caller's (a child of it) or its own (wait:false); every
        # chunk job waits on it, so one cancel wakes them all.
        self.cancel = cancel if cancel is not None else Cancel()
        self.ended = threading.Event()
        self.report: dict | None = None
        self._on_progress = on_progress or (lambda written, total, message: None)
        self._on_item = on_item or (lambda item, status, progress: None)
        self._lock = threading.Lock()
        self._progress_lock = threading.Lock()
        self._reported = -1  # the last count passed to on_progress
        self.cancel.on_cancel(self._drop_queue)
        # A video's key settings are first needed when a segment is done: made beside the
        # first chunks, not before they are sent (SegmentCache.settings); one thread for all
        # items (a template's rows can be hundreds).
        unkeyed = [files.cache for item, files in self._files.items()
                   if files.cache is not None and not item.plan.resume]
        if unkeyed:
            threading.Thread(target=_make_settings_ahead, args=(unkeyed, self.cancel),
                             daemon=True, name="segment-cache-settings").start()

    def _tasks(self, item: ItemRun) -> list[tuple[int, object]]:
        """(index, what to run): the sound first, so it mixes while the chunks draw; then the
        chunks, less those a resumed video has in its segment cache (done already)."""
        tasks: list[tuple[int, object]] = [(SOUND, item.plan.sound)] \
            if item.plan.sound is not None else []
        cache = self._files[item].cache
        for index, chunk in enumerate(item.plan.chunks):
            if item.plan.resume and cache is not None and cache.has(chunk):
                item.handle(ChunkCached(index, tuple(chunk.frames), cache.path(chunk)))
            else:
                tasks.append((index, chunk))
        return tasks

    @property
    def item_ids(self) -> list[str]:
        return [item.plan.id for item in self.items]

    # -- control --------------------------------------------------------------------------------

    @property
    def stopped(self) -> bool:
        return self.cancel.cancelled

    @property
    def all_ended(self) -> bool:
        """Every item has its ending (done, failed or stopped): the run is only tidying up."""
        return all(item.finished or item.status is Status.STOPPED for item in self.items)

    def stop(self) -> None:
        """Stop every worker at its next frame; run() then cleans up and returns."""
        self.cancel.cancel()

    def _drop_queue(self) -> None:
        with self._lock:
            self._queue.clear()

    def run(self) -> dict:
        """Render everything; the report {completed, failed, seconds, items} once all threads
        ended."""
        started = time.monotonic()
        try:
            threads = [threading.Thread(target=self._serve, daemon=True,
                                        name=f"render-chunks-{number}")
                       for number in range(min(self.pool.capacity(self.kind) or 1,
                                               len(self._queue)))]
            for item in self.items:  # a resumed video with every segment cached
                if not item.finished and item.complete:
                    with self._lock:
                        began = self._start(item)
                    if began:
                        self._place_output(item)
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            for item in self.items:
                self._feed(item, RenderEnded())
            if not self.stopped:
                # Progress ends at its total, also when an item failed or nothing was left
                # to write: a client's bar that stops at 47/48 reads as a render that hung.
                self._report_progress(self.total, f"finished: {self.written} of {self.total} "
                                                  "frames written")
            items = [item.report() for item in self.items]
            self.report = {"completed": sum(entry["status"] == "done" for entry in items),
                           "failed": sum(entry["status"] == "failed" for entry in items),
                           "seconds": round(time.monotonic() - started, 3), "items": items}
            return self.report
        finally:
            self.cancel.close()  # a child of its caller's scope lets go of it
            self.ended.set()

    # -- the item's lifecycle: events in, actions carried out --------------------------------

    def _feed(self, item: ItemRun, event: Event) -> bool:
        """Hand the item an event (under the lock: several chunk threads feed one item) and
        carry out what it answers; whether it asks for the task again (Retry)."""
        with self._lock:
            later = self._announce(item, item.handle(event))
        return self._carry_out(item, later)

    def _announce(self, item: ItemRun, actions: list) -> list:
        """Under the lock: tell the queue (so two workers' reports reach renderQueue.list in
        order) and count the frames; the actions left, to carry out outside it. The item's
        order holds: what follows its Settle waits for it, so a "stopped" or "done" item is
        heard of only once its files are settled."""
        later: list = []
        for action in actions:
            if any(isinstance(deferred, Settle) for deferred in later):
                later.append(action)
            elif isinstance(action, Announce):
                self._on_item(item.plan.id, str(action.status), action.fraction)
            elif isinstance(action, CountFrame):
                self.written += 1
                later.append((self.written, action.message))
            else:
                later.append(action)
        return later

    def _carry_out(self, item: ItemRun, actions: list) -> bool:
        retry = False
        for action in actions:
            if isinstance(action, tuple):  # a counted frame: (written, message)
                self._report_progress(*action)
            elif isinstance(action, (Announce, CountFrame)):  # one that followed a Settle
                with self._lock:
                    counted = self._announce(item, [action])
                self._carry_out(item, counted)
            elif isinstance(action, LogFailure):
                log.warning("%s", action.message)
            elif isinstance(action, Settle):
                self._settle(item, action)
            elif isinstance(action, PlaceOutput):
                self._place_output(item)
            elif isinstance(action, Retry):
                retry = True
        return retry

    def _settle(self, item: ItemRun, settle: Settle) -> None:
        """What an item leaves once nothing of it runs: a done item its output, any other
        what it wrote less the frames it keeps for a rerun; then its folder is let go."""
        files = self._files[item]
        if not settle.done:
            files.opened.keep(list(settle.kept))
            files.opened.remove_all()
        if files.folder is not None:
            files.folder.close()

    def _place_output(self, item: ItemRun) -> None:
        """The item's last task is in: join a video's segments (and its sound track), or put
        a wav in place; the output is then kept."""
        plan, files = item.plan, self._files[item]
        if not plan.is_sequence:
            # Where the join's error lives, PyAV does: imported when a video or a wav is put in
            # place (as place_output imports the join), never with the render.
            from workers.exporter.join import JoinError
            segments = [item.segments[index] for index in range(len(plan.chunks))]
            try:
                # The cached segments stay until the output is in place: a join that fails
                # (a full disk) leaves them for the rerun.
                place_output(plan, segments, files.opened, remove_segments=files.cache is None)
            except (JoinError, OSError, ValueError) as error:
                self._feed(item, OutputFailed(str(error)))
                return
        # Read back before it is kept (verified_outputs.py): a sequence's frames by their
        # markers, a video on a probe worker.
        if plan.is_sequence:
            broken = broken_frames(plan, plan.frames)
            if broken:
                self._feed(item, OutputBroken(frames=tuple(sorted(broken))))
                return
        else:
            problem = video_problem(plan, self.probes)
            if problem is not None:
                self._feed(item, OutputBroken(problem=problem))
                return
        with self._lock:
            # Segments the cache could not take are still this render's temporaries.
            uncached = OpenedFiles([path for path in item.segments.values()
                                    if path is not None and path in files.opened],
                                   held=files.folder)
            files.opened.keep()
        if files.cache is not None:
            uncached.remove_all()
            remove_cache(plan.output, files.folder)
        self._feed(item, OutputPlaced())

    # -- one thread per render worker --------------------------------------------------------

    def _serve(self) -> None:
        worker: Worker | None = None
        try:
            while True:
                task = self._next()
                if task is None:
                    return
                item = task[0]
                try:
                    worker = self._run_chunk(worker, *task)
                except JobFailed:
                    return  # the pool is closing, or the run stopped while acquiring a worker
                except Exception as error:  # a bug here: that item fails, the others go on
                    log.exception("rendering %s failed unexpectedly", item.plan.id)
                    self._feed(item, Broke(f"{item.plan.id} failed unexpectedly "
                                           f"({type(error).__name__}: {error}); this is a bug "
                                           "in rendervisor."))
                finally:
                    self._feed(item, TaskReturned())
        finally:
            if worker is not None:
                self.pool.release(worker)

    def _next(self) -> tuple[ItemRun, int, Chunk] | None:
        with self._lock:
            while self._queue:
                item, index, chunk = self._queue.popleft()
                if item.finished:
                    continue
                if not item.started and not self._start(item):
                    continue
                item.handle(TaskTaken())
                return item, index, chunk
        return None

    def _start(self, item: ItemRun) -> bool:
        """Start an item (under the lock): make, open, check and hold its output folder, and
        remove the temporaries a killed render left there for the files it writes
        (leftovers.py). False, the item failed, when its folder cannot be had."""
        files = self._files[item]
        try:
            files.folder = OutputFolder.open(folder_to_hold(item.plan.output), self.check_write,
                                             made=files.opened.made)
            files.opened.held = files.folder
            self._leftovers.remove_for(files.folder, item.plan.files())
        except Exception as error:  # OSError, or the write rule's own sentence
            self._announce(item, item.handle(FolderRefused(str(error))))
            return False
        self._announce(item, item.handle(Began()))  # its first chunk goes
        return True

    def _run_chunk(self, worker: Worker | None, item: ItemRun, index: int,
                   chunk: Chunk) -> Worker | None:
        """Run one task, once more on a fresh worker if its worker died; the worker to go on
        with."""
        files = self._files[item]
        for attempt in (1, 2):
            if worker is None:
                try:
                    worker = self.pool.acquire(self.kind, self.cancel)
                except JobFailed as error:
                    if not self.stopped:
                        self._feed(item, Broke(f"{item.plan.id} failed: no render worker could "
                                               f"be started ({error})."))
                    return None
            self._record(item, index, chunk)
            self._feed(item, AttemptStarted(index))
            task, payload = (("audio_mix", sound_payload(item.plan, chunk)) if index == SOUND
                             else ("render_chunk", chunk_payload(item.plan, chunk,
                                                                 item.keep_stopped)))
            payload["folder"] = files.folder.identity  # the workers write nowhere else
            # An item rendering template values draws its own document (render/plan.py).
            snapshot_id, document = item.plan.snapshot or (self.snapshot_id, self.document)
            try:
                value = run_with_snapshot(
                    self.pool, worker, task, payload,
                    snapshot_id, document, cancel=self.cancel,
                    on_progress=lambda number: self._frame_written(item, index, number))
            except JobFailed as error:
                if not worker.alive:
                    self.pool.release(worker)  # retired; the pool starts a replacement
                    worker = None
                if self.stopped:
                    return worker
                frames = tuple(chunk.frames) if index != SOUND else ()
                if self._feed(item, TaskFailed(index, frames, str(error), error.reason,
                                               attempt, error)):
                    log.warning("%s; retrying %s of %s on a fresh worker", error,
                                _what(index, chunk), item.plan.id)
                    self._remove_temporaries(item, index, chunk)
                    chunk = with_new_token(chunk)
                    if index == SOUND:
                        item.plan.sound = chunk
                    continue
                return worker
            self._task_done(item, index, chunk, value)
            return worker
        return worker

    def _task_done(self, item: ItemRun, index: int, chunk, value: dict) -> None:
        segment = value.get("segment")
        cache = self._files[item].cache
        # A segment drawn without its footage is no segment to keep: the item fails for it.
        if segment is not None and cache is not None and not value.get("missing"):
            segment = cache.keep(chunk, segment, self._files[item].opened)
        frames = tuple(chunk.frames) if index != SOUND else ()
        self._feed(item, TaskFinished(index, frames, value, segment))

    def _record(self, item: ItemRun, index: int, chunk) -> None:
        """Record what the task may create, before it is sent: a frame that exists already is
        not ours until the worker says it wrote it (see _frame_written)."""
        opened = self._files[item].opened
        paths = [path for path in _task_paths(item.plan, index, chunk)
                 if not opened.exists(path)]
        with self._lock:
            opened.add_all(paths)

    def _remove_temporaries(self, item: ItemRun, index: int, chunk) -> None:
        """Remove what a dead attempt at `chunk` left half-written: its temporaries (named by
        its token, so the retry never writes them). Its finished frames stay; the retry
        replaces them. Without this, an item that then completes would keep them as output."""
        finals = ({item.plan.frame_file(number) for number in chunk.frames}
                  if item.plan.is_sequence else set())
        temporaries = [path for path in _task_paths(item.plan, index, chunk)
                       if path not in finals]
        with self._lock:
            for path in temporaries:
                self._files[item].opened.remove(path)  # one that cannot go stays recorded

    # -- reports from the workers ------------------------------------------------------------

    def _frame_written(self, item: ItemRun, index: int, number) -> None:
        if item.plan.is_sequence:
            with self._lock:
                self._files[item].opened.add(item.plan.frame_file(number))
        self._feed(item, FrameWritten(index, number))

    def _report_progress(self, written: int, message: str) -> None:
        """Pass a count on unless a later one went first (two workers' reports can cross
        between the count and the call), so progress only grows and the last is the total."""
        with self._progress_lock:
            if written <= self._reported:
                return
            self._reported = written
            self._on_progress(written, self.total, message)


def chunk_payload(plan: ItemPlan, chunk: Chunk, keep_stopped: bool = False) -> dict:
    """The render_chunk job for one chunk of an item (workers/chunk_task.py); `keep_stopped`:
    a cancelled worker leaves the frames it finished (ItemRun.keep_stopped)."""
    return {"comp": plan.comp["id"], "frames": list(chunk.frames), "keepStopped": keep_stopped,
            "firstIndex": chunk.first_index, "token": chunk.token,
            "keyframeInterval": chunk.keyframe_interval, "format": plan.format,
            "output": plan.output, "frameRate": plan.frame_rate,
            "codecOptions": plan.codec_options, "skipExisting": plan.skip_existing,
            "scale": plan.scale, "transparent": plan.transparent,
            "startNumber": plan.start_number, "display": plan.display, "view": plan.view,
            "colorTags": plan.color_tags, "placeholders": plan.placeholders is not None}


def chunk_files(plan: ItemPlan, chunk: Chunk) -> list[str]:
    """Every file the chunk of an item can create (chunk_paths with the item's numbering)."""
    return chunk_paths(chunk, plan.format, plan.output, plan.start_number)


def _task_paths(plan: ItemPlan, index: int, chunk) -> list[str]:
    """Every file one of an item's tasks can create: a chunk's, or the sound track."""
    if index == SOUND:
        return [chunk.path(plan.output)]
    return chunk_files(plan, chunk)


def _what(index: int, chunk, doing: bool = False) -> str:
    """A task, as a log line or a failure names it."""
    if index == SOUND:
        return "mixing its sound" if doing else "its sound"
    return f"rendering frames {_span(chunk)}" if doing else f"frames {_span(chunk)}"


def _span(chunk: Chunk) -> str:
    first, last = chunk.frames[0], chunk.frames[-1]
    return f"{first}-{last}" if first != last else str(first)


def _make_settings_ahead(caches: list[SegmentCache], cancel: Cancel) -> None:
    """Each cache's key settings made ahead of its first segment, in queue order, until the
    render is stopped (a template's hundreds of rows need none of them then). A failure is
    left where it would have come anyway: the render's own thread asks again when a segment
    is done, and the item fails there as any failure of the render does; raised on this
    thread, it would only be printed, out of any item's hearing."""
    for cache in caches:
        if cancel.cancelled:
            return
        try:
            cache.settings()
        except Exception:  # noqa: BLE001 (asked again, and reported, by the render)
            return
