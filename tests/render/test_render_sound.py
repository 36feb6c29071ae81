"""Rendered sound, measured: real sound files made here (the wave module, PyAV), rendered by real
render workers into mp4, mov, webm and wav, decoded again with PyAV, and checked for where the
sound starts, how loud it is, how long the track lasts, and that the pictures did not change."""

import os
import threading
from contextlib import nullcontext

import av
import numpy as np
import pytest

from protocol.cancel import Cancelled
from tests.helpers.render_sessions import Recorder, files_in, render_session
from tests.helpers.sound_files import (RATE, decode_sound, onset, rms, stream_seconds, tone,
                                       write_video_with_sound, write_wav)

FPS = 24
TONE_RMS = 0.5 / np.sqrt(2)  # a sine of amplitude 0.5
AAC_FRAME = 1024  # one audio frame of AAC: how near an onset must land


@pytest.fixture(scope="module")
def session():
    with render_session(workers=2) as made:
        yield made


@pytest.fixture
def engine(session):
    engine = session.engine
    engine.run("project.new", {})
    return engine


def new_comp(engine, name="Main", seconds=3.0, width=64, height=36):
    engine.run("comp.new", {"name": name, "duration": seconds, "width": width,
                            "height": height, "frameRate": FPS})
    engine.run("layer.add", {"comp": name, "type": "solid", "color": "#204060"})
    return name


def stereo_tone(seconds=1.0, amplitude=0.5, frequency=440.0):
    return np.stack([tone(seconds, frequency, amplitude)] * 2)


def render(engine, **item) -> dict:
    added = engine.run("renderQueue.add", {"comp": "Main", **item})
    report = engine.run("renderQueue.render", {})
    entry = next(e for e in report["items"] if e["item"] == added["item"])
    assert entry["status"] == "done", report
    return {**added, **entry}


def sound_of(path, seconds=None):
    signal, rate = decode_sound(path)
    assert rate == RATE
    return signal[:, :round(seconds * RATE)] if seconds else signal


def video_packets(path):
    with av.open(str(path)) as container:
        return [bytes(packet) for packet in container.demux(video=0) if packet.size]


def test_a_tone_at_one_second_is_heard_from_then_and_the_track_lasts_the_comp(engine, tmp_path):
    new_comp(engine)
    engine.run("layer.add", {"comp": "Main", "type": "audio", "startTime": 1.0,
                             "inPoint": 1.0, "path": write_wav(tmp_path / "tone.wav",
                                                               stereo_tone())})
    loud = render(engine, output=str(tmp_path / "loud.mp4"))
    silent = render(engine, output=str(tmp_path / "silent.mp4"), audio=False)
    track = sound_of(loud["output"])
    assert track.shape[1] >= 3 * RATE and stream_seconds(loud["output"]) == pytest.approx(3.0)
    track = track[:, :3 * RATE]
    assert rms(track[:, :RATE - AAC_FRAME]) < 1e-3, "silence before 1 s"
    assert rms(track[:, RATE + AAC_FRAME:2 * RATE - AAC_FRAME]) == pytest.approx(TONE_RMS,
                                                                               rel=0.03)
    assert rms(track[:, 2 * RATE + AAC_FRAME:]) < 1e-3, "silence after the tone"
    assert abs(onset(track) - RATE) <= AAC_FRAME
    with av.open(silent["output"]) as container:
        assert not container.streams.audio
    # The sound is muxed beside the pictures: their packets are the very bytes of the render
    # without sound.
    assert video_packets(loud["output"]) == video_packets(silent["output"])
    assert files_in(tmp_path) == {"tone.wav", "loud.mp4", "silent.mp4"}


def test_minus_six_db_halves_the_amplitude_and_a_fade_in_rises_every_sample(engine, tmp_path):
    new_comp(engine, seconds=2.0)
    # A constant signal shows the level itself, sample by sample.
    steady = write_wav(tmp_path / "dc.wav", np.full((2, 2 * RATE), 0.5, np.float32))
    engine.run("layer.add", {"comp": "Main", "type": "audio", "name": "Bed", "path": steady})
    engine.run("prop.set", {"comp": "Main", "layer": "Bed", "path": "audio.level",
                            "value": -6.02})
    half = sound_of(render(engine, output=str(tmp_path / "half.wav"))["output"])
    assert np.median(half) == pytest.approx(0.25, abs=2 / 32768)
    for time, level in ((0.5, -96), (1.5, 0)):
        engine.run("prop.addKey", {"comp": "Main", "layer": "Bed", "path": "audio.level",
                                   "time": time, "value": level})
    faded = sound_of(render(engine, output=str(tmp_path / "fade.wav"))["output"])[0]
    assert np.all(faded[:RATE // 2] == 0), "-96 dB is silence"
    ramp = faded[RATE // 2:3 * RATE // 2]
    assert np.all(np.diff(ramp) >= 0), "the fade never falls back"
    expected = 0.5 * 10 ** ((-96 + 96 * np.arange(RATE) / RATE) / 20)
    assert np.abs(ramp - expected).max() < 2 / 32768, "the level is exact at every sample"
    # No zipper: near full level every sample is louder than the one before, not a step per
    # video frame (2000 samples at 24 fps).
    assert np.all(np.diff(ramp[-RATE // 10:]) > 0)
    assert np.median(faded[3 * RATE // 2:]) == pytest.approx(0.5, abs=2 / 32768)


def test_a_video_plays_its_own_sound_at_its_level_and_not_when_muted(engine, tmp_path):
    new_comp(engine, seconds=2.0)
    clip = write_video_with_sound(tmp_path / "talk.mp4", FPS, FPS, stereo_tone())
    engine.run("layer.add", {"comp": "Main", "type": "video", "name": "Talk", "path": clip,
                             "startTime": 0.5, "inPoint": 0.5})
    heard = sound_of(render(engine, output=str(tmp_path / "heard.wav"))["output"])
    assert abs(onset(heard) - RATE // 2) <= AAC_FRAME
    assert rms(heard[:, RATE // 2 + AAC_FRAME:RATE + RATE // 2 - AAC_FRAME]) == \
        pytest.approx(TONE_RMS, rel=0.03)
    engine.run("prop.set", {"comp": "Main", "layer": "Talk", "path": "audio.level",
                            "value": -6.02})
    lower = sound_of(render(engine, output=str(tmp_path / "lower.wav"))["output"])
    assert rms(lower[:, RATE // 2 + AAC_FRAME:RATE + RATE // 2 - AAC_FRAME]) == \
        pytest.approx(TONE_RMS / 2, rel=0.03)
    engine.run("prop.set", {"comp": "Main", "layer": "Talk", "path": "audio.muted",
                            "value": True})
    engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "muted.mp4")})
    report = engine.run("renderQueue.render", {})
    assert report["failed"] == 0
    with av.open(str(tmp_path / "muted.mp4")) as container:
        assert not container.streams.audio, "a comp with nothing to hear gets no track"
    muted = sound_of(render(engine, output=str(tmp_path / "muted.wav"))["output"])
    assert np.abs(muted).max() == 0


def test_a_precomp_is_heard_in_its_parent_with_the_precomp_layers_timing_and_level(
        engine, tmp_path):
    new_comp(engine)
    engine.run("comp.new", {"name": "Voice", "duration": 1.0, "width": 64, "height": 36,
                            "frameRate": FPS})
    engine.run("layer.add", {"comp": "Voice", "type": "audio",
                             "path": write_wav(tmp_path / "v.wav", stereo_tone())})
    engine.run("layer.add", {"comp": "Main", "type": "precomp", "source": "Voice",
                             "name": "Inner", "startTime": 1.5, "inPoint": 1.5,
                             "outPoint": 2.5})
    engine.run("prop.set", {"comp": "Main", "layer": "Inner", "path": "audio.level",
                            "value": -6.02})
    track = sound_of(render(engine, output=str(tmp_path / "nested.wav"))["output"])
    assert onset(track) == pytest.approx(1.5 * RATE, abs=2)
    assert rms(track[:, int(1.6 * RATE):int(2.4 * RATE)]) == pytest.approx(TONE_RMS / 2,
                                                                        rel=0.01)
    assert rms(track[:, int(2.5 * RATE):]) == 0


def test_in_and_out_points_trim_a_sound_and_start_time_places_it(engine, tmp_path):
    new_comp(engine, seconds=3.0)
    # Two tones one after the other, so a trim shows which part of the file plays.
    low, high = tone(1.0, 300), tone(1.0, 900)
    path = write_wav(tmp_path / "two.wav", np.stack([np.concatenate([low, high])] * 2))
    engine.run("layer.add", {"comp": "Main", "type": "audio", "path": path, "startTime": 0.5,
                             "inPoint": 1.5, "outPoint": 2.25})
    track = sound_of(render(engine, output=str(tmp_path / "trim.wav"))["output"])[0]
    assert np.all(track[:int(1.5 * RATE)] == 0) and np.all(track[int(2.25 * RATE):] == 0)
    heard = track[int(1.5 * RATE):int(2.25 * RATE)]
    # Comp 1.5 s is the file's 1.0 s: the start of the high tone, exactly.
    expected = np.round(high[:heard.size] * 32767) / 32768
    assert np.abs(heard - expected).max() < 2 / 32768


def test_a_frame_range_carries_the_matching_stretch_of_sound(engine, tmp_path):
    new_comp(engine)
    engine.run("layer.add", {"comp": "Main", "type": "audio", "startTime": 1.0,
                             "inPoint": 1.0, "path": write_wav(tmp_path / "tone.wav",
                                                               stereo_tone())})
    whole = sound_of(render(engine, output=str(tmp_path / "whole.wav"))["output"])
    second = sound_of(render(engine, output=str(tmp_path / "second.wav"),
                             frames=f"{FPS}-{2 * FPS - 1}")["output"])
    assert second.shape[1] == RATE and np.array_equal(second, whole[:, RATE:2 * RATE])
    pieces = render(engine, output=str(tmp_path / "pieces.mp4"),
                    frames=f"0-{FPS // 2 - 1},{FPS}-{FPS + FPS // 2 - 1}")
    track = sound_of(pieces["output"])
    assert stream_seconds(pieces["output"]) == pytest.approx(1.0)
    assert rms(track[:, :RATE // 2 - AAC_FRAME]) < 1e-3  # frames 0-11: before the tone
    assert rms(track[:, RATE // 2 + AAC_FRAME:RATE - AAC_FRAME]) == pytest.approx(TONE_RMS,
                                                                                rel=0.03)


@pytest.mark.parametrize("ext,fmt,codec_name,params", [
    ("webm", "vp9", "opus", {"codecOptions": {"cpu-used": "8", "deadline": "realtime"}}),
    ("mov", "prores", "aac", {}),
    ("mov", "prores", "pcm_s16le", {"audioCodec": "pcm_s16le"}),
    ("mp4", "hevc", "aac", {"codecOptions": {"preset": "ultrafast"}, "audioBitrate": "96k"}),
    ("mp4", "av1", "aac", {"codecOptions": {"preset": "10"}}),
    ("wav", "wav", "pcm_s24le", {"audioCodec": "pcm_s24le"}),
])
def test_each_format_carries_its_sound(engine, tmp_path, ext, fmt, codec_name, params):
    new_comp(engine, seconds=2.0)
    engine.run("layer.add", {"comp": "Main", "type": "audio", "startTime": 0.5, "inPoint": 0.5,
                             "path": write_wav(tmp_path / "tone.wav", stereo_tone())})
    done = render(engine, output=str(tmp_path / f"out.{ext}"), format=fmt, **params)
    with av.open(done["output"]) as container:
        assert container.streams.audio[0].codec_context.name == codec_name
        assert len(container.streams.video) == (0 if fmt == "wav" else 1)
    track = sound_of(done["output"])
    exact = codec_name.startswith("pcm") or codec_name == "opus"  # trimmed to the sample
    assert track.shape[1] == 2 * RATE if exact else track.shape[1] >= 2 * RATE
    assert abs(onset(track) - RATE // 2) <= (2 if codec_name.startswith("pcm") else AAC_FRAME)
    assert rms(track[:, RATE // 2 + AAC_FRAME:3 * RATE // 2 - AAC_FRAME]) == \
        pytest.approx(TONE_RMS, rel=0.03)
    assert files_in(tmp_path) == {"tone.wav", f"out.{ext}"}


def test_gif_and_image_sequences_carry_no_sound(engine, tmp_path):
    new_comp(engine, seconds=0.5)
    engine.run("layer.add", {"comp": "Main", "type": "audio",
                             "path": write_wav(tmp_path / "tone.wav", stereo_tone())})
    render(engine, output=str(tmp_path / "a.gif"))
    render(engine, output=str(tmp_path / "f_[##].png"), frames="0-1")
    assert files_in(tmp_path) == {"tone.wav", "a.gif", "f_00.png", "f_01.png"}


def hot_mix(engine, tmp_path):
    """Main (2 s): two 0.9 tones from 0.5 s to 1.5 s, +5.1 dBFS together."""
    new_comp(engine, seconds=2.0)
    loud = write_wav(tmp_path / "loud.wav", stereo_tone(amplitude=0.9))
    for name in ("A", "B"):
        engine.run("layer.add", {"comp": "Main", "type": "audio", "name": name, "path": loud,
                                 "startTime": 0.5, "inPoint": 0.5})


def test_without_its_limiter_a_mix_past_full_scale_is_clipped_and_the_report_says_where(
        engine, tmp_path):
    hot_mix(engine, tmp_path)
    engine.run("comp.set", {"comp": "Main", "audioLimiter": False})
    done = render(engine, output=str(tmp_path / "hot.wav"))
    assert len(done["warnings"]) == 1
    warning = done["warnings"][0]
    assert "goes past full scale" in warning and "+5.1 dBFS" in warning and \
        "between 0.50 s and 1.50 s" in warning and "cut to full scale" in warning and \
        "audioLimiter" in warning and "lower the audio.level" in warning
    assert np.abs(sound_of(done["output"])).max() <= 1.0


def test_a_float_wav_past_full_scale_is_said_to_keep_its_samples(engine, tmp_path):
    hot_mix(engine, tmp_path)
    engine.run("comp.set", {"comp": "Main", "audioLimiter": False})
    done = render(engine, output=str(tmp_path / "hot.wav"), audioCodec="pcm_f32le")
    warning, = done["warnings"]
    assert "keeps those samples as they are" in warning and "cut" not in warning
    assert np.abs(sound_of(done["output"])).max() == pytest.approx(1.8, abs=0.01)


def test_with_its_limiter_on_by_default_a_hot_mix_says_nothing_and_stays_under_it(engine,
                                                                                   tmp_path):
    hot_mix(engine, tmp_path)
    done = render(engine, output=str(tmp_path / "hot.wav"), audioCodec="pcm_f32le")
    assert "warnings" not in done
    assert np.abs(sound_of(done["output"])).max() <= 10 ** (-1 / 20)


def test_the_same_bytes_with_one_two_and_three_workers(session, tmp_path):
    outputs = []
    for workers in (1, 2, 3):
        made = render_session(workers=workers) if workers != 2 else nullcontext(session)
        with made as current:
            engine = current.engine
            engine.run("project.new", {})
            new_comp(engine, seconds=2.0)
            engine.run("layer.add", {"comp": "Main", "type": "shape", "shape": "ellipse",
                                     "size": [20, 20], "fill": "#ffcc00"})
            engine.run("prop.addKey", {"comp": "Main", "layer": 1, "path":
                                       "transform.position", "time": 0, "value": [0, 18]})
            engine.run("prop.addKey", {"comp": "Main", "layer": 1, "path":
                                       "transform.position", "time": 2, "value": [64, 18]})
            engine.run("layer.add", {"comp": "Main", "type": "audio", "startTime": 0.3,
                                     "inPoint": 0.3, "path": write_wav(
                                         tmp_path / "tone.wav", stereo_tone())})
            outputs.append(render(engine, output=str(tmp_path / f"w{workers}.mp4"),
                                  codecOptions={"preset": "veryfast"})["output"])
    first, *others = [open(path, "rb").read() for path in outputs]
    assert all(other == first for other in others)
    with av.open(outputs[0]) as container:
        assert container.streams.audio and container.streams.video


def test_a_cancelled_render_leaves_no_sound_track_behind(session, tmp_path):
    engine = session.engine
    engine.run("project.new", {})
    engine.run("comp.new", {"name": "Main", "duration": 4.0, "width": 480, "height": 270,
                            "frameRate": FPS})
    engine.run("layer.add", {"comp": "Main", "type": "solid", "color": "#204060"})
    engine.run("effect.add", {"comp": "Main", "layer": 1, "effect": "gaussianBlur",
                              "params": {"radius": 40}})
    engine.run("layer.add", {"comp": "Main", "type": "audio",
                             "path": write_wav(tmp_path / "bed.wav", stereo_tone(4.0))})
    out = tmp_path / "out"
    out.mkdir()
    engine.run("renderQueue.add", {"comp": "Main", "output": str(out / "main.mp4")})
    seen = threading.Event()
    written = []

    def on_progress(progress, total, message):
        # Once the sound is mixed (its track waits for the join) and pictures are drawing.
        written.append(progress)
        tracks = [name for name in files_in(out) if ".audio." in name]
        if tracks and progress >= 12 and not seen.is_set():
            seen.set()
            recorder.ctx.cancel.cancel("test")

    recorder = Recorder(session, on_progress)
    with pytest.raises(Cancelled):
        engine.run("renderQueue.render", {}, recorder.ctx)
    assert seen.is_set()
    # The finished segments wait in the video's cache for a resume (docs/outputs.md,
    # "Resuming a video"); no sound track, no temporary and no video is left.
    left = files_in(out)
    assert all(name.startswith(".main.mp4.segments/") and name.endswith(".seg")
               for name in left), left
    assert set(os.listdir(tmp_path)) == {"bed.wav", "out"}


def open_track_holder(session):
    """The render worker that has a sound track open for writing, or None."""
    for worker in list(session.pool._all):
        if worker.kind != "render" or not worker.alive:
            continue
        try:
            names = [os.readlink(f"/proc/{worker.pid}/fd/{fd}")
                     for fd in os.listdir(f"/proc/{worker.pid}/fd")]
        except OSError:
            continue
        if any(".audio." in name for name in names):
            return worker
    return None


def test_a_worker_killed_while_mixing_is_replaced_and_the_sound_mixed_again(tmp_path):
    with render_session(workers=1) as session:
        engine = session.engine
        new_comp(engine, seconds=30.0)
        engine.run("layer.add", {"comp": "Main", "type": "audio",
                                 "path": write_wav(tmp_path / "bed.wav", stereo_tone(30.0))})
        killed = []

        def kill_the_mixer():
            while not killed:
                holder = open_track_holder(session)
                if holder is not None:
                    killed.append(holder.pid)
                    os.kill(holder.pid, 9)

        threading.Thread(target=kill_the_mixer, daemon=True).start()
        done = render(engine, output=str(tmp_path / "bed.mp4"), frames=f"0-{10 * FPS - 1}")
        assert killed
        assert files_in(tmp_path) == {"bed.wav", "bed.mp4"}, "the dead attempt's track is gone"
        track = sound_of(done["output"])
        assert track.shape[1] >= 10 * RATE
        assert rms(track[:, AAC_FRAME:10 * RATE]) == pytest.approx(TONE_RMS, rel=0.03)


def test_a_sound_file_damaged_after_import_fails_its_item_in_one_sentence(engine, tmp_path):
    new_comp(engine, seconds=1.0)
    path = write_wav(tmp_path / "bed.wav", stereo_tone())
    engine.run("layer.add", {"comp": "Main", "type": "audio", "path": path})
    with open(path, "r+b") as damaged:
        damaged.write(b"\0" * 64)  # its header gone: no longer a WAV
    added = engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "x.mp4")})
    report = engine.run("renderQueue.render", {})
    entry = next(e for e in report["items"] if e["item"] == added["item"])
    assert entry["status"] == "failed"
    assert entry["error"].startswith(f"{added['item']} failed while mixing its sound: the "
                                     f"sound of {path} could not be read")
    assert "\n" not in entry["error"] and "Traceback" not in entry["error"]
    # The video's finished segments wait in its cache for a resume (docs/outputs.md,
    # "Resuming a video"); no sound temporary, no output.
    assert {name for name in files_in(tmp_path) if not name.startswith(".x.mp4.segments/")} \
        == {"bed.wav"}


CEILING = -1.0
# Every format and audio codec a rendered mix can be encoded in.
CODECS = [("mp4", "h264", None), ("mov", "prores", "aac"), ("mov", "prores", "pcm_s16le"),
          ("mov", "prores", "pcm_s24le"), ("webm", "vp9", None), ("wav", "wav", "pcm_s16le"),
          ("wav", "wav", "pcm_s24le"), ("wav", "wav", "pcm_f32le")]


def two_full_scale_sines(engine, tmp_path):
    """Main (2 s): two full-scale sines (440 and 554 Hz) mixed, peaking near +6 dBFS."""
    new_comp(engine, seconds=2.0)
    for frequency in (440, 554):
        engine.run("layer.add", {"comp": "Main", "type": "audio", "path": write_wav(
            tmp_path / f"sine{frequency}.wav", stereo_tone(2.0, 1.0, frequency))})


def true_peak_db(signal):
    """An independent true-peak meter: scipy's 4x polyphase resampler, the loudest point."""
    from scipy.signal import resample_poly
    return 20 * np.log10(np.abs(resample_poly(signal, 4, 1, axis=1)).max())


@pytest.mark.parametrize("ext,fmt,codec", CODECS)
def test_the_limiter_keeps_the_decoded_peak_under_its_ceiling_in_every_codec(
        engine, tmp_path, ext, fmt, codec):
    two_full_scale_sines(engine, tmp_path)
    done = render(engine, output=str(tmp_path / f"out.{ext}"), format=fmt,
                  **({"audioCodec": codec} if codec else {}))
    assert "warnings" not in done, done["warnings"]
    track = sound_of(done["output"])
    peak = 20 * np.log10(np.abs(track).max())
    assert peak <= CEILING, f"the decoded sample peak is {peak:.2f} dBFS"
    if ext == "wav" or codec and codec.startswith("pcm"):
        assert true_peak_db(track) <= CEILING
    # Turned down, not cut: the loud part is still a steady pair of sines near the ceiling.
    assert peak > CEILING - 1.0


@pytest.mark.parametrize("ext,fmt,codec", [("wav", "wav", "pcm_s16le"), ("mp4", "h264", None),
                                           ("webm", "vp9", None)])
def test_a_loudness_target_is_met_within_half_a_lu(engine, tmp_path, ext, fmt, codec):
    import pyloudnorm
    new_comp(engine, seconds=3.0)
    engine.run("layer.add", {"comp": "Main", "type": "audio", "path": write_wav(
        tmp_path / "quiet.wav", stereo_tone(3.0, 0.05, 440))})
    engine.run("layer.add", {"comp": "Main", "type": "audio", "startTime": 1.0, "inPoint": 1.0,
                             "path": write_wav(tmp_path / "burst.wav",
                                               stereo_tone(0.5, 0.3, 2000))})
    engine.run("comp.set", {"comp": "Main", "audioLoudness": -16})
    done = render(engine, output=str(tmp_path / f"out.{ext}"), format=fmt,
                  **({"audioCodec": codec} if codec else {}))
    track = sound_of(done["output"])
    measured = pyloudnorm.Meter(RATE).integrated_loudness(track.T.astype(np.float64))
    assert measured == pytest.approx(-16, abs=0.5)
    assert true_peak_db(track) <= CEILING + (0 if ext == "wav" else 0.5)
