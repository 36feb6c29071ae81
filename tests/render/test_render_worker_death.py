"""A render worker killed (SIGKILL) mid-chunk: the chunk is retried once on a fresh worker; a
second death fails that item, naming the signal, and the other items still render."""

import logging
import os
import signal

import numpy as np

from tests.helpers.render_sessions import (Recorder, build_comp, busy_render_workers,
                                           decode_video, expected_frame, files_in, heavy_comp,
                                           read_png, render_session)


def test_a_killed_workers_chunk_is_retried_and_the_output_is_complete(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="rendervisor.render")
    with render_session(workers=2) as session:
        engine = session.engine
        heavy_comp(engine, "Heavy", frames=72)
        engine.run("renderQueue.add", {"comp": "Heavy", "output": str(tmp_path / "h_[##].png")})
        engine.run("renderQueue.add", {"comp": "Heavy", "output": str(tmp_path / "h.mp4"),
                                       "codecOptions": {"preset": "veryfast"}})
        killed = []

        def kill_once(progress, total, message):
            if progress >= 5 and not killed:
                victim = busy_render_workers(session)[0]
                killed.append(victim.pid)
                os.kill(victim.pid, signal.SIGKILL)

        report = engine.run("renderQueue.render", {}, Recorder(session, kill_once).ctx)
        assert killed
        assert report["completed"] == 2 and report["failed"] == 0, report
        assert any("killed by signal 9 (SIGKILL)" in r.getMessage() and "retrying" in
                   r.getMessage() for r in caplog.records)
        assert files_in(tmp_path) == {f"h_{n:02d}.png" for n in range(72)} | {"h.mp4"}
        for number in range(0, 72, 7):
            assert np.array_equal(read_png(str(tmp_path / f"h_{number:02d}.png")),
                                  expected_frame(engine, "Heavy", number))
        frames, _info = decode_video(str(tmp_path / "h.mp4"))
        assert len(frames) == 72
        for number in (0, 35, 71):
            expected = expected_frame(engine, "Heavy", number)[..., :3].astype(int)
            assert np.abs(frames[number][..., :3].astype(int) - expected).mean() < 6


def test_a_chunk_that_kills_two_workers_fails_its_item_and_the_rest_render(tmp_path):
    with render_session(workers=1) as session:
        engine = session.engine
        heavy_comp(engine, "Heavy", frames=24)
        build_comp(engine, "Main", frames=6)
        doomed = engine.run("renderQueue.add", {"comp": "Heavy",
                                                "output": str(tmp_path / "h_[##].png")})["item"]
        fine = engine.run("renderQueue.add", {"comp": "Main",
                                              "output": str(tmp_path / "m_[##].png")})["item"]
        killed = []

        def kill_each_worker_of_the_doomed_item(progress, total, message):
            if message.startswith(doomed):
                for worker in busy_render_workers(session):
                    if worker.pid not in killed:
                        killed.append(worker.pid)
                        os.kill(worker.pid, signal.SIGKILL)

        report = engine.run("renderQueue.render", {},
                            Recorder(session, kill_each_worker_of_the_doomed_item).ctx)
        assert len(killed) == 2
        assert (report["completed"], report["failed"]) == (1, 1)
        failed, done = report["items"]
        assert failed["item"] == doomed and failed["status"] == "failed"
        assert "killed by signal 9 (SIGKILL)" in failed["error"]
        assert "retry" in failed["error"]
        assert (done["item"], done["status"], done["output"]) == (
            fine, "done", str(tmp_path / "m_[##].png"))
        assert failed["failedFrames"] and done["framesWritten"] == 6
        assert files_in(tmp_path) == {f"m_{n:02d}.png" for n in range(6)}
