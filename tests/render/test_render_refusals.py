"""What a render refuses before writing anything (outputs that name one file), and what takes
no part in it (items whose footage is missing), through real render workers."""

import os

import numpy as np
import pytest

from supervisor.errors import CommandError
from tests.helpers.render_sessions import (build_comp, expected_frame, files_in, read_png,
                                   render_session)


@pytest.fixture(scope="module")
def session():
    with render_session(workers=2) as made:
        build_comp(made.engine, "Main", frames=12)
        build_comp(made.engine, "Other", frames=12, transparent=True)
        yield made


@pytest.fixture
def engine(session):
    engine = session.engine
    for item in list(engine.doc["renderQueue"]):
        engine.run("renderQueue.remove", {"item": item["id"]})
    return engine


def add(engine, comp, output, **params):
    return engine.run("renderQueue.add", {"comp": comp, "output": str(output), **params})["item"]


def test_two_items_writing_one_file_refuse_the_whole_render(engine, tmp_path):
    first = add(engine, "Main", tmp_path / "a_[##].png")
    add(engine, "Main", tmp_path / "ok.gif")
    second = add(engine, "Other", tmp_path / "a_[##].png", frames="5-8")
    before = [dict(item) for item in engine.doc["renderQueue"]]
    with pytest.raises(CommandError) as refused:
        engine.run("renderQueue.render", {})
    message = str(refused.value)
    assert first in message and second in message and "a_05.png" in message
    assert "Nothing was rendered" in message
    assert files_in(tmp_path) == set()
    assert engine.doc["renderQueue"] == before


def test_two_videos_to_one_file_are_refused(engine, tmp_path):
    add(engine, "Main", tmp_path / "v.mp4")
    add(engine, "Other", tmp_path / "v.mp4")
    with pytest.raises(CommandError, match="both write .*v.mp4"):
        engine.run("renderQueue.render", {})
    assert files_in(tmp_path) == set()


def test_sequences_sharing_no_frame_do_not_clash(engine, tmp_path):
    add(engine, "Main", tmp_path / "s_[##].png", frames="0-5")
    add(engine, "Other", tmp_path / "s_[##].png", frames="6-11")
    assert engine.run("renderQueue.render", {})["completed"] == 2
    assert files_in(tmp_path) == {f"s_{n:02d}.png" for n in range(12)}


def test_two_stills_of_one_comp_keep_their_names_and_both_render(engine, tmp_path):
    engine.run("project.save", {"path": str(tmp_path / "p.rvproj")})
    one = engine.run("comp.saveFrameAs", {"comp": "Main", "time": 0.125, "queue": True})
    two = engine.run("comp.saveFrameAs", {"comp": "Main", "time": 0.25, "queue": True})
    assert one["output"] == two["output"] == str(tmp_path / "Main_[#####].png")
    assert engine.run("renderQueue.render", {})["completed"] == 2
    assert files_in(tmp_path) == {"p.rvproj", "Main_00003.png", "Main_00006.png"}
    assert np.array_equal(read_png(str(tmp_path / "Main_00006.png")),
                          expected_frame(engine, "Main", 6))


def test_skip_existing_leaves_an_earlier_items_frames_alone(engine, tmp_path):
    add(engine, "Main", tmp_path / "f_[##].png", frames="0-5")
    add(engine, "Other", tmp_path / "f_[##].png", frames="3-8", skipExisting=True)
    report = engine.run("renderQueue.render", {})
    assert report["completed"] == 2
    for number in range(0, 6):  # the earlier item's, never overwritten by the later one
        assert np.array_equal(read_png(str(tmp_path / f"f_{number:02d}.png")),
                              expected_frame(engine, "Main", number))
    for number in range(6, 9):
        assert np.array_equal(read_png(str(tmp_path / f"f_{number:02d}.png")),
                              expected_frame(engine, "Other", number))


def test_skip_existing_video_is_skipped_whole(engine, tmp_path):
    older = add(engine, "Other", tmp_path / "v.gif")  # an older render, of another comp
    engine.run("renderQueue.render", {})
    engine.run("renderQueue.remove", {"item": older})
    kept = (tmp_path / "v.gif").read_bytes()
    item = add(engine, "Main", tmp_path / "v.gif", skipExisting=True)
    report = engine.run("renderQueue.render", {})
    [entry] = report["items"]
    assert (entry["item"], entry["status"], entry["output"]) == (item, "done",
                                                                 str(tmp_path / "v.gif"))
    assert entry["skipped"] is True and entry["framesWritten"] == 0
    assert entry["framesSkipped"] == 12
    assert (tmp_path / "v.gif").read_bytes() == kept


def test_skip_existing_renders_over_a_file_that_is_not_a_whole_video(engine, tmp_path):
    (tmp_path / "v.gif").write_bytes(b"GIF89a cut short by an interrupted copy")
    item = add(engine, "Main", tmp_path / "v.gif", skipExisting=True)
    report = engine.run("renderQueue.render", {})
    [entry] = report["items"]
    assert (entry["item"], entry["status"], entry["output"]) == (item, "done",
                                                                 str(tmp_path / "v.gif"))
    assert "skipped" not in entry and entry["framesWritten"] == 12
    assert (tmp_path / "v.gif").read_bytes().startswith(b"GIF89a")
    assert len((tmp_path / "v.gif").read_bytes()) > 100


def test_an_item_with_missing_footage_fails_naming_the_file_and_takes_no_part(engine, tmp_path):
    picture = tmp_path / "picture.png"
    pixels = np.full((8, 8, 4), 200, np.uint8)
    import skia
    skia.Image.fromarray(pixels, colorType=skia.kRGBA_8888_ColorType).save(str(picture),
                                                                           skia.kPNG)
    engine.run("comp.new", {"name": "Uses", "width": 32, "height": 18, "duration": 0.5})
    engine.run("layer.add", {"comp": "Uses", "type": "image", "path": str(picture)})
    os.unlink(picture)
    broken = add(engine, "Uses", tmp_path / "out" / "x.gif")
    good = add(engine, "Main", tmp_path / "out" / "x.gif")  # no clash: the broken one is out
    report = engine.run("renderQueue.render", {})
    assert (report["completed"], report["failed"]) == (1, 1)
    failed = report["items"][0]
    assert failed["item"] == broken and failed["status"] == "failed"
    assert str(picture) in failed["error"] and "missing" in failed["error"]
    assert report["items"][1]["item"] == good
    assert files_in(tmp_path) == {"out/x.gif"}
    engine.run("renderQueue.remove", {"item": broken})
    engine.run("comp.remove", {"comp": "Uses"})
