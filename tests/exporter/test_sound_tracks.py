"""A mix encoded as a track (workers/exporter/sound_tracks.py), decoded again with PyAV: Opus
fed a 44.1 kHz mix comes out at 48 kHz and the same length, float PCM keeps what is past full
scale while every other codec is cut to it, and the same mix makes the same bytes."""

import numpy as np
import pytest

from tests.helpers.sound_files import decode_sound, tone
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.sound_tracks import SoundTrackWriter


def write(path, fmt, codec, block, rate=48000, bitrate=None):
    opened = OpenedFiles()
    writer = SoundTrackWriter(str(path), fmt, codec, bitrate, rate, opened)
    for start in range(0, block.shape[1], rate):
        writer.write(block[:, start:start + rate])
    writer.close()
    assert opened.paths == [str(path)], "the track was recorded before it was opened"
    return decode_sound(path)


def test_opus_is_fed_at_its_own_rate_and_keeps_the_length(tmp_path):
    mix = np.stack([tone(2.0, 500, 0.5, rate=44100)] * 2)
    sound, rate = write(tmp_path / "t.webm", "vp9", None, mix, rate=44100)
    assert rate == 48000 and sound.shape[1] == pytest.approx(96000, abs=2)
    crossings = np.count_nonzero(np.diff(np.signbit(sound[0, 2000:94000])))
    assert crossings / 2 / (92000 / 48000) == pytest.approx(500, rel=0.01)


def test_past_full_scale_is_kept_in_float_pcm_and_cut_elsewhere(tmp_path):
    hot = np.full((2, 4800), 1.5, np.float32)
    kept, _ = write(tmp_path / "f.wav", "wav", "pcm_f32le", hot)
    cut, _ = write(tmp_path / "s.wav", "wav", "pcm_s24le", hot)
    assert np.allclose(kept, 1.5) and np.allclose(cut, 1.0, atol=1e-6)


def test_the_same_mix_makes_the_same_bytes(tmp_path):
    mix = np.stack([tone(1.0, 300), tone(1.0, 450)])
    for fmt, ext in (("h264", "mp4"), ("vp9", "webm"), ("prores", "mov"), ("wav", "wav")):
        write(tmp_path / f"a.{ext}", fmt, None, mix, bitrate=None)
        write(tmp_path / f"b.{ext}", fmt, None, mix, bitrate=None)
        assert (tmp_path / f"a.{ext}").read_bytes() == (tmp_path / f"b.{ext}").read_bytes(), fmt
