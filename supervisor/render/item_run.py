"""One item's life in a render, as a state machine with no I/O: typed events in, actions out.

    QUEUED ──Began──► RENDERING ──the last task in: PlaceOutput ... OutputPlaced──► DONE
       │                 │ a task failed past its retry, footage missing, the join failed
       │                 ▼
       └──FolderRefused─► FAILED            (RenderEnded while QUEUED or RENDERING: STOPPED)

Once nothing of the item runs, it is settled, once: a done item keeps its output; any other
removes what it wrote but the frames it keeps for a rerun (`kept_frames`).

The render (supervisor/render/run.py, RenderRun) moves the files and the workers: it feeds what
happened (a task sent, a frame written, a chunk's answer, the output joined, the render's end)
to `ItemRun.handle`, under its lock, since several chunk threads feed one item, and carries
out what comes back (tell the queue, count a frame, join the output, retry the task, settle
the files). What decides is here: which frames count (a retried chunk's redone frames do not),
when the item is complete, when a failure is retried, which frames a failed or stopped item
keeps, what its report says. Time comes from an injected clock, so the tests drive it event
by event with no worker and no file (tests/render/test_item_run.py).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable

from protocol.model.frame_spec import spec_of
from protocol.wire.frames import OUT_OF_MEMORY
from supervisor.render.plan import ItemPlan
from supervisor.render.sound_jobs import SOUND, sound_warnings
from supervisor.runtime.worker_memory import LIMIT_SETTING

# Failures after which a task is worth running again on a fresh worker: the worker, not the
# task, is what broke. Retried once only: a chunk that kills two workers will kill a third.
RETRYABLE = ("died", "wedged")


class Status(enum.StrEnum):
    """An item's status, as the queue and the report name it."""
    QUEUED = "queued"
    RENDERING = "rendering"
    DONE = "done"
    FAILED = "failed"
    STOPPED = "stopped"


# -- events: what happened to the item ---------------------------------------------------------

@dataclass(frozen=True)
class ChunkCached:
    """A resumed video's chunk is in its segment cache: done before the render starts."""
    index: int
    frames: tuple[int, ...]
    segment: str


@dataclass(frozen=True)
class Began:
    """Its first task is taken and its output folder held."""


@dataclass(frozen=True)
class FolderRefused:
    problem: str


@dataclass(frozen=True)
class TaskTaken:
    """One of its tasks is out, on a chunk thread."""


@dataclass(frozen=True)
class AttemptStarted:
    index: int


@dataclass(frozen=True)
class FrameWritten:
    index: int
    number: int


@dataclass(frozen=True)
class TaskFinished:
    """A task's answer: a chunk's (its segment, kept in the cache or not), or the sound's."""
    index: int
    frames: tuple[int, ...]
    value: dict
    segment: str | None = None


@dataclass(frozen=True)
class TaskFailed:
    """A task's job failed (JobFailed's message and reason) on its `attempt` (1 or 2)."""
    index: int
    frames: tuple[int, ...]
    message: str
    reason: str
    attempt: int
    failure: Any = None  # the JobFailed itself, for whoever explains the item's failure


@dataclass(frozen=True)
class Broke:
    """The item cannot go on: no worker could be started, or a bug; `message` says so."""
    message: str


@dataclass(frozen=True)
class TaskReturned:
    """A task is back on its chunk thread, however it went."""


@dataclass(frozen=True)
class OutputPlaced:
    """Its output is in place (a video's segments joined, a wav's track renamed)."""


@dataclass(frozen=True)
class OutputFailed:
    problem: str


@dataclass(frozen=True)
class OutputBroken:
    """Its output, read back, is not whole: a sequence's `frames` (removed, the rest kept),
    or a video's `problem` (the video removed)."""
    frames: tuple[int, ...] = ()
    problem: str | None = None


@dataclass(frozen=True)
class RenderEnded:
    """Every chunk thread has ended: nothing of the item runs any more."""


Event = (ChunkCached | Began | FolderRefused | TaskTaken | AttemptStarted | FrameWritten
         | TaskFinished | TaskFailed | Broke | TaskReturned | OutputPlaced | OutputFailed
         | OutputBroken | RenderEnded)


# -- actions: what the render must do -----------------------------------------------------------

@dataclass(frozen=True)
class Announce:
    """Tell the queue the item's status and how far it is (0 to 1)."""
    status: Status
    fraction: float


@dataclass(frozen=True)
class CountFrame:
    """One more frame of the render written; `message` for its progress."""
    message: str


@dataclass(frozen=True)
class PlaceOutput:
    """Its last task is in: join a video's segments (and its sound), or put a wav in place."""


@dataclass(frozen=True)
class Retry:
    """Run the task again on a fresh worker, under a new token."""


@dataclass(frozen=True)
class Settle:
    """Nothing of it runs: keep everything (`done`), or remove what it wrote but `kept`."""
    done: bool
    kept: tuple[str, ...]


@dataclass(frozen=True)
class LogFailure:
    message: str


Action = Announce | CountFrame | PlaceOutput | Retry | Settle | LogFailure


class ItemRun:
    """One item of a render. `keep_stopped`: a stopped sequence keeps every frame a worker
    reported written (a farm node's preempted task is resumed, not started over)."""

    def __init__(self, plan: ItemPlan, *, clock: Callable[[], float],
                 keep_stopped: bool = False) -> None:
        self.plan = plan
        self.keep_stopped = keep_stopped
        self._clock = clock
        self.status = Status.QUEUED
        self.error: str | None = plan.error
        self.failure: Any = None  # the JobFailed of the task that failed the item
        self.warnings: list[str] = []
        self.segments: dict[int, str | None] = {}
        self.chunks_done = 0
        self.sound_done = plan.sound is None
        self.written = 0
        self.skipped_frames = 0
        self.cached_frames: set[int] = set()  # a resumed video's, from its segment cache
        # Chunks whose every frame was drawn right (no footage missing): their frames stay
        # even when another chunk fails the item, so a rerun with skipExisting picks up there.
        self.finished_frames: list[int] = []
        self.reported: set[int] = set()  # frames a worker said it wrote (each is whole)
        self.broken: set[int] = set()  # frames not whole when read back: never kept
        self._counted: dict[int, int] = {}  # frames counted per task (a retry counts again)
        self._attempt_frames: dict[int, int] = {}
        self.running = 0  # its tasks out on chunk threads
        self.started_at: float | None = None
        self.seconds = 0.0
        self.settled = False
        if plan.error:
            self.status = Status.FAILED
        elif not plan.chunks and plan.sound is None:
            self.status = Status.DONE  # nothing to write: every frame exists, or skipped whole

    # -- what it is ---------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.status in (Status.DONE, Status.FAILED)

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def complete(self) -> bool:
        """Every chunk and the sound are in."""
        return self.chunks_done == len(self.plan.chunks) and self.sound_done

    @property
    def label(self) -> str:
        """The item and its comp, as progress names them (once, when they are one name)."""
        name = self.plan.comp["name"]
        return self.plan.id if self.plan.id == name else f"{self.plan.id} ({name})"

    @property
    def fraction(self) -> float:
        total = len(self.plan.frames)
        return (self.written + self.skipped_frames) / total if total else 1.0

    def kept_frames(self) -> list[int]:
        """The frames an item keeps: a failed one those of its chunks that finished (a
        failing chunk's may be drawn without their footage), a stopped sequence every frame a
        worker reported written or none (keep_stopped), a done one all of them."""
        if self.finished:
            return [number for number in self.finished_frames if number not in self.broken]
        return sorted(self.reported) if self.plan.is_sequence and self.keep_stopped else []

    def kept_files(self) -> tuple[str, ...]:
        """The frames of a sequence item that did not complete kept for a rerun."""
        if not self.plan.is_sequence:
            return ()
        return tuple(self.plan.frame_file(number) for number in self.kept_frames())

    def report(self) -> dict:
        """The item's entry in the render's report: what it wrote, what it found written
        already, the frames to render again (failed: a frame spec), and the seconds it took."""
        entry = {"item": self.plan.id, "status": str(self.status), "output": self.plan.output}
        if self.plan.skipped:
            entry["skipped"] = True
        if self.error and self.status is Status.FAILED:
            entry["error"] = self.error
        warnings = self.warnings + ([placeholder_warning(self.plan.placeholders)]
                                    if self.plan.placeholders else [])
        if warnings:
            entry["warnings"] = warnings
        kept = self.kept_frames()
        entry["framesWritten"] = len(kept)
        entry["framesSkipped"] = self.plan.frames_skipped + self.skipped_frames
        entry["failedFrames"] = spec_of(set(self.plan.frames) - set(kept) - self.cached_frames) \
            if self.status is Status.FAILED else None
        entry["seconds"] = round(self.seconds, 3)
        return entry

    # -- events ---------------------------------------------------------------------------------

    def handle(self, event: Event) -> list[Action]:
        transition = _TABLE.get(type(event))
        return transition(self, event)

    def _chunk_cached(self, event: ChunkCached) -> list[Action]:
        self.segments[event.index] = event.segment
        self.chunks_done += 1
        self.skipped_frames += len(event.frames)
        self.cached_frames.update(event.frames)
        return []

    def _began(self, event: Began) -> list[Action]:
        if self.status is not Status.QUEUED:
            return []
        self.status = Status.RENDERING
        self.started_at = self._clock()
        return [Announce(Status.RENDERING, 0.0)]

    def _folder_refused(self, event: FolderRefused) -> list[Action]:
        self.started_at = self._clock()
        self.status = Status.FAILED
        self.error = (f"{self.plan.id} failed: the folder for {self.plan.output} could not be "
                      f"made or opened ({event.problem}).")
        return [Announce(Status.FAILED, 0.0)]

    def _task_taken(self, event: TaskTaken) -> list[Action]:
        self.running += 1
        return []

    def _attempt_started(self, event: AttemptStarted) -> list[Action]:
        self._attempt_frames[event.index] = 0
        return []

    def _frame_written(self, event: FrameWritten) -> list[Action]:
        if self.plan.is_sequence:
            self.reported.add(event.number)
        self._attempt_frames[event.index] = self._attempt_frames.get(event.index, 0) + 1
        if self._attempt_frames[event.index] <= self._counted.get(event.index, 0):
            return []  # a retried task redoing frames already counted
        self._counted[event.index] = self._attempt_frames[event.index]
        self.written += 1
        # Its status as it stands: another chunk of a failed item may still be drawing.
        return [Announce(self.status, self.fraction),
                CountFrame(f"{self.label}: {self.written + self.skipped_frames}"
                           f"/{len(self.plan.frames)} frames")]

    def _task_finished(self, event: TaskFinished) -> list[Action]:
        value = event.value
        if self.plan.placeholders is not None:
            # A render allowed to go on without footage: its frames show colour bars there.
            self.plan.placeholders.extend(path for path in value.get("missing", ())
                                          if path not in self.plan.placeholders)
        elif value.get("missing"):
            # Its frames were drawn without that footage: they go with the item's failure.
            return self._fail(f"{self.plan.id} failed: footage could not be read: "
                              f"{', '.join(value['missing'])}; check the files, then render "
                              "again.")
        if self.status is not Status.RENDERING:
            if self.status is Status.FAILED and event.index != SOUND:
                self.finished_frames.extend(event.frames)  # its frames stay with the failure
            return []
        if event.index == SOUND:
            self.sound_done = True
            self.warnings.extend(sound_warnings(self.plan, value))
        else:
            self.finished_frames.extend(event.frames)
            self.segments[event.index] = event.segment
            self.chunks_done += 1
        return [PlaceOutput()] if self.complete else []

    def _task_failed(self, event: TaskFailed) -> list[Action]:
        if self.status is not Status.RENDERING:
            return []  # a finished item has no use for the task, nor a second reason
        if event.reason in RETRYABLE and event.attempt == 1:
            return [Retry()]
        if event.reason == OUT_OF_MEMORY:  # not retried: it would need as much again
            tail = f"; simplify the comp, or give workers more memory ({LIMIT_SETTING})"
        else:
            tail = " (a retry on a fresh worker failed too)" if event.attempt == 2 else ""
        doing = ("mixing its sound" if event.index == SOUND
                 else f"rendering frames {_span(event.frames)}")
        return self._fail(f"{self.plan.id} failed while {doing}: {event.message}{tail}.",
                          event.failure)

    def _broke(self, event: Broke) -> list[Action]:
        return self._fail(event.message)

    def _task_returned(self, event: TaskReturned) -> list[Action]:
        self.running -= 1
        # A failed item with nothing left out is settled now, so its folder is let go without
        # waiting for the whole render.
        return self._settle() if self.running == 0 and self.status is Status.FAILED else []

    def _output_placed(self, event: OutputPlaced) -> list[Action]:
        # Done even if a stop came in meanwhile: the output is complete.
        self.status = Status.DONE
        self.seconds = self._since_start()
        return self._settle() + [Announce(Status.DONE, 1.0)]

    def _output_failed(self, event: OutputFailed) -> list[Action]:
        return self._fail(f"{self.plan.id} failed while joining its video segments: "
                          f"{event.problem}.")

    def _output_broken(self, event: OutputBroken) -> list[Action]:
        if event.frames:
            self.broken.update(event.frames)
            return self._fail(f"{self.plan.id} failed: {len(event.frames)} of its frames were "
                              f"not whole images when read back ({spec_of(event.frames)}), so "
                              "they were removed and the rest kept; render it again with "
                              "skipExisting to redo them.")
        return self._fail(f"{self.plan.id} failed: its output {self.plan.output} was written, "
                          f"but read back {event.problem}, so it was removed; render it again.")

    def _render_ended(self, event: RenderEnded) -> list[Action]:
        actions = self._settle()
        if self.status in (Status.QUEUED, Status.RENDERING):
            self.status = Status.STOPPED
            actions.append(Announce(Status.STOPPED, self.fraction))
        if self.started and not self.seconds:
            self.seconds = self._since_start()
        return actions

    # -- endings --------------------------------------------------------------------------------

    def _fail(self, message: str, failure: Any = None) -> list[Action]:
        if self.finished:
            return []
        self.status, self.error, self.failure = Status.FAILED, message, failure
        self.seconds = self._since_start()
        return [LogFailure(message), Announce(Status.FAILED, self.fraction)]

    def _settle(self) -> list[Action]:
        if self.settled:
            return []
        self.settled = True
        done = self.status is Status.DONE
        return [Settle(done, () if done else self.kept_files())]

    def _since_start(self) -> float:
        return self._clock() - self.started_at if self.started_at is not None else 0.0


_TABLE: dict[type, Callable[[ItemRun, Any], list[Action]]] = {
    ChunkCached: ItemRun._chunk_cached,
    Began: ItemRun._began,
    FolderRefused: ItemRun._folder_refused,
    TaskTaken: ItemRun._task_taken,
    AttemptStarted: ItemRun._attempt_started,
    FrameWritten: ItemRun._frame_written,
    TaskFinished: ItemRun._task_finished,
    TaskFailed: ItemRun._task_failed,
    Broke: ItemRun._broke,
    TaskReturned: ItemRun._task_returned,
    OutputPlaced: ItemRun._output_placed,
    OutputFailed: ItemRun._output_failed,
    OutputBroken: ItemRun._output_broken,
    RenderEnded: ItemRun._render_ended,
}


def placeholder_warning(paths: list[str]) -> str:
    """An item's warning that it was drawn with colour bars in place of missing footage."""
    return (f"rendered with colour bars in place of missing footage: {', '.join(paths)}; put "
            "it back and render again for the finished picture")


def _span(frames: tuple[int, ...]) -> str:
    first, last = frames[0], frames[-1]
    return f"{first}-{last}" if first != last else str(first)
