"""Cancel and failure: exactly the files the exporter opened are removed; files that were
there before (even with similar names), finished outputs and skipped frames stay."""

from __future__ import annotations

import os

import pytest

from tests.helpers.synthetic_frames import moving_frame, moving_frames
from workers.exporter import (OpenedFiles, encode_segment, join_segments, segment_path,
                              write_sequence)


class Cancelled(Exception):
    """Stands for the worker's cancel arriving between two frames."""


def frames_then_cancel(count):
    """What a cancelled render's frame source does: some frames, then the cancel."""
    for index in range(count):
        yield moving_frame(index)
    raise Cancelled


def listing(folder):
    return sorted(os.listdir(folder))


def test_cancel_mid_segment_removes_the_segments_and_keeps_similar_names(tmp_path):
    # A user's files that look like ours: never touched, because cleanup never scans.
    for name in ("Main_old.mp4", ".Main.mp4.seg000000.abc.part", "Main.mp4.bak"):
        (tmp_path / name).write_bytes(b"theirs")
    before = listing(tmp_path)
    final = str(tmp_path / "Main.mp4")
    opened = OpenedFiles()
    encode_segment(moving_frames(10), 0, 30, "h264", {}, segment_path(final, 0), opened=opened)
    with pytest.raises(Cancelled):
        encode_segment(frames_then_cancel(5), 10, 30, "h264", {}, segment_path(final, 10),
                       opened=opened)
    assert len(opened) == 2 and len(listing(tmp_path)) == len(before) + 2
    recorded = opened.paths
    assert sorted(opened.remove_all()) == sorted(recorded)
    assert listing(tmp_path) == before
    assert all((tmp_path / name).read_bytes() == b"theirs" for name in before)


def test_failure_during_join_leaves_no_temporary(tmp_path):
    final = str(tmp_path / "Main.mp4")
    opened = OpenedFiles()
    first = segment_path(final, 0)
    encode_segment(moving_frames(10), 0, 30, "h264", {}, first, opened=opened)
    (tmp_path / "broken.part").write_bytes(b"not a video")
    opened.add(str(tmp_path / "broken.part"))
    with pytest.raises(Exception):
        join_segments([first, str(tmp_path / "broken.part")], "h264", final, 30, opened=opened)
    assert not os.path.exists(final)
    opened.remove_all()
    assert listing(tmp_path) == []


def test_finished_items_survive_a_later_cancel(tmp_path):
    opened = OpenedFiles()
    done = str(tmp_path / "Done.mp4")
    segment = segment_path(done, 0)
    encode_segment(moving_frames(5), 0, 30, "h264", {}, segment, opened=opened)
    join_segments([segment], "h264", done, 30, opened=opened)
    opened.keep([done])  # the item is finished
    pattern = str(tmp_path / "seq_[##].png")
    with pytest.raises(Cancelled):
        write_sequence(((n, f) for n, f in enumerate(frames_then_cancel(3))), pattern, "png",
                       opened=opened)
    assert listing(tmp_path) == ["Done.mp4", "seq_00.png", "seq_01.png", "seq_02.png"]
    opened.remove_all()
    assert listing(tmp_path) == ["Done.mp4"]


def test_cleanup_removes_the_folders_it_made_only_when_empty(tmp_path):
    opened = OpenedFiles()
    write_sequence([(0, moving_frame(0))], str(tmp_path / "a" / "b" / "f_[#].png"), "png",
                   opened=opened)
    (tmp_path / "a" / "user.txt").write_text("theirs")
    opened.remove_all()
    assert listing(tmp_path / "a") == ["user.txt"]  # b went; a holds someone's file


def test_records_merge_across_workers_as_plain_lists(tmp_path):
    worker = OpenedFiles()
    write_sequence([(0, moving_frame(0))], str(tmp_path / "new" / "f_[#].png"), "png",
                   opened=worker)
    # What crosses the wire: plain lists of strings.
    received = OpenedFiles(list(worker.paths), list(worker.folders))
    supervisor = OpenedFiles()
    supervisor.merge(received)
    supervisor.remove_all()
    assert listing(tmp_path) == []
