"""Encoder settings that cannot work are refused with a sentence, before a frame is written."""

from __future__ import annotations

import os

import pytest

from tests.helpers.synthetic_frames import moving_frames
from workers.exporter import (CodecOptionError, ImageEncoder, OpenedFiles, encode_segment,
                              segment_path)


def try_encode(tmp_path, fmt, options, width=64, height=48):
    final = str(tmp_path / f"out.{fmt}")
    opened = OpenedFiles()
    try:
        encode_segment(moving_frames(2, width=width, height=height), 0, 30, fmt, options,
                       segment_path(final, 0), opened=opened)
    finally:
        opened.remove_all()
        assert os.listdir(tmp_path) == []


def test_unknown_prores_profile_lists_the_profiles(tmp_path):
    with pytest.raises(CodecOptionError, match="proxy, lt, standard, hq, 4444"):
        try_encode(tmp_path, "prores", {"profile": "ultra"})


def test_odd_size_yuv420p_is_refused_with_the_fix(tmp_path):
    with pytest.raises(CodecOptionError, match="even width and height.*yuv444p"):
        try_encode(tmp_path, "h264", {}, width=63)
    try_encode(tmp_path, "h264", {"pix_fmt": "yuv444p"}, width=63)


def test_an_option_the_encoder_refuses_names_the_format_and_settings(tmp_path):
    # Each is on the list; x264 refuses the pair (4:4:4 is not in the baseline profile).
    with pytest.raises(CodecOptionError, match=r"h264 encoder \(libx264\) refused.*'baseline'"):
        try_encode(tmp_path, "h264", {"profile": "baseline", "pix_fmt": "yuv444p"})


def test_the_exporter_refuses_options_off_the_list_whoever_planned_the_chunk(tmp_path):
    """The last place before FFmpeg checks too (a chunk from a Dask client, a future caller):
    x264 would truncate the file dump-yuv names before the first frame."""
    target = tmp_path / "kept.txt"
    target.write_text("kept")
    with pytest.raises(CodecOptionError, match="'dump-yuv', which makes x264 read or write"):
        encode_segment(moving_frames(2), 0, 30, "h264", {"x264-params": f"dump-yuv={target}"},
                       segment_path(str(tmp_path / "out.mp4"), 0), opened=OpenedFiles())
    (tmp_path / "sub").mkdir()
    with pytest.raises(CodecOptionError, match="'fastest'"):
        try_encode(tmp_path / "sub", "h264", {"preset": "fastest"})
    with pytest.raises(CodecOptionError, match="'stats'"):
        ImageEncoder("png", 8, 8, {"stats": str(target)})
    assert target.read_text() == "kept"
    assert sorted(os.listdir(tmp_path)) == ["kept.txt", "sub"]


def test_frames_of_another_size_are_refused(tmp_path):
    from workers.exporter.pixels import FrameShapeError
    frames = moving_frames(1) + moving_frames(1, width=32, height=32)
    opened = OpenedFiles()
    with pytest.raises(FrameShapeError, match="32x32 but the output was opened at 64x48"):
        encode_segment(frames, 0, 30, "h264", {}, segment_path(str(tmp_path / "o.mp4"), 0),
                       opened=opened)
    opened.remove_all()
    assert os.listdir(tmp_path) == []


def test_codec_options_that_bring_back_b_frames_are_caught(tmp_path):
    from workers.exporter import SegmentError
    with pytest.raises(SegmentError, match="reorders frames"):
        final = str(tmp_path / "out.mp4")
        opened = OpenedFiles()
        try:
            encode_segment(moving_frames(20), 0, 30, "h264", {"x264-params": "bframes=3"},
                           segment_path(final, 0), opened=opened)
        finally:
            opened.remove_all()
