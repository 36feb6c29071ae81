"""The master bus's two measures and one stage, each against an independent implementation:
the streaming loudness meter against pyloudnorm reading the whole signal at once, and the
true-peak limiter's output against scipy's polyphase resampler as a true-peak meter."""

from __future__ import annotations

import numpy as np
import pyloudnorm
import pytest
from scipy.signal import resample_poly

from workers.mixer.limiter import LOOKAHEAD_SECONDS, TruePeakLimiter
from workers.mixer.loudness import LoudnessMeter


def signal(rate: int, seconds: float, seed: int = 1) -> np.ndarray:
    """A tone that starts after a second over quiet noise: blocks both under and over the
    gates."""
    rng = np.random.default_rng(seed)
    times = np.arange(int(rate * seconds)) / rate
    return np.stack([0.3 * np.sin(2 * np.pi * 440 * times) * (times > 1),
                     0.05 * rng.standard_normal(times.size)])


@pytest.mark.parametrize("rate,seconds,block", [(48000, 3.33, 48000), (44100, 2.05, 7919),
                                                (11025, 1.26, 1000), (8000, 5.0, 3)])
def test_the_streaming_meter_reads_as_pyloudnorm_reads_the_whole_signal(rate, seconds, block):
    mix = signal(rate, seconds)
    meter = LoudnessMeter(rate)
    for start in range(0, mix.shape[1], block):
        meter.feed(mix[:, start:start + block])
    assert meter.integrated() == pytest.approx(
        pyloudnorm.Meter(rate).integrated_loudness(mix.T), abs=1e-9)


def test_silence_and_a_mix_shorter_than_a_block_have_no_loudness():
    meter = LoudnessMeter(48000)
    meter.feed(np.zeros((2, 48000)))
    assert meter.integrated() is None
    short = LoudnessMeter(48000)
    short.feed(signal(48000, 0.3))
    assert short.integrated() is None


def limited(mix: np.ndarray, rate: int, ceiling: float, block: int) -> np.ndarray:
    limiter = TruePeakLimiter(rate, ceiling)
    out = [limiter.process(mix[:, start:start + block])
           for start in range(0, mix.shape[1], block)]
    return np.concatenate(out + [limiter.flush()], axis=1)


def hot_mix(rate: int = 48000) -> np.ndarray:
    """Half a second quiet, then two full-scale sines and a click: +6 dBFS and more."""
    times = np.arange(3 * rate) / rate
    mix = np.stack([np.sin(2 * np.pi * 440 * times) + np.sin(2 * np.pi * 554 * times)] * 2)
    mix[:, :rate // 2] *= 0.1
    mix[0, 2 * rate] = 3.0
    return mix


@pytest.mark.parametrize("ceiling", [-1.0, -6.0])
def test_the_limiter_keeps_true_peaks_under_its_ceiling_and_the_length_of_the_mix(ceiling):
    mix = hot_mix()
    out = limited(mix, 48000, ceiling, 48000)
    assert out.shape == mix.shape
    true_peak = 20 * np.log10(np.abs(resample_poly(out, 4, 1, axis=1)).max())
    assert ceiling - 0.5 < true_peak <= ceiling


def test_the_limiter_leaves_what_is_under_the_ceiling_alone_and_keeps_its_timing():
    mix = hot_mix()
    out = limited(mix, 48000, -1.0, 48000)
    untouched = int((0.5 - 2 * LOOKAHEAD_SECONDS) * 48000)
    assert np.array_equal(out[:, :untouched], mix[:, :untouched])
    # Turned down, not moved: the loud part is the mix times a gain.
    ratio = out[0, 48000:48100] / mix[0, 48000:48100]
    assert np.ptp(ratio[np.abs(mix[0, 48000:48100]) > 0.1]) < 0.01


def test_the_limiters_output_does_not_depend_on_the_block_sizes():
    mix = hot_mix(8000)
    first = limited(mix, 8000, -1.0, 8000)
    for block in (97, 333, 30000):
        assert np.allclose(limited(mix, 8000, -1.0, block), first, atol=1e-12)
