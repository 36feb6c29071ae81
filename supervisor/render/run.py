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

Every chunk job shares the run's one cancel scope: `stop()` wakes every wait at once, each
worker stops at its next frame (or is killed after the teardown grace), and the threads end.
Files are recorded here, before dispatch, because a killed worker's own record dies with it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import Callable

from protocol.cancel import Cancel
from protocol.wire.frames import OUT_OF_MEMORY
from protocol.model.frame_spec import spec_of
from supervisor.engine.probes import Probes
from supervisor.runtime.pool import JobFailed, Pool, Worker
from supervisor.render.leftovers import Leftovers
from supervisor.render.plan import ItemPlan
from supervisor.render.segment_cache import SegmentCache, content_key, remove_cache
from supervisor.render.snapshot_jobs import run_with_snapshot
from supervisor.render.verified_outputs import broken_frames, video_problem
from supervisor.render.sound_jobs import SOUND, place_output, sound_payload, sound_warnings
from supervisor.runtime.worker_memory import LIMIT_SETTING
from workers.exporter import Chunk, JoinError, OpenedFiles, chunk_paths, with_new_token
from workers.exporter.output_folders import OutputFolder, folder_to_hold

log = logging.getLogger("rendervisor.render")

# Failures after which a chunk is worth running again on a fresh worker: the worker, not the
# chunk, is what broke. Retried once only: a chunk that kills two workers will kill a third.
RETRYABLE = ("died", "wedged")


class ItemRun:
    """One item's state during the render."""

    def __init__(self, plan: ItemPlan, cache: SegmentCache | None = None,
                 keep_stopped: bool = False) -> None:
        self.plan = plan
        self.keep_stopped = keep_stopped  # a stopped sequence keeps its reported frames
        self.opened = OpenedFiles()
        self.folder: OutputFolder | None = None  # held from its first task until settled
        self.running = 0  # its tasks out on workers
        self.settled = False
        self.cache = cache  # a video's finished segments (segment_cache.py)
        self.segments: dict[int, str | None] = {}
        self.chunks_done = 0
        self.sound_done = plan.sound is None
        self.warnings: list[str] = []
        self.written = 0
        self.counted: dict[int, int] = {}  # frames counted per chunk (a retry counts again)
        self.attempt_frames: dict[int, int] = {}
        # Chunks whose every frame was drawn right (no footage missing): their frames stay
        # even when another chunk fails the item, so a rerun with skipExisting picks up there.
        self.finished_chunks: list[Chunk] = []
        self.reported: set[int] = set()  # frames a worker said it wrote (each is whole)
        self.broken: set[int] = set()  # frames not whole when read back: never kept
        self.skipped_frames = 0
        self.cached_frames: set[int] = set()  # a resumed video's, from its segment cache
        self.started = False
        self.started_at: float | None = None  # time.monotonic() of its first chunk
        self.seconds = 0.0
        self.status = "queued"
        self.error: str | None = plan.error
        self.failure: JobFailed | None = None  # what failed the chunk that failed the item
        if plan.error:
            self.status = "failed"
        elif not plan.chunks and plan.sound is None:
            self.status = "done"  # nothing to write: every frame exists, or skipped whole

    @property
    def finished(self) -> bool:
        return self.status in ("done", "failed")

    def chunks_to_render(self) -> list[tuple[int, Chunk]]:
        """The item's chunks, less those a resumed video has in its cache already (taken as
        done, their frames counted as skipped)."""
        todo = []
        for index, chunk in enumerate(self.plan.chunks):
            if self.plan.resume and self.cache is not None and self.cache.has(chunk):
                self.segments[index] = self.cache.path(chunk)
                self.chunks_done += 1
                self.skipped_frames += len(chunk.frames)
                self.cached_frames.update(chunk.frames)
            else:
                todo.append((index, chunk))
        return todo

    @property
    def label(self) -> str:
        """The item and its comp, as progress names them (once, when they are one name)."""
        name = self.plan.comp["name"]
        return self.plan.id if self.plan.id == name else f"{self.plan.id} ({name})"

    def kept_frames(self) -> list[int]:
        """The frames an item keeps: a failed one those of its chunks that finished (a
        failing chunk's may be drawn without their footage), a stopped sequence every frame a
        worker reported written or none (keep_stopped), a done one all of them."""
        if self.finished:
            return [number for chunk in self.finished_chunks for number in chunk.frames
                    if number not in self.broken]
        return sorted(self.reported) if self.plan.is_sequence and self.keep_stopped else []

    def kept_files(self) -> list[str]:
        """The frames of a sequence item that did not complete kept for a rerun."""
        if not self.plan.is_sequence:
            return []
        return [self.plan.frame_file(number) for number in self.kept_frames()]

    def report(self) -> dict:
        """The item's entry in the render's report: what it wrote, what it found written
        already, the frames to render again (failed: a frame spec), and the seconds it took."""
        entry = {"item": self.plan.id, "status": self.status, "output": self.plan.output}
        if self.plan.skipped:
            entry["skipped"] = True
        if self.error and self.status == "failed":
            entry["error"] = self.error
        warnings = self.warnings + ([placeholder_warning(self.plan.placeholders)]
                                    if self.plan.placeholders else [])
        if warnings:
            entry["warnings"] = warnings
        kept = self.kept_frames()
        entry["framesWritten"] = len(kept)
        entry["framesSkipped"] = self.plan.frames_skipped + self.skipped_frames
        entry["failedFrames"] = spec_of(set(self.plan.frames) - set(kept) - self.cached_frames) \
            if self.status == "failed" else None
        entry["seconds"] = round(self.seconds, 3)
        return entry

    def tasks(self) -> list[tuple[int, object]]:
        """(index, what to run): the sound first, so it mixes while the chunks draw."""
        sound = [(SOUND, self.plan.sound)] if self.plan.sound is not None else []
        return sound + self.chunks_to_render()


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

        self.items = [ItemRun(plan, cache_for(plan), keep_stopped) for plan in plans]
        self._queue: deque[tuple[ItemRun, int, Chunk]] = deque(
            (item, index, chunk) for item in self.items if not item.finished
            for index, chunk in item.tasks())
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

    @property
    def item_ids(self) -> list[str]:
        return [item.plan.id for item in self.items]

    # -- control --------------------------------------------------------------------------------

    @property
    def stopped(self) -> bool:
        return self.cancel.cancelled

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
                if not item.finished and item.chunks_done == len(item.plan.chunks) and \
                        item.sound_done:
                    with self._lock:
                        started = self._start(item)
                    if started:
                        self._finish(item)
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            for item in self.items:
                self._settle(item)
                if not item.finished:
                    item.status = "stopped"
                    self._on_item(item.plan.id, "stopped", self._fraction(item))
            if not self.stopped:
                # Progress ends at its total, also when an item failed or nothing was left
                # to write: a client's bar that stops at 47/48 reads as a render that hung.
                self._report_progress(self.total, f"finished: {self.written} of {self.total} "
                                                  "frames written")
            for item in self.items:
                if item.started_at is not None and not item.seconds:
                    item.seconds = time.monotonic() - item.started_at
            items = [item.report() for item in self.items]
            self.report = {"completed": sum(entry["status"] == "done" for entry in items),
                           "failed": sum(entry["status"] == "failed" for entry in items),
                           "seconds": round(time.monotonic() - started, 3), "items": items}
            return self.report
        finally:
            self.cancel.close()  # a child of its caller's scope lets go of it
            self.ended.set()

    # -- one thread per render worker --------------------------------------------------------

    def _serve(self) -> None:
        worker: Worker | None = None
        try:
            while True:
                task = self._next()
                if task is None:
                    return
                try:
                    worker = self._run_chunk(worker, *task)
                except JobFailed:
                    return  # the pool is closing, or the run stopped while acquiring a worker
                except Exception as error:  # a bug here: that item fails, the others go on
                    log.exception("rendering %s failed unexpectedly", task[0].plan.id)
                    self._fail(task[0], f"{task[0].plan.id} failed unexpectedly "
                                        f"({type(error).__name__}: {error}); this is a bug in "
                                        "rendervisor.")
                finally:
                    self._returned(task[0])
        finally:
            if worker is not None:
                self.pool.release(worker)

    def _returned(self, item: ItemRun) -> None:
        """One of the item's tasks is back: a failed item with none left out is settled now,
        so its folder is let go without waiting for the whole render."""
        with self._lock:
            item.running -= 1
            idle = item.running == 0 and item.status == "failed"
        if idle:
            self._settle(item)

    def _settle(self, item: ItemRun) -> None:
        """What an item leaves once nothing of it runs (once): a done item its output, any
        other what it wrote less the frames it keeps for a rerun (kept_files); then its
        folder is let go."""
        with self._lock:
            if item.settled:
                return
            item.settled = True
        if item.status != "done":
            item.opened.keep(item.kept_files())
            item.opened.remove_all()
        if item.folder is not None:
            item.folder.close()

    def _next(self) -> tuple[ItemRun, int, Chunk] | None:
        with self._lock:
            while self._queue:
                item, index, chunk = self._queue.popleft()
                if item.status == "failed":
                    continue
                if not item.started and not self._start(item):
                    continue
                item.running += 1
                return item, index, chunk
        return None

    def _start(self, item: ItemRun) -> bool:
        """Start an item (under the lock): make, open, check and hold its output folder, and
        remove the temporaries a killed render left there for the files it writes
        (leftovers.py). False, the item failed, when its folder cannot be had."""
        item.started = True
        item.started_at = time.monotonic()
        item.status = "rendering"
        try:
            item.folder = OutputFolder.open(folder_to_hold(item.plan.output), self.check_write,
                                            made=item.opened.made)
            item.opened.held = item.folder
            self._leftovers.remove_for(item.folder, item.plan.files())
        except Exception as error:  # OSError, or the write rule's own sentence
            item.status = "failed"
            item.error = (f"{item.plan.id} failed: the folder for {item.plan.output} could not "
                          f"be made or opened ({error}).")
            self._on_item(item.plan.id, "failed", 0.0)
            return False
        self._on_item(item.plan.id, "rendering", 0.0)  # its first chunk goes
        return True

    def _run_chunk(self, worker: Worker | None, item: ItemRun, index: int,
                   chunk: Chunk) -> Worker | None:
        """Run one chunk, retrying once after a worker's death; the worker to go on with."""
        for attempt in (1, 2):
            if worker is None:
                try:
                    worker = self.pool.acquire(self.kind, self.cancel)
                except JobFailed as error:
                    if not self.stopped:
                        self._fail(item, f"{item.plan.id} failed: no render worker could be "
                                         f"started ({error}).")
                    return None
            self._record(item, index, chunk)
            with self._lock:
                item.attempt_frames[index] = 0
            task, payload = (("audio_mix", sound_payload(item.plan, chunk)) if index == SOUND
                             else ("render_chunk", chunk_payload(item.plan, chunk,
                                                                 item.keep_stopped)))
            payload["folder"] = item.folder.identity  # the workers write nowhere else
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
                if error.reason in RETRYABLE and attempt == 1:
                    log.warning("%s; retrying %s of %s on a fresh worker", error,
                                _what(index, chunk), item.plan.id)
                    self._remove_temporaries(item, index, chunk)
                    chunk = with_new_token(chunk)
                    if index == SOUND:
                        item.plan.sound = chunk
                    continue
                if error.reason == OUT_OF_MEMORY:  # not retried: it would need as much again
                    tail = f"; simplify the comp, or give workers more memory ({LIMIT_SETTING})"
                else:
                    tail = " (a retry on a fresh worker failed too)" if attempt == 2 else ""
                self._fail(item, f"{item.plan.id} failed while {_what(index, chunk, True)}: "
                                 f"{error}{tail}.", error)
                return worker
            self._chunk_done(item, index, chunk, value)
            return worker
        return worker

    def _record(self, item: ItemRun, index: int, chunk) -> None:
        """Record what the task may create, before it is sent: a frame that exists already is
        not ours until the worker says it wrote it (see _frame_written)."""
        paths = [path for path in _task_paths(item.plan, index, chunk)
                 if not item.opened.exists(path)]
        with self._lock:
            item.opened.add_all(paths)

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
                item.opened.remove(path)  # one that cannot be removed stays recorded

    # -- reports from the workers ------------------------------------------------------------

    def _frame_written(self, item: ItemRun, index: int, number) -> None:
        with self._lock:
            if item.plan.is_sequence:
                item.opened.add(item.plan.frame_file(number))
                item.reported.add(number)
            item.attempt_frames[index] += 1
            if item.attempt_frames[index] <= item.counted.get(index, 0):
                return  # a retried chunk redoing frames already counted
            item.counted[index] = item.attempt_frames[index]
            item.written += 1
            self.written += 1
            written = self.written
            # Under the lock, so two workers' reports reach renderQueue.list in order.
            self._on_item(item.plan.id, "rendering", self._fraction(item))
        self._report_progress(written, f"{item.label}: {item.written + item.skipped_frames}"
                                       f"/{len(item.plan.frames)} frames")

    def _report_progress(self, written: int, message: str) -> None:
        """Pass a count on unless a later one went first (two workers' reports can cross
        between the count and the call), so progress only grows and the last is the total."""
        with self._progress_lock:
            if written <= self._reported:
                return
            self._reported = written
            self._on_progress(written, self.total, message)

    def _chunk_done(self, item: ItemRun, index: int, chunk: Chunk, value: dict) -> None:
        if item.plan.placeholders is not None:
            # A render allowed to go on without footage: its frames show colour bars there.
            with self._lock:
                item.plan.placeholders.extend(path for path in value.get("missing", ())
                                              if path not in item.plan.placeholders)
        elif value.get("missing"):
            # Its frames were drawn without that footage: they go with the item's failure.
            self._fail(item, f"{item.plan.id} failed: footage could not be read: "
                             f"{', '.join(value['missing'])}; check the files, then render again.")
            return
        segment = value.get("segment")
        if segment is not None and item.cache is not None:
            segment = item.cache.keep(chunk, segment, item.opened)
        with self._lock:
            if item.status == "failed":
                if index != SOUND:
                    item.finished_chunks.append(chunk)  # its frames stay with the failure
                return
            if index == SOUND:
                item.sound_done = True
                item.warnings.extend(sound_warnings(item.plan, value))
            else:
                item.finished_chunks.append(chunk)
                item.segments[index] = segment
                item.chunks_done += 1
            if item.chunks_done < len(item.plan.chunks) or not item.sound_done:
                return
        self._finish(item)

    def _finish(self, item: ItemRun) -> None:
        """The item's last task is in: join a video's segments (and its sound track), or put
        a wav in place; the output is then kept."""
        plan = item.plan
        if not plan.is_sequence:
            segments = [item.segments[index] for index in range(len(plan.chunks))]
            try:
                # The cached segments stay until the output is in place: a join that fails
                # (a full disk) leaves them for the rerun.
                place_output(plan, segments, item.opened, remove_segments=item.cache is None)
            except (JoinError, OSError, ValueError) as error:
                self._fail(item, f"{plan.id} failed while joining its video segments: {error}.")
                return
        if not self._verified(item):
            return
        with self._lock:
            # Segments the cache could not take are still this render's temporaries.
            uncached = OpenedFiles([path for path in item.segments.values()
                                    if path is not None and path in item.opened],
                                   held=item.folder)
            # Kept even if a stop came in meanwhile: the output is complete.
            item.opened.keep()
            item.status = "done"
            item.seconds = _since(item.started_at)
        if item.cache is not None:
            uncached.remove_all()
            remove_cache(plan.output, item.folder)
        self._settle(item)
        self._on_item(plan.id, "done", 1.0)

    def _verified(self, item: ItemRun) -> bool:
        """Whether the item's output reads back whole (verified_outputs.py); if not, the item
        fails and what is broken goes (_settle removes a failed item's files but the frames it
        keeps)."""
        plan = item.plan
        if plan.is_sequence:
            item.broken.update(broken_frames(plan, plan.frames))
            if not item.broken:
                return True
            self._fail(item, f"{plan.id} failed: {len(item.broken)} of its frames were not "
                             f"whole images when read back ({spec_of(item.broken)}), so they "
                             "were removed and the rest kept; render it again with "
                             "skipExisting to redo them.")
            return False
        problem = video_problem(plan, self.probes)
        if problem is None:
            return True
        self._fail(item, f"{plan.id} failed: its output {plan.output} was written, but read "
                         f"back {problem}, so it was removed; render it again.")
        return False

    def _fail(self, item: ItemRun, message: str, failure: JobFailed | None = None) -> None:
        with self._lock:
            if item.finished:
                return
            item.status, item.error, item.failure = "failed", message, failure
            item.seconds = _since(item.started_at)
        log.warning("%s", message)
        self._on_item(item.plan.id, "failed", self._fraction(item))

    def _fraction(self, item: ItemRun) -> float:
        total = len(item.plan.frames)
        return (item.written + item.skipped_frames) / total if total else 1.0


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


def placeholder_warning(paths: list[str]) -> str:
    """An item's warning that it was drawn with colour bars in place of missing footage."""
    return (f"rendered with colour bars in place of missing footage: {', '.join(paths)}; put "
            "it back and render again for the finished picture")


def chunk_files(plan: ItemPlan, chunk: Chunk) -> list[str]:
    """Every file the chunk of an item can create (chunk_paths with the item's numbering)."""
    return chunk_paths(chunk, plan.format, plan.output, plan.start_number)


def _since(started: float | None) -> float:
    return time.monotonic() - started if started is not None else 0.0


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
