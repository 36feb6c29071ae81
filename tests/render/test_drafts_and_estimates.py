"""Drafts and estimates through real render workers: renderQueue.add {scale} renders frames at
that fraction of the comp's size (decoded to check), and renderQueue.estimate says how long an
item takes from a few of its frames, near what the render then takes."""

from __future__ import annotations

import time

import av
import pytest

from supervisor.errors import CommandError
from tests.helpers.render_sessions import build_comp, render_session


@pytest.fixture(scope="module")
def session():
    with render_session(workers=2) as made:
        yield made


@pytest.fixture
def engine(session):
    engine = session.engine
    engine.run("project.new", {})
    build_comp(engine, width=320, height=180, frames=24)
    return engine


def test_a_draft_renders_at_its_scale(engine, tmp_path):
    added = engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "d.mp4"),
                                           "scale": 0.5})
    report = engine.run("renderQueue.render", {})
    assert report["items"][0]["status"] == "done", report
    with av.open(added["output"]) as video:
        stream = video.streams.video[0]
        assert (stream.codec_context.width, stream.codec_context.height) == (160, 90)
        assert sum(1 for _ in video.decode(stream)) == 24
    listed = engine.run("renderQueue.list", {})["items"][0]
    assert listed["scale"] == 0.5


@pytest.mark.parametrize("scale,words", [(0, "scale: expected a number above 0"),
                                         (1.5, "scale is a fraction of the comp's size")])
def test_a_scale_outside_the_comp_is_refused(engine, tmp_path, scale, words):
    with pytest.raises(CommandError, match=words):
        engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "d.mp4"),
                                       "scale": scale})


def test_an_estimate_is_near_what_the_render_takes(engine, tmp_path):
    added = engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "e.mp4")})
    estimate = engine.run("renderQueue.estimate", {"item": added["item"]})
    assert (estimate["item"], estimate["frames"], estimate["sampled"]) == \
        (added["item"], 24, 6)
    assert estimate["seconds"] > 0 and estimate["perFrame"] > 0
    assert 1 <= estimate["workers"] <= 2
    started = time.monotonic()
    engine.run("renderQueue.render", {})
    took = time.monotonic() - started
    # A guide, on a shared machine: within ten times either way, never a timing test.
    assert took / 10 <= estimate["seconds"] <= took * 10 + 1


def test_an_item_with_nothing_left_to_write_takes_no_time(engine, tmp_path):
    added = engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "e.mp4")})
    engine.run("renderQueue.render", {})
    engine.run("renderQueue.set", {"item": added["item"], "skipExisting": True})
    assert engine.run("renderQueue.estimate", {"item": added["item"]})["seconds"] == 0
