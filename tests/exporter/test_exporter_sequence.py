"""Image sequences: each frame through a temporary name, exact PNG, JPEG within tolerance,
skipExisting."""

from __future__ import annotations

import os

import av
import numpy as np
import pytest

from tests.helpers.synthetic_frames import HEIGHT, WIDTH, moving_frame
from workers.exporter import CodecOptionError, OpenedFiles, frames_to_write, write_sequence
from workers.exporter.image_sequence import ImageEncoder
from workers.exporter.pixels import over_black


def numbered_frames(numbers, alpha=True):
    return [(n, moving_frame(n, alpha=alpha)) for n in numbers]


def read_image(path):
    with av.open(path) as container:
        frame = next(container.decode(video=0))
        return frame.to_ndarray(format="rgba")


def test_png_frames_are_exact_with_alpha_and_named_by_comp_frame(tmp_path):
    pattern = str(tmp_path / "Main_[####].png")
    written = write_sequence(numbered_frames([3, 4, 120]), pattern, "png")
    assert sorted(os.listdir(tmp_path)) == ["Main_0003.png", "Main_0004.png", "Main_0120.png"]
    assert written == [str(tmp_path / f"Main_{n:04d}.png") for n in (3, 4, 120)]
    for n in (3, 4, 120):
        image = read_image(str(tmp_path / f"Main_{n:04d}.png"))
        assert image.shape == (HEIGHT, WIDTH, 4)
        assert np.array_equal(image, moving_frame(n, alpha=True))


def test_png_bytes_do_not_depend_on_which_call_wrote_them(tmp_path):
    # What 1, 2 or 3 workers give: each writes some of the frames with its own encoder.
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    write_sequence(numbered_frames(range(6)), str(tmp_path / "one" / "f_[##].png"), "png")
    write_sequence(numbered_frames(range(3)), str(tmp_path / "two" / "f_[##].png"), "png")
    write_sequence(numbered_frames(range(3, 6)), str(tmp_path / "two" / "f_[##].png"), "png")
    for n in range(6):
        name = f"f_{n:02d}.png"
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_jpeg_frames_are_close_and_composited_over_black(tmp_path):
    pattern = str(tmp_path / "shot_[###].jpg")
    write_sequence(numbered_frames([0, 7]), pattern, "jpeg")
    for n in (0, 7):
        image = read_image(str(tmp_path / f"shot_{n:03d}.jpg"))[..., :3].astype(int)
        expected = over_black(moving_frame(n, alpha=True)).astype(int)
        assert np.abs(image - expected).mean() < 1.5
        # Where the frame is transparent the picture is black, not the hidden colour.
        assert image[:, -1].max() < 24


def test_jpeg_qscale_trades_size_for_quality(tmp_path):
    frames = numbered_frames([5], alpha=False)
    best = write_sequence(frames, str(tmp_path / "best_[#].jpg"), "jpeg", {"qscale": "1"})[0]
    worst = write_sequence(frames, str(tmp_path / "worst_[#].jpg"), "jpeg", {"qscale": 31})[0]
    assert os.path.getsize(worst) < 0.75 * os.path.getsize(best)
    expected = moving_frame(5)[..., :3].astype(int)
    best_error = np.abs(read_image(best)[..., :3] - expected).mean()
    assert best_error < 1.5  # also: JPEG's own matrix (BT.601, full range), not video's
    assert best_error * 3 < np.abs(read_image(worst)[..., :3] - expected).mean()
    with pytest.raises(CodecOptionError, match="qscale"):
        write_sequence(frames, str(tmp_path / "bad_[#].jpg"), "jpeg", {"qscale": "0"})


def test_no_temporary_is_left_and_every_file_is_recorded(tmp_path):
    opened = OpenedFiles()
    pattern = str(tmp_path / "deep" / "er" / "f_[##].png")
    write_sequence(numbered_frames(range(4)), pattern, "png", opened=opened)
    assert sorted(os.listdir(tmp_path / "deep" / "er")) == [f"f_{n:02d}.png" for n in range(4)]
    assert opened.paths == [str(tmp_path / "deep" / "er" / f"f_{n:02d}.png") for n in range(4)]
    assert opened.folders == [str(tmp_path / "deep"), str(tmp_path / "deep" / "er")]


def test_a_frame_being_written_is_never_at_its_final_name(tmp_path, monkeypatch):
    # Stop the write between the temporary's write and the rename: the final name must not
    # exist, only the recorded temporary, which cleanup removes.
    import workers.exporter.image_sequence as image_sequence

    def interrupted(temporary, final_path, opened):
        raise KeyboardInterrupt

    monkeypatch.setattr(image_sequence, "publish", interrupted)
    opened = OpenedFiles()
    with pytest.raises(KeyboardInterrupt):
        write_sequence(numbered_frames([1]), str(tmp_path / "f_[#].png"), "png", opened=opened)
    names = os.listdir(tmp_path)
    assert "f_1.png" not in names and len(names) == 1 and names[0].endswith(".part")
    opened.remove_all()
    assert os.listdir(tmp_path) == []


def test_skip_existing_neither_renders_nor_writes_existing_frames(tmp_path):
    pattern = str(tmp_path / "f_[##].png")
    write_sequence(numbered_frames([1]), pattern, "png")
    kept = (tmp_path / "f_01.png").read_bytes()
    (tmp_path / "f_02.png").write_bytes(kept[:-1])  # cut short: not a frame to keep
    assert frames_to_write(pattern, range(4), skip_existing=True) == [0, 2, 3]
    assert frames_to_write(pattern, range(4), skip_existing=False) == [0, 1, 2, 3]
    opened = OpenedFiles()
    written = write_sequence(numbered_frames(range(4)), pattern, "png", opened=opened,
                             skip_existing=True)
    assert (tmp_path / "f_01.png").read_bytes() == kept
    assert str(tmp_path / "f_01.png") not in written and len(written) == 3
    assert (tmp_path / "f_02.png").read_bytes().endswith(b"IEND\xaeB`\x82")
    assert str(tmp_path / "f_01.png") not in opened
    opened.remove_all()  # a cancel: the skipped existing frame stays
    assert os.listdir(tmp_path) == ["f_01.png"]


def test_without_skip_existing_an_existing_frame_is_replaced(tmp_path):
    (tmp_path / "f_1.png").write_bytes(b"old")
    write_sequence(numbered_frames([1]), str(tmp_path / "f_[#].png"), "png")
    assert np.array_equal(read_image(str(tmp_path / "f_1.png")), moving_frame(1, alpha=True))


def png_chunks(data: bytes) -> dict:
    """A PNG's chunks by type (the last of each type), as their data."""
    chunks, at = {}, 8
    while at < len(data):
        size = int.from_bytes(data[at:at + 4], "big")
        chunks[data[at + 4:at + 8].decode("ascii")] = data[at + 8:at + 8 + size]
        at += 12 + size
    return chunks


def test_a_png_says_its_pixels_are_square():
    data = ImageEncoder("png", 8, 6).encode(np.zeros((6, 8, 4), np.uint8))
    physical = png_chunks(data).get("pHYs")
    # Absent, or an aspect ratio of 1 (unit 0): never the "0 by 1" an unset aspect gave.
    if physical is not None:
        across, down = int.from_bytes(physical[:4], "big"), int.from_bytes(physical[4:8], "big")
        assert across == down > 0 and physical[8] == 0
