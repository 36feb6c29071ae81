"""Planning a render (supervisor/render/plan.py) without any worker: which items take part,
what each writes, and how frames are split into chunks."""

import pytest
import skia

from supervisor.render.plan import RenderRefused, plan_render
from tests.helpers.engine_projects import engine_with_comp


def planned(engine, workers=2, check_write=None):
    _snapshot_id, document = engine.snapshot()
    ids = [item["id"] for item in document["renderQueue"]]
    return plan_render(document, ids, workers, check_write)


def test_video_chunks_are_whole_key_frame_intervals_whatever_the_worker_count(tmp_path):
    engine = engine_with_comp(64, 36, frameRate=30, duration=10)
    engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "v.mp4"),
                                   "frames": "15-299"})
    for workers in (1, 2, 3, 16):
        (plan,) = planned(engine, workers)
        starts = [chunk.first_index for chunk in plan.chunks]
        assert starts == list(range(0, 285, 30))
        assert sum(len(chunk.frames) for chunk in plan.chunks) == 285
        assert plan.chunks[0].frames[0] == 15


def test_a_short_sequence_gives_every_worker_two_chunks(tmp_path):
    engine = engine_with_comp(64, 36, frameRate=30, duration=1)
    engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "f_[##].png")})
    (plan,) = planned(engine, workers=3)
    assert len(plan.chunks) == 6 and [len(c.frames) for c in plan.chunks] == [5] * 6
    (plan,) = planned(engine, workers=1)
    assert [len(c.frames) for c in plan.chunks] == [15, 15]


def test_skip_existing_leaves_out_existing_frames_and_an_earlier_items_frames(tmp_path):
    engine = engine_with_comp(64, 36, frameRate=10, duration=1)
    skia.Surface(8, 8).makeImageSnapshot().save(str(tmp_path / "f_07.png"), skia.kPNG)
    (tmp_path / "f_06.png").write_bytes(b"x")  # not a whole image: written again
    engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "f_[##].png"),
                                   "frames": "0-3"})
    engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "f_[##].png"),
                                   "skipExisting": True})
    first, second = planned(engine)
    assert first.frames == [0, 1, 2, 3]
    assert second.frames == [4, 5, 6, 8, 9]


def test_a_clash_refuses_the_plan_and_refused_items_take_no_part(tmp_path):
    engine = engine_with_comp(64, 36, frameRate=10, duration=1)
    engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "v.mp4")})
    engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "v.mp4")})
    with pytest.raises(RenderRefused, match="items item2 and item3 both write"):
        planned(engine)

    def refuse_the_first(path):
        if engine.doc["renderQueue"][0]["output"] == path and not refused:
            refused.append(path)
            raise PermissionError(f"{path} is outside the write roots")

    refused = []
    first, second = planned(engine, check_write=refuse_the_first)
    assert "outside the write roots" in first.error and first.chunks == []
    assert second.error is None and second.chunks


def test_an_item_storing_options_off_the_list_is_refused_and_takes_no_part(tmp_path):
    """As a project file from elsewhere would store them: nothing refused them on the way in."""
    engine = engine_with_comp(64, 36, frameRate=10, duration=1)
    engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "a.mp4")})
    engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "b.mp4")})
    engine.edit_quietly(lambda doc: doc["renderQueue"][0].update(
        codecOptions={"x265-params": f"csv={tmp_path}/x.csv"}))
    refused, accepted = planned(engine)
    assert refused.error.startswith(f"{refused.id} was not rendered: codecOptions "
                                    "'x265-params' of ")
    assert refused.chunks == [] and accepted.error is None and accepted.chunks
