"""supervisor/render/item_run.py: one item's life in a render, driven event by event on a clock
the test moves. No worker, no file, no sleep."""

from __future__ import annotations

import pytest

from supervisor.render.item_run import (AttemptStarted, Announce, Began, Broke, ChunkCached,
                                        CountFrame, FolderRefused, FrameWritten, ItemRun,
                                        LogFailure, OutputBroken, OutputFailed, OutputPlaced,
                                        PlaceOutput, RenderEnded, Retry, Settle, Status,
                                        TaskFailed, TaskFinished, TaskReturned, TaskTaken)
from supervisor.render.plan import ItemPlan
from supervisor.render.sound_jobs import SOUND
from workers.exporter import Chunk

COMP = {"id": "c1", "name": "Main", "frameRate": 30}
FIRST, SECOND = (0, 1, 2), (3, 4, 5)


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


def plan(fmt="png", output="/out/Main_[#####].png", chunks=(FIRST, SECOND), **options):
    frames = [number for chunk in chunks for number in chunk]
    return ItemPlan(id="Main", comp=COMP, format=fmt, output=output, frames=frames,
                    codec_options={}, skip_existing=False,
                    chunks=[Chunk(tuple(chunk), frames.index(chunk[0])) for chunk in chunks],
                    **options)


def item(clock, **options) -> ItemRun:
    keep_stopped = options.pop("keep_stopped", False)
    return ItemRun(plan(**options), clock=clock, keep_stopped=keep_stopped)


def rendering(clock, **options) -> ItemRun:
    made = item(clock, **options)
    assert made.handle(Began()) == [Announce(Status.RENDERING, 0.0)]
    return made


def run_task(made: ItemRun, index: int, frames, written=None) -> list:
    """A task taken, attempted, its frames written, its answer in: every action that gave."""
    actions = made.handle(TaskTaken()) + made.handle(AttemptStarted(index))
    for number in (frames if written is None else written):
        actions += made.handle(FrameWritten(index, number))
    actions += made.handle(TaskFinished(index, tuple(frames), {}))
    return actions + made.handle(TaskReturned())


def of(kind, actions):
    return [action for action in actions if isinstance(action, kind)]


# -- the way to done ------------------------------------------------------------------------------

def test_an_item_whose_tasks_all_finish_places_its_output_then_is_done_and_settled(clock):
    made = rendering(clock)
    assert of(PlaceOutput, run_task(made, 0, FIRST)) == []
    clock.now += 2.5
    assert of(PlaceOutput, run_task(made, 1, SECOND)) == [PlaceOutput()]
    assert made.status is Status.RENDERING
    assert made.handle(OutputPlaced()) == [Settle(True, ()), Announce(Status.DONE, 1.0)]
    assert made.status is Status.DONE and made.seconds == 2.5
    assert made.handle(RenderEnded()) == []  # settled once
    report = made.report()
    assert (report["status"], report["framesWritten"], report["failedFrames"]) == \
        ("done", 6, None)


def test_each_frame_counts_once_and_progress_only_grows(clock):
    made = rendering(clock)
    actions = run_task(made, 0, FIRST)
    assert of(CountFrame, actions) == [CountFrame("Main: 1/6 frames"),
                                      CountFrame("Main: 2/6 frames"),
                                      CountFrame("Main: 3/6 frames")]
    fractions = [action.fraction for action in of(Announce, actions)]
    assert fractions == sorted(fractions) == [1 / 6, 2 / 6, 3 / 6]


def test_a_retried_chunks_redone_frames_are_not_counted_again(clock):
    made = rendering(clock)
    made.handle(TaskTaken())
    made.handle(AttemptStarted(0))
    counted = made.handle(FrameWritten(0, 0)) + made.handle(FrameWritten(0, 1))
    assert made.handle(TaskFailed(0, FIRST, "render worker 1 was killed", "died", 1)) == [Retry()]
    made.handle(AttemptStarted(0))
    for number in FIRST:
        counted += made.handle(FrameWritten(0, number))
    assert len(of(CountFrame, counted)) == 3 and made.written == 3
    assert made.fraction == 0.5


def test_a_resumed_videos_cached_chunks_are_done_before_it_starts(clock):
    made = item(clock, fmt="h264", output="/out/Main.mp4", resume=True)
    assert made.handle(ChunkCached(0, FIRST, "/out/.cache/seg0.mp4")) == []
    assert (made.chunks_done, made.skipped_frames, made.segments) == \
        (1, 3, {0: "/out/.cache/seg0.mp4"})
    made.handle(Began())
    assert of(PlaceOutput, run_task(made, 1, SECOND)) == [PlaceOutput()]
    assert made.report()["framesSkipped"] == 3


def test_the_sound_comes_in_before_the_output_is_placed(clock):
    sound_plan = plan(fmt="h264", output="/out/Main.mp4", chunks=(FIRST,))
    sound_plan.sound = object()  # a SoundPlan: only its presence matters here
    made = ItemRun(sound_plan, clock=clock)
    made.handle(Began())
    assert of(PlaceOutput, run_task(made, 0, FIRST)) == []
    assert of(PlaceOutput, run_task(made, SOUND, ())) == [PlaceOutput()]


# -- failing ----------------------------------------------------------------------------------

def test_a_worker_death_is_retried_once_then_fails_the_item_naming_the_frames(clock):
    made = rendering(clock)
    made.handle(TaskTaken())
    assert made.handle(TaskFailed(1, SECOND, "render worker 1 died", "wedged", 1)) == [Retry()]
    actions = made.handle(TaskFailed(1, SECOND, "render worker 2 died", "died", 2))
    message = ("Main failed while rendering frames 3-5: render worker 2 died (a retry on a "
               "fresh worker failed too).")
    assert actions == [LogFailure(message), Announce(Status.FAILED, 0.0)]
    assert made.status is Status.FAILED and made.error == message


@pytest.mark.parametrize("reason, tail", [
    ("memory", "; simplify the comp, or give workers more memory"),
    ("task", "."), ("internal", ".")])
def test_a_failure_that_a_fresh_worker_would_not_mend_is_not_retried(clock, reason, tail):
    made = rendering(clock)
    actions = made.handle(TaskFailed(0, FIRST, "it broke", reason, 1))
    assert of(Retry, actions) == [] and made.status is Status.FAILED
    assert tail in made.error


def test_a_failed_item_keeps_the_frames_of_its_chunks_that_finished(clock):
    """docs/outputs.md: a failed sequence keeps its finished frames for a rerun."""
    made = rendering(clock)
    run_task(made, 0, FIRST)
    made.handle(TaskTaken())
    made.handle(TaskFailed(1, SECOND, "it broke", "task", 1))
    assert made.handle(TaskReturned()) == [
        Settle(False, tuple(f"/out/Main_{number:05d}.png" for number in FIRST))]
    report = made.report()
    assert (report["framesWritten"], report["failedFrames"]) == (3, "3-5")


def test_a_failed_item_is_settled_when_its_last_task_returns_not_before(clock):
    made = rendering(clock)
    made.handle(TaskTaken())
    made.handle(TaskTaken())
    made.handle(TaskFailed(0, FIRST, "it broke", "task", 1))
    assert made.handle(TaskReturned()) == []  # the other task is still out
    # It finishes after the failure: its frames stay with the failed item.
    assert made.handle(TaskFinished(1, SECOND, {})) == []
    assert made.handle(TaskReturned()) == [
        Settle(False, tuple(f"/out/Main_{number:05d}.png" for number in SECOND))]
    assert made.handle(RenderEnded()) == []


def test_a_chunk_drawn_without_its_footage_fails_the_item_and_keeps_nothing_of_it(clock):
    made = rendering(clock)
    made.handle(TaskTaken())
    made.handle(AttemptStarted(0))
    for number in FIRST:
        made.handle(FrameWritten(0, number))
    actions = made.handle(TaskFinished(0, FIRST, {"missing": ["clip.mov"]}))
    assert made.status is Status.FAILED and "clip.mov" in made.error
    assert of(LogFailure, actions) and made.kept_frames() == []


def test_a_join_that_fails_fails_the_item(clock):
    made = rendering(clock, fmt="h264", output="/out/Main.mp4")
    run_task(made, 0, FIRST)
    run_task(made, 1, SECOND)
    assert of(LogFailure, made.handle(OutputFailed("No space left on device")))
    assert made.status is Status.FAILED
    assert "joining its video segments: No space left on device" in made.error
    assert made.handle(RenderEnded()) == [Settle(False, ())]  # a video keeps no frames


def test_a_folder_that_cannot_be_had_fails_the_item_before_any_task(clock):
    made = item(clock)
    assert made.handle(FolderRefused("Permission denied")) == [Announce(Status.FAILED, 0.0)]
    assert made.finished and "could not be made or opened (Permission denied)" in made.error


def test_an_item_failed_twice_keeps_its_first_reason(clock):
    made = rendering(clock)
    made.handle(Broke("Main failed: no render worker could be started."))
    assert made.handle(Broke("something else")) == []
    assert made.error == "Main failed: no render worker could be started."


# -- stopping at every state ----------------------------------------------------------------------

def test_a_render_that_ends_before_the_item_started_leaves_it_stopped(clock):
    made = item(clock)
    assert made.handle(RenderEnded()) == [Settle(False, ()), Announce(Status.STOPPED, 0.0)]
    assert made.report()["status"] == "stopped" and made.seconds == 0.0


def test_a_stopped_sequence_removes_its_frames_unless_it_keeps_them(clock):
    for keep_stopped, kept in ((False, ()), (True, ("/out/Main_00000.png",
                                                    "/out/Main_00001.png"))):
        made = rendering(clock, keep_stopped=keep_stopped)
        made.handle(TaskTaken())
        made.handle(AttemptStarted(0))
        made.handle(FrameWritten(0, 0))
        made.handle(FrameWritten(0, 1))
        made.handle(TaskReturned())
        clock.now += 1
        assert made.handle(RenderEnded()) == [Settle(False, kept),
                                              Announce(Status.STOPPED, 2 / 6)]
        assert made.seconds == 1


def test_a_stop_that_comes_as_the_output_is_placed_leaves_it_done(clock):
    made = rendering(clock)
    run_task(made, 0, FIRST)
    run_task(made, 1, SECOND)
    made.handle(OutputPlaced())
    assert made.handle(RenderEnded()) == [] and made.status is Status.DONE


def test_a_failed_item_stays_failed_when_the_render_ends(clock):
    made = rendering(clock)
    made.handle(Broke("it broke"))
    made.handle(RenderEnded())
    assert made.status is Status.FAILED


def test_an_item_with_nothing_to_write_is_done_from_the_start(clock):
    made = ItemRun(plan(chunks=()), clock=clock)
    assert made.status is Status.DONE and made.finished


def test_an_item_refused_by_its_plan_is_failed_from_the_start(clock):
    made = ItemRun(plan(error="Main refused: its output is outside the roots."), clock=clock)
    assert made.status is Status.FAILED
    assert made.report()["error"] == "Main refused: its output is outside the roots."


# -- every state: the render ending, a worker dying, a frame coming in late ----------------------

def in_state(clock, state: Status) -> ItemRun:
    """An item brought to `state` by the events a render feeds it, its tasks all returned."""
    made = item(clock)
    if state is Status.QUEUED:
        return made
    made.handle(Began())
    if state is Status.DONE:
        run_task(made, 0, FIRST)
        run_task(made, 1, SECOND)
        made.handle(OutputPlaced())
    elif state is Status.FAILED:
        made.handle(TaskTaken())
        made.handle(TaskFailed(0, FIRST, "it broke", "task", 1))
        made.handle(TaskReturned())
    elif state is Status.STOPPED:
        made.handle(RenderEnded())
    assert made.status is state
    return made


ENDED = {Status.QUEUED: [Settle(False, ()), Announce(Status.STOPPED, 0.0)],
         Status.RENDERING: [Settle(False, ()), Announce(Status.STOPPED, 0.0)],
         Status.DONE: [], Status.FAILED: [], Status.STOPPED: []}


@pytest.mark.parametrize("state", list(Status))
def test_the_render_ending_in_every_state(clock, state):
    made = in_state(clock, state)
    assert made.handle(RenderEnded()) == ENDED[state]
    assert made.status is (Status.STOPPED if state in (Status.QUEUED, Status.RENDERING)
                           else state)
    assert made.handle(RenderEnded()) == []  # settled once, announced once


@pytest.mark.parametrize("state", list(Status))
def test_a_worker_dying_in_every_state(clock, state):
    """Only a rendering item runs its task again: a finished or stopped one has no use for it
    (its queued tasks are dropped too)."""
    made = in_state(clock, state)
    died = TaskFailed(1, SECOND, "render worker 1 died", "died", 1)
    assert made.handle(died) == ([Retry()] if state is Status.RENDERING else [])
    assert made.status is state


@pytest.mark.parametrize("state", [Status.FAILED, Status.DONE])
def test_a_frame_written_after_the_item_ended_does_not_announce_it_rendering(clock, state):
    """Another chunk of a failed item still drawing: the queue goes on saying failed."""
    made = in_state(clock, state)
    made.handle(AttemptStarted(1))
    announced = of(Announce, made.handle(FrameWritten(1, 3)))
    assert [action.status for action in announced] in ([state], [])
    assert made.status is state


def test_progress_only_grows_however_frames_come(clock):
    """Frames of two chunks interleaved, one retried midway: the fraction never goes back."""
    made = rendering(clock)
    fractions = []
    events = [AttemptStarted(0), AttemptStarted(1), FrameWritten(0, 0), FrameWritten(1, 3),
              FrameWritten(1, 4), AttemptStarted(1), FrameWritten(1, 3), FrameWritten(0, 1),
              FrameWritten(1, 4), FrameWritten(1, 5), FrameWritten(0, 2)]
    for event in events:
        fractions += [action.fraction for action in of(Announce, made.handle(event))]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert made.written == 6


def test_a_sequence_whose_frames_read_back_broken_keeps_the_rest_and_fails(clock):
    made = rendering(clock)
    run_task(made, 0, FIRST)
    made.handle(TaskTaken())
    made.handle(TaskFinished(1, SECOND, {}))
    assert of(LogFailure, made.handle(OutputBroken(frames=(4,))))
    assert made.status is Status.FAILED and "(4)" in made.error
    assert made.handle(TaskReturned()) == [Settle(False, tuple(
        f"/out/Main_{number:05d}.png" for number in (0, 1, 2, 3, 5)))]
    assert made.report()["failedFrames"] == "4"


def test_a_video_that_reads_back_broken_fails_and_keeps_nothing(clock):
    made = rendering(clock, fmt="h264", output="/out/Main.mp4")
    run_task(made, 0, FIRST)
    run_task(made, 1, SECOND)
    made.handle(OutputBroken(problem="with no video stream"))
    assert "read back with no video stream" in made.error
    assert made.handle(RenderEnded()) == [Settle(False, ())]
