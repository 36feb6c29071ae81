"""Controlling a render: progress, cancel and its cleanup, wait:false with renderQueue.list and
renderQueue.stop, one render at a time, and a render's independence from later edits."""

import os
import signal
import threading
import time

import numpy as np
import pytest

from supervisor.errors import CommandError
from protocol.cancel import Cancel, Cancelled
from tests.helpers.render_sessions import (Recorder, build_comp, busy_render_workers,
                                           expected_frame, files_in, heavy_comp, read_png,
                                           render_session)
from tests.helpers.synthetic_frames import earlier_frame
from workers.compositor import render_frame


# Heavy frames for some 40 s of rendering here (96 took 1.7 s, on a machine 3-5 times faster a
# fraction of a second): every test that stops, cancels or refuses a second render acts on a
# Heavy render no machine finishes first, and a render that is to end names a frame range.
# Frames not rendered cost nothing, but a sequence's plan names each frame (an hour's 86,400
# took seconds), so not an hour.
LONG_HEAVY = 2400


@pytest.fixture
def session():
    with render_session(workers=2) as made:
        build_comp(made.engine, "Main", frames=12)
        heavy_comp(made.engine, "Heavy", frames=LONG_HEAVY)
        yield made


def queue(engine, comp, output, **params):
    return engine.run("renderQueue.add", {"comp": comp, "output": str(output), **params})


def status_of(engine, item):
    return next(i["status"] for i in engine.doc["renderQueue"] if i["id"] == item)


def wait_until(condition, timeout=20.0, ended=lambda: False):
    """Poll `condition`; fail at once, saying so, if `ended()` (the render it waits on ended
    first), rather than at the timeout."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert not ended(), "the render ended before the test could act on it"
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def render_ended(engine, item):
    return lambda: status_of(engine, item) not in ("queued", "rendering")


def test_progress_counts_frames_to_write_and_reaches_the_total(session, tmp_path):
    engine = session.engine
    before = earlier_frame(tmp_path / "f_0003.png")
    queue(engine, "Main", tmp_path / "f_[####].png", skipExisting=True)
    queue(engine, "Main", tmp_path / "v.mp4", codecOptions={"preset": "veryfast"})
    recorder = Recorder(session)
    report = engine.run("renderQueue.render", {}, recorder.ctx)
    assert report["completed"] == 2
    totals = {total for _, total, _ in recorder.events}
    assert totals == {11 + 12}, "one frame exists and is skipped"
    assert max(progress for progress, _, _ in recorder.events) == 23
    assert len(recorder.events) == 23
    assert (tmp_path / "f_0003.png").read_bytes() == before
    assert all(status_of(engine, item["id"]) == "done" for item in engine.doc["renderQueue"])
    listed = engine.run("renderQueue.list", {})["items"]
    assert [entry["progress"] for entry in listed] == [1.0, 1.0]


def test_cancel_removes_what_the_render_wrote_and_keeps_finished_items(session, tmp_path):
    engine = session.engine
    (tmp_path / "keep.txt").write_text("mine")
    existing = earlier_frame(tmp_path / "h_0002.png")
    first = queue(engine, "Main", tmp_path / "m_[##].png")["item"]
    second = queue(engine, "Heavy", tmp_path / "h.mp4", codecOptions={"preset": "veryfast"})["item"]
    third = queue(engine, "Heavy", tmp_path / "h_[####].png", skipExisting=True)["item"]
    before = files_in(tmp_path)
    seen = []

    def cancel_midway(progress, total, message):
        seen.append(message)
        if sum(m.startswith(second) for m in seen) == 10:
            recorder.ctx.cancel.cancel()

    recorder = Recorder(session, cancel_midway)
    with pytest.raises(Cancelled):
        engine.run("renderQueue.render", {}, recorder.ctx)
    finished = {f"m_{n:02d}.png" for n in range(12)}
    assert files_in(tmp_path) == before | finished, "no temporary, segment or partial frame"
    assert (tmp_path / "h_0002.png").read_bytes() == existing
    assert status_of(engine, first) == "done"
    assert status_of(engine, second) == status_of(engine, third) == "stopped"


def test_wait_false_returns_at_once_and_stop_cleans_up(session, tmp_path):
    engine = session.engine
    item = queue(engine, "Heavy", tmp_path / "h_[####].png")["item"]
    started = time.monotonic()
    started_job = engine.run("renderQueue.render", {"wait": False})
    assert started_job["rendering"] == [item] and started_job["job"].startswith("render-")
    assert time.monotonic() - started < 5.0  # at once: milliseconds idle, the render far longer

    def rendering():
        listed = engine.run("renderQueue.list", {})["items"][0]
        return listed["status"] == "rendering" and 0 < listed["progress"] < 1

    wait_until(rendering, ended=render_ended(engine, item))
    stopped = engine.run("renderQueue.stop", {})
    assert stopped == {"stopped": True, "items": [{"item": item, "status": "stopped"}]}
    assert files_in(tmp_path) == set()
    assert status_of(engine, item) == "stopped"
    assert engine.run("renderQueue.stop", {})["stopped"] is False


def test_a_second_render_is_refused_every_way(session, tmp_path):
    engine = session.engine
    queue(engine, "Heavy", tmp_path / "h_[####].png")
    engine.run("renderQueue.render", {"wait": False})
    try:
        with pytest.raises(CommandError, match="a render is already running"):
            engine.run("renderQueue.render", {})
        with pytest.raises(CommandError, match="only one render runs at a time"):
            engine.run("renderQueue.render", {"wait": False})
        batch = engine.batch([{"id": "renderQueue.list"}, {"id": "renderQueue.render"}])
        assert batch["failed"] == 1
        assert "a render is already running" in batch["results"][1]["error"]
    finally:
        engine.run("renderQueue.stop", {})
    assert files_in(tmp_path) == set()


def test_an_edit_during_a_render_does_not_change_it(session, tmp_path):
    engine = session.engine
    queue(engine, "Heavy", tmp_path / "h_[####].png", frames="0-23")
    _snapshot_id, snapshot = engine.snapshot()
    edited = []

    def edit_once(progress, total, message):
        if not edited:
            edited.append(engine.run("layer.set", {"comp": "Heavy", "layer": "Mover",
                                                   "color": "#00ffff"}))
            engine.run("layer.remove", {"comp": "Heavy", "layer": "Turner"})

    report = engine.run("renderQueue.render", {}, Recorder(session, edit_once).ctx)
    assert edited and report["completed"] == 1
    heavy = next(c for c in snapshot["comps"] if c["name"] == "Heavy")
    for number in (0, 12, 23):
        expected = render_frame(snapshot, heavy["id"], number / heavy["frameRate"]).pixels
        written = read_png(str(tmp_path / f"h_{number:04d}.png"))
        assert np.array_equal(written, expected)
        assert not np.array_equal(written, expected_frame(engine, "Heavy", number))


def test_an_item_removed_mid_render_is_left_out_and_counted_failed(session, tmp_path):
    engine = session.engine
    kept = queue(engine, "Main", tmp_path / "m_[##].png")["item"]
    gone = queue(engine, "Heavy", tmp_path / "h_[####].png", frames="0-40")["item"]
    removed = []

    def remove_once(progress, total, message):
        if message.startswith(gone) and not removed:
            removed.append(engine.run("renderQueue.remove", {"item": gone}))

    report = engine.run("renderQueue.render", {}, Recorder(session, remove_once).ctx)
    assert removed
    assert [entry["item"] for entry in report["items"]] == [kept]
    assert report["completed"] == 1 and report["failed"] == 1


def test_done_items_are_not_rendered_again(session, tmp_path):
    engine = session.engine
    item = queue(engine, "Main", tmp_path / "m_[##].png")["item"]
    engine.run("renderQueue.render", {})
    with pytest.raises(CommandError, match="nothing to render"):
        engine.run("renderQueue.render", {})
    engine.run("renderQueue.set", {"item": item, "frames": "0-1"})
    assert engine.run("renderQueue.render", {})["completed"] == 1


def test_closing_the_session_stops_a_background_render(tmp_path):
    with render_session(workers=2) as made:
        heavy_comp(made.engine, "Heavy", frames=LONG_HEAVY)
        item = made.engine.run("renderQueue.add", {"comp": "Heavy",
                                                   "output": str(tmp_path / "h.mp4")})["item"]
        made.engine.run("renderQueue.render", {"wait": False})
        wait_until(lambda: made.engine.item_progress.get(item, 0) > 0,
                   ended=render_ended(made.engine, item))
    assert files_in(tmp_path) == set()
    assert not [t for t in threading.enumerate() if t.name.startswith("render-chunks")]


def test_a_render_cancelled_inside_a_batch_stops_the_batch_without_a_report(session, tmp_path):
    engine = session.engine
    queue(engine, "Heavy", tmp_path / "h_[####].png")

    def cancel_at_once(progress, total, message):
        if "frames" in message:  # the render's own progress, not the batch's step report
            recorder.ctx.cancel.cancel()

    recorder = Recorder(session, cancel_at_once)
    with pytest.raises(Cancelled):
        engine.batch([{"id": "renderQueue.list"}, {"id": "renderQueue.render"}],
                     work=recorder.ctx)
    assert files_in(tmp_path) == set()


def test_stop_ends_a_blocking_render_which_answers_with_stopped_items(session, tmp_path):
    engine = session.engine
    item = queue(engine, "Heavy", tmp_path / "h.mp4")["item"]
    answers = []
    caller = threading.Thread(target=lambda: answers.append(
        engine.run("renderQueue.render", {})))
    caller.start()
    wait_until(lambda: engine.item_progress.get(item, 0) > 0, ended=render_ended(engine, item))
    assert engine.run("renderQueue.stop", {})["stopped"] is True
    caller.join(20)
    [answer] = answers
    assert (answer["completed"], answer["failed"]) == (0, 0)
    [entry] = answer["items"]
    assert (entry["item"], entry["status"], entry["output"]) == (item, "stopped",
                                                                 str(tmp_path / "h.mp4"))
    assert files_in(tmp_path) == set()


def test_a_client_that_sees_a_render_stopped_finds_its_files_gone_and_may_render_at_once(
        session, tmp_path):
    """What a client sees of a cancelled render is only its items' status: the moment an item
    reads "stopped", what the render wrote is gone, and a render asked for then starts (it
    waits for the stopped one to finish tidying up rather than being refused)."""
    engine = session.engine
    service = engine.render_service
    stopped_item = queue(engine, "Heavy", tmp_path / "h_[####].png")["item"]
    at_stop: dict = {}
    mirror = service._item_changed

    def ask_again() -> None:  # as the soak's client does: the stopped item out, a new one in
        try:
            engine.run("renderQueue.remove", {"item": stopped_item})
            queue(engine, "Main", tmp_path / "next" / "n_[##].png")
            at_stop["next"] = engine.run("renderQueue.render", {})
        except CommandError as refused:
            at_stop["next"] = str(refused)

    def seen_by_client(engine_, item_id, status, progress):
        mirror(engine_, item_id, status, progress)
        if item_id == stopped_item and status == "stopped" and "files" not in at_stop:
            at_stop["files"] = {path for path in files_in(tmp_path) if "/" not in path}
            asker = at_stop["asker"] = threading.Thread(target=ask_again)
            asker.start()
            asker.join(2.0)  # a refusal comes at once; a render that waits goes on waiting

    def kill_then_cancel(progress, total, message):
        # Workers killed, as the teardown grace kills a worker that does not stop: what they
        # wrote is left for the render to remove.
        if progress >= 5 and not recorder.ctx.cancel.cancelled:
            for worker in busy_render_workers(session):
                os.kill(worker.pid, signal.SIGKILL)
            recorder.ctx.cancel.cancel()

    service._item_changed = seen_by_client
    recorder = Recorder(session, kill_then_cancel)
    with pytest.raises(Cancelled):
        engine.run("renderQueue.render", {}, recorder.ctx)
    at_stop["asker"].join(60.0)
    assert at_stop["files"] == set(), "the stopped item's frames were still there"
    assert isinstance(at_stop["next"], dict), at_stop["next"]
    assert at_stop["next"]["completed"] == 1
    assert len(files_in(tmp_path / "next")) == 12


def test_a_wait_on_a_job_that_has_ended_answers_at_once(session, tmp_path):
    # A render that ends between two render_status calls: the second call's wait must not sit
    # out its whole length for a change that can no longer come.
    engine = session.engine
    queue(engine, "Main", tmp_path / "m_[##].png")
    job = engine.render_service.jobs.get(engine.run("renderQueue.render", {"wait": False})["job"])
    wait_until(lambda: job.report is not None, timeout=120)
    job.wait_for_change(3600, Cancel())  # an hour: before the fix, the test's timeout ends it
    assert job.status()["state"] == "done"
