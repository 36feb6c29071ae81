"""A video item that stopped resumes with `resume: true`: the segments it finished are kept in
a cache beside the output, only the missing ones are encoded again, and the joined file is the
one an uninterrupted render writes, byte for byte."""

import os

import pytest

from protocol.cancel import Cancelled
from tests.helpers.render_sessions import Recorder, heavy_comp, render_session


@pytest.fixture
def session():
    with render_session(workers=2) as made:
        heavy_comp(made.engine, "Heavy", frames=96)  # on 2 workers: 4 segments of 24
        yield made


def cached(output) -> list[str]:
    folder = os.path.join(os.path.dirname(output), f".{os.path.basename(output)}.segments")
    return os.listdir(folder) if os.path.isdir(folder) else []


def test_a_stopped_video_with_resume_encodes_only_its_missing_segments(session, tmp_path):
    engine = session.engine
    output = str(tmp_path / "h.mp4")
    item = engine.run("renderQueue.add", {"comp": "Heavy", "output": output, "resume": True,
                                          "codecOptions": {"preset": "veryfast"}})["item"]
    assert engine.run("renderQueue.list", {})["items"][0]["resume"] is True

    def stop_halfway(progress, total, message):
        if progress == 60:
            stopping.ctx.cancel.cancel()

    stopping = Recorder(session, stop_halfway)
    with pytest.raises(Cancelled):
        engine.run("renderQueue.render", {}, stopping.ctx)
    assert not os.path.exists(output)
    kept = cached(output)
    assert 1 <= len(kept) < 4

    resuming = Recorder(session)
    report = engine.run("renderQueue.render", {}, resuming.ctx)
    [entry] = report["items"]
    assert entry["status"] == "done" and entry["failedFrames"] is None
    assert (entry["framesWritten"], entry["framesSkipped"]) == (96 - 24 * len(kept),
                                                                24 * len(kept))
    assert {total for _, total, _ in resuming.events} == {96 - 24 * len(kept)}
    assert cached(output) == []

    engine.run("renderQueue.set", {"item": item, "output": str(tmp_path / "whole.mp4"),
                                   "resume": False})
    engine.run("renderQueue.render", {})
    assert open(output, "rb").read() == open(tmp_path / "whole.mp4", "rb").read()
