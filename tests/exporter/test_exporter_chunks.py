"""Chunks across worker processes: the output does not depend on how many workers wrote it."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import av
import numpy as np
import pytest

from protocol.model.frame_spec import frames_of
from tests.helpers.synthetic_frames import moving_frame
from workers.exporter import (OpenedFiles, chunk_paths, export_chunk, frames_to_write,
                              join_segments, keyframe_interval_for, plan_chunks, with_new_token)

INTERVAL = 10


def test_video_chunks_start_on_the_key_frame_interval():
    frames = list(range(100, 145))  # 45 frames
    chunks = plan_chunks(frames, "h264", parts=2, keyframe_interval=INTERVAL)
    assert [(c.first_index, len(c.frames)) for c in chunks] == [(0, 20), (20, 25)]
    assert chunks[1].frames[0] == 120
    by_size = plan_chunks(frames, "h264", parts=1, chunk_size=12, keyframe_interval=INTERVAL)
    assert [c.first_index for c in by_size] == [0, 20, 40]  # 12 rounds up to 20
    assert {c.keyframe_interval for c in chunks + by_size} == {INTERVAL}


def test_chunks_carry_the_interval_of_the_items_frame_count_whatever_the_parts():
    for parts in (1, 2, 3, 16):
        chunks = plan_chunks(range(90), "h264", parts=parts)
        assert {c.keyframe_interval for c in chunks} == {keyframe_interval_for(90)} == {12}
        assert all(c.first_index % 12 == 0 for c in chunks)
    assert {c.keyframe_interval for c in plan_chunks(range(300), "h264", 4)} == {30}


def test_sequence_chunks_split_anywhere_and_cover_every_frame_once():
    frames = [0, 1, 2, 7, 8, 60, 61]
    chunks = plan_chunks(frames, "png", parts=3)
    assert [c.frames for c in chunks] == [(0, 1), (2, 7), (8, 60, 61)]
    assert [(c.frames, c.first_index) for c in plan_chunks(frames, "png", parts=10)] == [
        ((f,), i) for i, f in enumerate(frames)]
    assert plan_chunks([], "png", parts=3) == []
    assert [len(c.frames) for c in plan_chunks(range(10), "jpeg", 1, chunk_size=4)] == [4, 4, 2]


def _work(args):
    """One worker's chunk, in its own process: render (here: synthesise) and export."""
    chunk, fmt, output = args
    opened = OpenedFiles()
    segment = export_chunk(chunk, (moving_frame(n) for n in chunk.frames), fmt, output, 30,
                           {"preset": "veryfast"} if fmt == "h264" else None, opened)
    return segment, opened.paths


def run_item(folder, fmt, output_name, frames, workers):
    output = str(folder / output_name)
    chunks = plan_chunks(frames, fmt, parts=workers, keyframe_interval=INTERVAL)
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_work, [(c, fmt, output) for c in chunks]))
    opened = OpenedFiles()
    for _segment, paths in results:
        opened.add_all(paths)
    if fmt == "h264":
        join_segments([segment for segment, _ in results], fmt, output, 30, opened)
    return output, opened


@pytest.mark.parametrize("workers", [2, 3])
def test_png_frames_are_byte_identical_whatever_the_worker_count(tmp_path, workers):
    frames = frames_of("0-9,20-24", 30)
    (tmp_path / "1").mkdir()
    (tmp_path / "n").mkdir()
    run_item(tmp_path / "1", "png", "f_[###].png", frames, 1)
    run_item(tmp_path / "n", "png", "f_[###].png", frames, workers)
    names = sorted(os.listdir(tmp_path / "1"))
    assert names == [f"f_{n:03d}.png" for n in frames] == sorted(os.listdir(tmp_path / "n"))
    for name in names:
        assert (tmp_path / "1" / name).read_bytes() == (tmp_path / "n" / name).read_bytes()


def test_video_frames_are_identical_whatever_the_worker_count(tmp_path):
    frames = frames_of("0-19,40-54", 60)  # 35 frames: the video skips 20-39
    decoded = []
    for workers in (1, 2, 3):
        folder = tmp_path / str(workers)
        folder.mkdir()
        output, opened = run_item(folder, "h264", "Main.mp4", frames, workers)
        assert os.listdir(folder) == ["Main.mp4"] and opened.paths == [output]
        with av.open(output) as container:
            assert container.streams.video[0].average_rate == 30
            decoded.append([f.to_ndarray(format="rgb24") for f in container.decode(video=0)])
    assert len(decoded[0]) == len(frames)
    for other in decoded[1:]:
        assert all(np.array_equal(a, b) for a, b in zip(decoded[0], other))
    # Frame 20 of the video is comp frame 40.
    error = np.abs(decoded[0][20].astype(int) - moving_frame(40)[..., :3]).mean()
    assert error < 6


def test_skip_existing_video_is_skipped_whole(tmp_path):
    (tmp_path / "Main.mp4").write_bytes(b"earlier render")
    assert frames_to_write(str(tmp_path / "Main.mp4"), range(30), skip_existing=True) == []
    assert len(frames_to_write(str(tmp_path / "Other.mp4"), range(30), True)) == 30


def test_on_frame_reports_comp_frame_numbers(tmp_path):
    seen = []
    chunk = plan_chunks([5, 6, 9], "h264", parts=1)[0]
    export_chunk(chunk, (moving_frame(n) for n in chunk.frames), "h264", str(tmp_path / "a.mp4"),
                 30, None, OpenedFiles(), on_frame=seen.append)
    assert seen == [5, 6, 9]


def _killed_mid_chunk(chunk, fmt, output, kill_in_rename):
    """A worker that SIGKILLs itself part way through its chunk: after two frames, or (for a
    sequence) between writing a frame's temporary and renaming it."""
    import signal

    import workers.exporter.image_sequence as image_sequence

    def frames():
        for done, number in enumerate(chunk.frames):
            if done == 2 and not kill_in_rename:
                os.kill(os.getpid(), signal.SIGKILL)
            yield moving_frame(number)

    if kill_in_rename:
        renamed = []
        real_publish = image_sequence.publish

        def publish(temporary, final, opened):
            if len(renamed) == 1:
                os.kill(os.getpid(), signal.SIGKILL)
            renamed.append(final)
            real_publish(temporary, final, opened)

        image_sequence.publish = publish
    export_chunk(chunk, frames(), fmt, output, 30, None, OpenedFiles())


@pytest.mark.parametrize("fmt,name,kill_in_rename", [
    ("h264", "Main.mp4", False), ("png", "f_[##].png", False), ("png", "f_[##].png", True)])
def test_files_of_a_worker_killed_mid_chunk_are_known_by_name(tmp_path, fmt, name,
                                                             kill_in_rename):
    import multiprocessing

    (tmp_path / "f_.png").write_bytes(b"a user's file with a similar name")
    output = str(tmp_path / name)
    chunk = plan_chunks(range(5), fmt, parts=1)[0]
    supervisor = OpenedFiles()
    supervisor.add_all(chunk_paths(chunk, fmt, output))  # before the worker starts
    worker = multiprocessing.get_context("fork").Process(
        target=_killed_mid_chunk, args=(chunk, fmt, output, kill_in_rename))
    worker.start()
    worker.join(30)
    assert worker.exitcode == -9
    assert len(os.listdir(tmp_path)) > 1  # it did leave something behind
    supervisor.remove_all()
    assert os.listdir(tmp_path) == ["f_.png"]
    # The retry gets its own temporaries and completes.
    retry = with_new_token(chunk)
    temporaries = {p for p in chunk_paths(retry, fmt, output) if p.endswith(".part")}
    assert temporaries and temporaries.isdisjoint(chunk_paths(chunk, fmt, output))
    opened = OpenedFiles()
    segment = export_chunk(retry, (moving_frame(n) for n in retry.frames), fmt, output, 30,
                           None, opened)
    if segment:
        join_segments([segment], fmt, output, 30, opened)
    assert set(opened.paths) <= set(chunk_paths(retry, fmt, output)) | {output}
