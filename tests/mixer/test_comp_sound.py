"""The mixer read back from its samples: a source whose every sample holds its own index (a
ramp, written with the wave module at the comp's sample rate, so nothing is resampled) tells
exactly which source sample a comp sample plays, as the picture tests tell the source time by
where a dot is drawn. Levels are read from a constant source the same way."""

import numpy as np
import pytest

from tests.helpers.engine_projects import engine_with_comp
from tests.helpers.sound_files import tone, write_video_with_sound, write_wav
from workers.mixer.comp_sound import CompMixer
from workers.mixer.sound_reader import SoundReader

RATE = 8000
SCALE = 32768  # a 16-bit sample k reads back as k / 32768


def ramp_engine(tmp_path, seconds=4.0, comp_seconds=6.0, **layer):
    """Main (comp_seconds, mixed at 8 kHz) playing `seconds` of a ramp: sample k holds k."""
    engine = engine_with_comp(duration=comp_seconds, audioSampleRate=RATE)
    ramp = np.arange(int(seconds * RATE), dtype=np.float64) / 32767  # write_wav's full scale
    path = write_wav(tmp_path / "ramp.wav", np.stack([ramp, ramp]), rate=RATE)
    engine.run("layer.add", {"comp": "Main", "type": "audio", "name": "Ramp", "path": path,
                             **layer})
    return engine


def played(engine, first_second, last_second):
    """The source sample index heard at each comp sample of [first, last) (0: silence)."""
    mixer = CompMixer(engine.doc, RATE)
    first = round(first_second * RATE)
    signal = mixer.mix(engine.doc["comps"][0]["id"], first, round(last_second * RATE) - first)
    mixer.close()
    return signal[0].astype(np.float64) * SCALE


def comp_samples(first_second, last_second):
    return np.arange(round(first_second * RATE), round(last_second * RATE))


def test_start_time_shifts_the_source_to_the_sample(tmp_path):
    engine = ramp_engine(tmp_path, startTime=1.0, inPoint=1.0)
    heard = played(engine, 0, 5)
    assert np.all(heard[:RATE] == 0)
    assert np.array_equal(heard[RATE:], comp_samples(1, 5) - RATE)


def test_speed_reads_the_source_faster_or_backwards(tmp_path):
    engine = ramp_engine(tmp_path, startTime=1.0, inPoint=1.0, outPoint=2.9, speed=200)
    assert np.allclose(played(engine, 1, 2.9), 2 * (comp_samples(1, 2.9) - RATE), atol=1e-3)
    engine.run("layer.set", {"comp": "Main", "layer": "Ramp", "speed": -100, "startTime": 4.0,
                             "inPoint": 0.5, "outPoint": 4.0})
    assert np.allclose(played(engine, 0.5, 4), 4 * RATE - comp_samples(0.5, 4), atol=1e-3)


def test_time_remap_slows_the_sound_and_a_freeze_is_silent(tmp_path):
    engine = ramp_engine(tmp_path)
    for time, value in ((0, 0), (4, 2)):
        engine.run("prop.addKey", {"comp": "Main", "layer": "Ramp", "path": "timeRemap",
                                   "time": time, "value": value})
    assert np.allclose(played(engine, 0.1, 3.9), comp_samples(0.1, 3.9) / 2, atol=1e-3)
    engine.run("prop.set", {"comp": "Main", "layer": "Ramp", "path": "timeRemap",
                            "value": 1.2})
    assert np.all(played(engine, 0, 4) == 0), "a held source is silent, not a DC offset"


def test_loop_starts_the_sound_over_at_its_end(tmp_path):
    engine = ramp_engine(tmp_path, seconds=1.5, loop=True)
    engine.run("layer.set", {"comp": "Main", "layer": "Ramp", "outPoint": 6.0})
    assert np.array_equal(played(engine, 0, 6), comp_samples(0, 6) % (3 * RATE // 2))


def test_a_hold_key_steps_the_level_within_one_sample(tmp_path):
    engine = engine_with_comp(duration=2, audioSampleRate=RATE)
    path = write_wav(tmp_path / "dc.wav", np.full((2, 2 * RATE), 0.5), rate=RATE)
    engine.run("layer.add", {"comp": "Main", "type": "audio", "name": "DC", "path": path})
    for time, level, how in ((0, 0, "hold"), (1.0, -6.0206, "hold")):
        engine.run("prop.addKey", {"comp": "Main", "layer": "DC", "path": "audio.level",
                                   "time": time, "value": level, "interpolation": how})
    heard = CompMixer(engine.doc, RATE).mix(engine.doc["comps"][0]["id"], 0, 2 * RATE)[0]
    assert np.allclose(heard[:RATE], 0.5, atol=1e-4) and np.allclose(heard[RATE:], 0.25,
                                                                     atol=1e-4)


def test_a_mix_is_the_same_whichever_blocks_it_is_made_in(tmp_path):
    engine = engine_with_comp(duration=2, audioSampleRate=RATE)
    path = write_wav(tmp_path / "t.wav", np.stack([tone(2, 300, rate=RATE)] * 2), rate=RATE)
    engine.run("layer.add", {"comp": "Main", "type": "audio", "name": "T", "path": path})
    for time, level in ((0.1, -60), (1.7, 0)):
        engine.run("prop.addKey", {"comp": "Main", "layer": "T", "path": "audio.level",
                                   "time": time, "value": level, "interpolation": "easyEase"})
    comp = engine.doc["comps"][0]["id"]
    whole = CompMixer(engine.doc, RATE).mix(comp, 0, 2 * RATE)
    mixer = CompMixer(engine.doc, RATE)
    pieces = np.concatenate([mixer.mix(comp, a, b - a) for a, b in
                             ((0, 777), (777, 5003), (5003, 2 * RATE))], axis=1)
    assert np.array_equal(whole, pieces)


def test_a_sound_read_in_pieces_and_backwards_is_the_same_sound(tmp_path):
    path = write_wav(tmp_path / "t.wav", np.stack([tone(3.0, 500), tone(3.0, 700)]))
    whole = SoundReader(path, 48000).read(0, 3 * 48000)
    reader = SoundReader(path, 48000)
    ahead = [reader.read(start, 10_000) for start in range(0, 3 * 48000, 10_000)]
    assert np.array_equal(np.concatenate(ahead, axis=1)[:, :3 * 48000], whole)
    assert np.array_equal(reader.read(5_000, 100), whole[:, 5_000:5_100]), "back to the start"
    assert np.all(reader.read(-50, 50) == 0) and np.all(reader.read(3 * 48000, 10) == 0)


def test_mono_plays_at_full_level_in_both_channels_and_other_rates_are_resampled(tmp_path):
    mono = write_wav(tmp_path / "mono.wav", tone(1.0, 1000, 0.5, rate=44100), rate=44100)
    heard = SoundReader(mono, 48000).read(0, 2 * 48000)
    length = np.flatnonzero(np.abs(heard[0]) > 1e-3)[-1] + 1
    assert abs(length - 48000) <= 2, "one second is still one second"
    assert np.array_equal(heard[0], heard[1])
    middle = heard[0, 1000:47000]
    assert np.abs(middle).max() == pytest.approx(0.5, abs=0.01), "no -3 dB pan law"
    crossings = np.count_nonzero(np.diff(np.signbit(middle)))
    assert crossings / 2 / (middle.size / 48000) == pytest.approx(1000, rel=0.01)


def test_a_videos_sound_that_starts_after_its_first_frame_is_heard_that_late(tmp_path):
    clip = write_video_with_sound(tmp_path / "late.mp4", 48, 24, tone(1.0, 440, 0.5),
                                  sound_start=0.5)
    heard = SoundReader(clip, 48000).read(0, 2 * 48000)
    assert abs(np.flatnonzero(np.abs(heard[0]) > 0.02)[0] - 24000) <= 1024  # an AAC frame
