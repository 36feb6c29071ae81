"""renderQueue.render writes every format through real render workers; PyAV decodes what was
written and the still renderer (render_frame) says what each frame should look like."""

import os

import numpy as np
import pytest

from tests.helpers.render_sessions import (HEIGHT, RATE, WIDTH, build_comp, decode_video,
                                   expected_frame, files_in, read_png, render_session)

FRAMES = 36  # video: five key frame intervals of 8 (keyframe_interval_for), the last of 4


@pytest.fixture(scope="module")
def session():
    with render_session(workers=2) as made:
        build_comp(made.engine, "Main", frames=FRAMES)
        build_comp(made.engine, "Clear", frames=FRAMES, transparent=True)
        yield made


def render_one(session, params) -> dict:
    engine = session.engine
    for item in list(engine.doc["renderQueue"]):
        engine.run("renderQueue.remove", {"item": item["id"]})
    added = engine.run("renderQueue.add", params)
    report = engine.run("renderQueue.render", {})
    assert report["completed"] == 1 and report["failed"] == 0, report
    [entry] = report["items"]
    assert (entry["item"], entry["status"], entry["output"]) == (added["item"], "done",
                                                                 added["output"])
    assert entry["framesWritten"] > 0 and entry["failedFrames"] is None
    return added


def test_png_sequence_is_the_still_renderer_exactly(session, tmp_path):
    added = render_one(session, {"comp": "Clear", "output": str(tmp_path / "f_[###].png")})
    assert files_in(tmp_path) == {f"f_{n:03d}.png" for n in range(FRAMES)}
    for number in (0, 17, 35):
        written = read_png(str(tmp_path / f"f_{number:03d}.png"))
        assert written.shape == (HEIGHT, WIDTH, 4)
        assert np.array_equal(written, expected_frame(session.engine, "Clear", number))
    assert added["output"].endswith("f_[###].png")


def test_jpeg_frames_and_range(session, tmp_path):
    render_one(session, {"comp": "Main", "output": str(tmp_path / "j_[####].jpg"),
                         "frames": "3-5,30"})
    assert files_in(tmp_path) == {"j_0003.jpg", "j_0004.jpg", "j_0005.jpg", "j_0030.jpg"}
    written = read_png(str(tmp_path / "j_0030.jpg"))[..., :3].astype(int)
    expected = expected_frame(session.engine, "Main", 30)[..., :3].astype(int)
    assert np.abs(written - expected).mean() < 3


@pytest.mark.parametrize("fmt,ext,alpha,tolerance", [
    ("h264", "mp4", False, 8), ("hevc", "mp4", False, 8), ("av1", "mp4", False, 8),
    ("prores", "mov", False, 4),
    ("vp9", "webm", True, 4), ("gif", "gif", False, 8),
])
def test_video_formats_decode_to_the_comp(session, tmp_path, fmt, ext, alpha, tolerance):
    comp = "Clear" if alpha else "Main"
    codec = {"h264": {"preset": "veryfast"}, "hevc": {"preset": "ultrafast"},
             "av1": {"preset": "10"},
             "vp9": {"cpu-used": "8", "deadline": "realtime"}}.get(fmt, {})
    added = render_one(session, {"comp": comp, "output": str(tmp_path / f"v.{ext}"),
                                 "format": fmt, "codecOptions": codec})
    assert files_in(tmp_path) == {f"v.{ext}"}, "segments and temporaries are gone"
    assert added["output"] == str(tmp_path / f"v.{ext}")
    # libvpx decodes VP9 alpha only through its own decoder.
    frames, info = decode_video(str(tmp_path / f"v.{ext}"))
    assert len(frames) == FRAMES
    assert (info["width"], info["height"]) == (WIDTH, HEIGHT)
    if fmt != "gif":  # GIF stores hundredths of a second: 24 fps is not exact there
        assert info["rate"] == RATE
    for number in (0, 29, 30, 35):
        expected = expected_frame(session.engine, comp, number, over_black=not alpha)
        error = np.abs(frames[number][..., :3].astype(int) - expected[..., :3].astype(int))
        assert error.mean() < tolerance, (fmt, number, error.mean())
        if number:  # and it is that frame, not a neighbour held or skipped
            other = expected_frame(session.engine, comp, number - 9, over_black=not alpha)
            assert np.abs(frames[number][..., :3].astype(int)
                          - other[..., :3].astype(int)).mean() > error.mean()


def test_prores_4444_keeps_alpha(session, tmp_path):
    render_one(session, {"comp": "Clear", "output": str(tmp_path / "a.mov"),
                         "codecOptions": {"profile": "4444"}})
    frames, _info = decode_video(str(tmp_path / "a.mov"))
    expected = expected_frame(session.engine, "Clear", 10)
    assert len(frames) == FRAMES
    assert np.abs(frames[10][..., 3].astype(int) - expected[..., 3].astype(int)).max() <= 2


def test_png_frames_and_videos_are_byte_identical_with_one_two_and_three_workers(tmp_path):
    outputs = {}
    for workers in (1, 2, 3):
        with render_session(workers=workers) as made:
            build_comp(made.engine, "Main", frames=FRAMES)
            folder = tmp_path / str(workers)
            made.engine.run("renderQueue.add", {"comp": "Main",
                                                "output": str(folder / "f_[##].png")})
            made.engine.run("renderQueue.add", {"comp": "Main", "output": str(folder / "v.mp4"),
                                                "codecOptions": {"preset": "veryfast"}})
            made.engine.run("renderQueue.add", {"comp": "Main", "format": "av1",
                                                "output": str(folder / "a.mp4"),
                                                "codecOptions": {"preset": "10"}})
            assert made.engine.run("renderQueue.render", {})["completed"] == 3
            outputs[workers] = {name: (folder / name).read_bytes()
                                for name in sorted(files_in(folder))}
    assert len(outputs[1]) == FRAMES + 2
    assert outputs[1] == outputs[2] == outputs[3]


def test_a_90_frame_video_is_the_same_file_on_1_2_and_3_workers_and_splits_evenly(tmp_path):
    from supervisor.render.plan import plan_render
    from workers.exporter import keyframe_interval_for
    outputs, decoded = {}, {}
    for workers in (1, 2, 3):
        with render_session(workers=workers) as made:
            build_comp(made.engine, "Main", frames=90)
            output = tmp_path / str(workers) / "v.mp4"
            made.engine.run("renderQueue.add", {"comp": "Main", "output": str(output),
                                                "codecOptions": {"preset": "veryfast"}})
            _snapshot_id, document = made.engine.snapshot()
            (plan,) = plan_render(document, [document["renderQueue"][0]["id"]], workers)
            interval = keyframe_interval_for(90)
            assert {chunk.keyframe_interval for chunk in plan.chunks} == {interval}
            lengths = [len(chunk.frames) for chunk in plan.chunks]
            assert sum(lengths) == 90 and all(c.first_index % interval == 0 for c in plan.chunks)
            if workers == 2:
                # Chunks the two workers can share: none longer than another by an interval.
                assert len(lengths) >= 2 * workers
                assert max(lengths) - min(lengths) <= interval
            report = made.engine.run("renderQueue.render", {})
            assert report["completed"] == 1, report
            outputs[workers] = output.read_bytes()
            decoded[workers], _info = decode_video(str(output))
    assert len(decoded[1]) == 90
    for workers in (2, 3):
        assert all(np.array_equal(a, b) for a, b in zip(decoded[1], decoded[workers]))
        assert outputs[workers] == outputs[1]


def test_default_output_lands_beside_the_saved_project(session, tmp_path):
    engine = session.engine
    engine.run("project.save", {"path": str(tmp_path / "show.rvproj")})
    for item in list(engine.doc["renderQueue"]):
        engine.run("renderQueue.remove", {"item": item["id"]})
    engine.run("renderQueue.add", {"comp": "Main", "format": "gif"})
    engine.run("renderQueue.add", {"comp": "Main", "format": "gif"})
    report = engine.run("renderQueue.render", {})
    assert [entry["output"] for entry in report["items"]] == [
        str(tmp_path / "Main.gif"), str(tmp_path / "Main_1.gif")]
    assert os.path.getsize(tmp_path / "Main.gif") == os.path.getsize(tmp_path / "Main_1.gif")


def test_vp9_keeps_alpha_through_the_join(session, tmp_path):
    import av
    render_one(session, {"comp": "Clear", "output": str(tmp_path / "a.webm")})
    decoded = []
    with av.open(str(tmp_path / "a.webm")) as container:
        # FFmpeg's own VP9 decoder drops the alpha plane; libvpx reads it from the side data.
        decoder = av.CodecContext.create("libvpx-vp9", "r")
        for packet in container.demux(container.streams.video[0]):
            decoded += [frame.to_ndarray(format="rgba") for frame in decoder.decode(packet)]
    assert len(decoded) == FRAMES
    for number in (3, 31):  # one frame from each segment
        expected = expected_frame(session.engine, "Clear", number)[..., 3].astype(int)
        assert np.abs(decoded[number][..., 3].astype(int) - expected).mean() < 3
        assert (decoded[number][..., 3] < 10).any() and (decoded[number][..., 3] > 245).any()


def test_comp_name_pattern_and_a_frame_list_in_a_video(session, tmp_path):
    engine = session.engine
    for item in list(engine.doc["renderQueue"]):
        engine.run("renderQueue.remove", {"item": item["id"]})
    added = engine.run("renderQueue.add", {
        "comp": "Main", "output": str(tmp_path / "[compName]_cut.mp4"), "frames": "0-9,20-35",
        "codecOptions": {"preset": "veryfast"}})
    assert added["output"] == str(tmp_path / "[compName]_cut.mp4")  # stored as given
    report = engine.run("renderQueue.render", {})
    assert report["items"][0]["output"] == str(tmp_path / "Main_cut.mp4")  # as written
    assert files_in(tmp_path) == {"Main_cut.mp4"}
    frames, info = decode_video(str(tmp_path / "Main_cut.mp4"))
    assert len(frames) == 26 and info["rate"] == RATE
    # The video's frame 10 is comp frame 20: the list is played in order, without the gap.
    expected = expected_frame(session.engine, "Main", 20, over_black=True)[..., :3].astype(int)
    assert np.abs(frames[10][..., :3].astype(int) - expected).mean() < 8
