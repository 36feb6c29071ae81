"""A true-peak limiter: the last stage of a mix, keeping every peak, between samples too, under
a ceiling in dBTP, by turning the whole mix down briefly around each peak that would pass it.

    limiter = TruePeakLimiter(rate, ceiling_db)
    limiter.process(block) -> the limited samples ready so far (LATENCY behind)
    limiter.flush() -> the rest

A peak between two samples is what a reconstructing DAC (or a lossy encoder) sees, and may be
higher than either sample: it is found by oversampling OVERSAMPLE times with a windowed-sinc
interpolator (BS.1770's way of measuring true peak). Per sample:

    peak[n]   the loudest of the oversampled points in [n, n + 1), over channels
    need[n]   min(1, ceiling / peak[n])                    the gain that sample needs
    hold[n]   min(need[n - REACH .. n + LOOKAHEAD + REACH]) looked ahead (and behind)
    level[n]  min(hold[n], 1 - (1 - level[n - 1]) x RELEASE_STEP)     released slowly
    gain[n]   mean(level[n - LOOKAHEAD .. n])                          eased in
    out[n]    in[n] x gain[n]

Every gain that reaches the interpolation about sample n (within REACH of it) is at most need[n],
because the hold looks LOOKAHEAD + REACH ahead and REACH behind; so the output's peaks sit at the
ceiling with only the interpolator's own error, which CEILING_MARGIN covers. The gain falls over
LOOKAHEAD (5 ms, no click) and comes back with a RELEASE time constant (no pumping on a steady
loud passage, which is simply turned down). The mix comes out LATENCY samples late; the caller
writes `flush()`'s samples after the last block, so the track keeps its length.

Pure numpy: no I/O. The same blocks in, whatever their sizes, give the same samples.
"""

from __future__ import annotations

import math

import numpy as np

OVERSAMPLE = 4
TAPS = 48 + 1  # BS.1770's true-peak interpolator has 48; one more keeps it symmetric
KAISER_BETA = 8.0
REACH = math.ceil(TAPS / OVERSAMPLE / 2) + 1  # samples either side an oversampled point uses


def interpolator() -> np.ndarray:
    """The oversampling filter: a windowed sinc (Kaiser, beta 8) cut at the signal's Nyquist
    frequency, with a gain of OVERSAMPLE (a quarter of its points meet each input sample). Made
    with numpy, as scipy's firwin makes it, so a worker need not import scipy to limit."""
    offsets = np.arange(TAPS) - (TAPS - 1) / 2
    taps = np.sinc(offsets / OVERSAMPLE) * np.kaiser(TAPS, KAISER_BETA)
    return taps / taps.sum() * OVERSAMPLE


INTERPOLATOR = interpolator()
LOOKAHEAD_SECONDS = 0.005
RELEASE_SECONDS = 0.2
# Under the ceiling by this much, for the interpolator's own error (a measuring meter's
# interpolator differs a little from this one).
CEILING_MARGIN_DB = 0.1


def true_peaks(signal: np.ndarray) -> np.ndarray:
    """Per sample n of `signal` (channels, n), the loudest oversampled point in [n, n + 1),
    over channels. The first and last REACH samples see silence beyond the signal."""
    up = np.zeros((signal.shape[0], signal.shape[1] * OVERSAMPLE))
    stuffed = up.copy()
    stuffed[:, ::OVERSAMPLE] = signal
    delay = (TAPS - 1) // 2
    for channel in range(signal.shape[0]):
        up[channel] = np.convolve(stuffed[channel], INTERPOLATOR)[delay:delay + up.shape[1]]
    return np.abs(up).reshape(signal.shape[0], -1, OVERSAMPLE).max(axis=(0, 2))


def true_peak_db(signal: np.ndarray) -> float:
    """The signal's true peak in dBTP (-inf for silence)."""
    peak = float(true_peaks(signal).max()) if signal.size else 0.0
    return 20 * math.log10(peak) if peak > 0 else -math.inf


class TruePeakLimiter:
    def __init__(self, rate: int, ceiling_db: float, channels: int = 2) -> None:
        self.ceiling = 10.0 ** ((ceiling_db - CEILING_MARGIN_DB) / 20.0)
        self.lookahead = max(1, round(LOOKAHEAD_SECONDS * rate))
        self.release_step = math.exp(-1.0 / (RELEASE_SECONDS * rate))
        # Output sample n needs input up to n + LATENCY: the hold's look ahead, and the
        # interpolation about its farthest sample.
        self.latency = self.lookahead + 2 * REACH
        self._window = 2 * REACH + self.lookahead + 1  # the hold's, in samples
        # Sample indices are counted from the mix's first. `_input` holds the mix from
        # `_out - REACH` (silence before 0) on; `_needs` the needs from `_out - REACH` to
        # `_next_need`; `_levels` the levels of the `lookahead` samples before `_out`.
        self._out = 0
        self._next_need = 0
        self._received = 0
        self._input = np.zeros((channels, REACH))
        self._needs = np.ones(REACH)
        self._levels = np.ones(self.lookahead)
        self._released = 0.0  # 1 - the last level
        self.least_gain = 1.0  # the lowest gain applied so far

    def process(self, block: np.ndarray) -> np.ndarray:
        self._received += block.shape[1]
        return self._run(np.asarray(block, np.float64))

    def flush(self) -> np.ndarray:
        """The samples still held back, as if silence followed the mix."""
        wanted = self._received - self._out
        return self._run(np.zeros((self._input.shape[0], self.latency)))[:, :wanted]

    def _run(self, block: np.ndarray) -> np.ndarray:
        self._input = np.concatenate([self._input, block], axis=1)
        end = self._out - REACH + self._input.shape[1]  # the index after the last sample in
        # The needs of the samples whose interpolation the input now covers.
        if end - REACH > self._next_need:
            first = self._next_need - (self._out - REACH) - REACH
            peaks = true_peaks(self._input[:, first:])[REACH:-REACH]
            self._needs = np.concatenate([self._needs,
                                          np.minimum(1.0, self.ceiling /
                                                     np.maximum(peaks, 1e-12))])
            self._next_need = end - REACH
        count = self._needs.size - self._window + 1
        if count <= 0:
            return np.zeros((self._input.shape[0], 0))
        held = np.lib.stride_tricks.sliding_window_view(self._needs, self._window).min(axis=1)
        levels = self._release(held)
        if self._out == 0:
            # Nothing came before the mix to ease in over: the first level stands for the
            # ones before it, so the mix's first samples are turned down as far already.
            self._levels = np.full(self.lookahead, levels[0])
        eased = np.concatenate([self._levels, levels])
        gains = np.lib.stride_tricks.sliding_window_view(eased, self.lookahead + 1).mean(axis=1)
        out = self._input[:, REACH:REACH + count] * gains
        self._levels = eased[-self.lookahead:]
        self._needs = self._needs[count:]
        self._input = self._input[:, count:]
        self._out += count
        self.least_gain = min(self.least_gain, float(gains.min()))
        return out

    def _release(self, held: np.ndarray) -> np.ndarray:
        """level[n] = min(held[n], 1 - (1 - level[n - 1]) x step), as 1 - level[n] =
        max over k <= n of (1 - held[k]) step^(n - k): a running maximum, computed in pieces
        short enough that step^-k stays finite."""
        out = np.empty_like(held)
        piece = max(1, int(40.0 / -math.log(self.release_step)))
        for start in range(0, held.size, piece):
            depth = 1.0 - held[start:start + piece]
            steps = np.arange(depth.size)
            scaled = np.maximum.accumulate(np.concatenate(
                [[self._released], depth * self.release_step ** -(steps + 1)]))[1:]
            released = scaled * self.release_step ** (steps + 1)
            out[start:start + piece] = 1.0 - released
            self._released = float(released[-1])
        return out
