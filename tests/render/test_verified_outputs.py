"""An item is done only once its output reads back whole: a video cut short (a crash or a full
network disk mid-write) or a frame that is not a whole image fails the item, and what is broken
is removed. Real workers, real files: the cut is made to the real file the render wrote, just
after it was put in place."""

import os
import shutil

import pytest

from supervisor.engine.probes import Probes
from supervisor.render import run as render_run
from tests.helpers.render_sessions import build_comp, render_session


@pytest.fixture
def session():
    with render_session(workers=2) as made:
        build_comp(made.engine, "Main", frames=12)
        yield made


def cut_after_placing(monkeypatch, cut):
    """Let the render put its output in place, then `cut(output)` it, as storage that loses
    the end of a file would."""
    place = render_run.place_output

    def placed_then_cut(plan, *args, **kwargs):
        place(plan, *args, **kwargs)
        cut(plan.output)
    monkeypatch.setattr(render_run, "place_output", placed_then_cut)


def render(engine, output, **params):
    engine.run("renderQueue.add", {"comp": "Main", "output": str(output), **params})
    [item] = engine.run("renderQueue.render", {})["items"]
    engine.run("renderQueue.remove", {"item": item["item"]})
    return item


def test_a_whole_video_reads_back_and_a_cut_or_shortened_one_does_not(session, tmp_path):
    item = render(session.engine, tmp_path / "whole.mp4")
    assert item["status"] == "done"
    probes = Probes(session.pool)
    expected = {"frames": 12, "frameRate": 24}
    assert probes.check_output(str(tmp_path / "whole.mp4"), expected) is None
    assert probes.check_output(str(tmp_path / "whole.mp4"), {**expected, "frames": 13}) == \
        "it holds 12 of its 13 frames"
    shutil.copy(tmp_path / "whole.mp4", tmp_path / "cut.mp4")
    os.truncate(tmp_path / "cut.mp4", os.path.getsize(tmp_path / "cut.mp4") * 2 // 3)
    problem = probes.check_output(str(tmp_path / "cut.mp4"), expected)
    assert problem is not None


def test_a_video_cut_short_as_it_is_written_fails_its_item_and_is_removed(
        session, tmp_path, monkeypatch):
    cut_after_placing(monkeypatch, lambda path: os.truncate(path, os.path.getsize(path) // 2))
    item = render(session.engine, tmp_path / "v.mp4")
    assert item["status"] == "failed"
    assert item["error"].startswith(f"{item['item']} failed: its output {tmp_path / 'v.mp4'} "
                                    "was written, but read back ")
    assert item["error"].endswith(", so it was removed; render it again.")
    # Its segments stay in their cache for the rerun, as after a join that failed.
    assert "v.mp4" not in os.listdir(tmp_path)


def test_a_frame_cut_short_fails_its_item_and_only_that_frame_goes(
        session, tmp_path, monkeypatch):
    engine = session.engine
    real_finish = render_run.RenderRun._finish

    def finish_after_cutting(run, item):
        path = item.plan.frame_file(5)
        os.truncate(path, os.path.getsize(path) - 4)
        real_finish(run, item)
    monkeypatch.setattr(render_run.RenderRun, "_finish", finish_after_cutting)
    item = render(engine, tmp_path / "f_[##].png")
    assert item["status"] == "failed" and item["failedFrames"] == "5"
    assert "1 of its frames were not whole images when read back (5)" in item["error"]
    assert sorted(os.listdir(tmp_path)) == [f"f_{n:02d}.png" for n in range(12) if n != 5]


def test_a_render_that_is_whole_is_done_in_every_kind_of_file(session, tmp_path):
    engine = session.engine
    for output in ("a.mov", "b.webm", "c.gif", "d.wav", "e_[##].jpg"):
        assert render(engine, tmp_path / output)["status"] == "done", output
