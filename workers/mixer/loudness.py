"""Integrated loudness of a mix, measured as it streams by, by the rule of ITU-R BS.1770-4
(which EBU R 128 uses): K-weighting, the mean square of 400 ms blocks overlapping by 75%, an
absolute gate at -70 LUFS and a relative gate 10 LU under the loudness of the blocks above it.

    meter = LoudnessMeter(rate); meter.feed(block) ...; meter.integrated() -> LUFS or None

The K-weighting filters are pyloudnorm's (the field's Python implementation of the rule), run
block by block with their state carried, and the blocks are pyloudnorm's (block j over samples
int(0.1 j rate) to int((0.1 j + 0.4) rate), round((T - 0.4) / 0.1) + 1 of them), so a mix
measured here reads as pyloudnorm reads the whole mix at once (tests/mixer/test_master_bus.py
holds the two together), in memory that does not grow with the mix: ten sums of squares a
second of sound. Pure numpy and scipy: no I/O.
"""

from __future__ import annotations

import math

import numpy as np
from pyloudnorm.iirfilter import IIRfilter
from scipy.signal import lfilter, lfilter_zi

BLOCK = 0.4  # seconds, a gating block
HOP = 0.1  # seconds between block starts (75% overlap)
ABSOLUTE_GATE = -70.0  # LUFS
RELATIVE_GATE = -10.0  # LU under the absolute-gated loudness


def k_weighting(rate: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The two stages of BS.1770's K-weighting at `rate` (pyloudnorm's filters): a high shelf
    (+4 dB above about 1.5 kHz, the head's effect) and a high pass (the RLB curve at 38 Hz)."""
    return [(stage.b, stage.a) for stage in (IIRfilter(4.0, 1 / math.sqrt(2), 1500.0, rate,
                                                       "high_shelf"),
                                             IIRfilter(0.0, 0.5, 38.0, rate, "high_pass"))]


def loudness_of(power: float) -> float:
    """LUFS of a mean square summed over channels (stereo channels weigh 1 each)."""
    return -0.691 + 10.0 * math.log10(power) if power > 0 else -math.inf


class LoudnessMeter:
    def __init__(self, rate: int, channels: int = 2) -> None:
        self.rate = rate
        self._stages = k_weighting(rate)
        self._state = [[lfilter_zi(b, a) * 0.0 for _ in range(channels)]
                       for b, a in self._stages]
        self._hops: list[float] = []  # each 100 ms hop's sum of squares, channels summed
        self._partial = 0.0  # the sum of the hop being filled
        self._samples = 0

    def feed(self, block: np.ndarray) -> None:
        """The next (channels, n) samples of the mix."""
        weighted = np.asarray(block, np.float64)
        for stage, (b, a) in enumerate(self._stages):
            filtered = np.empty_like(weighted)
            for channel in range(weighted.shape[0]):
                filtered[channel], self._state[stage][channel] = lfilter(
                    b, a, weighted[channel], zi=self._state[stage][channel])
            weighted = filtered
        squares = np.square(weighted).sum(axis=0)
        done = 0
        while done < squares.size:
            hop_end = int(HOP * (len(self._hops) + 1) * self.rate)
            take = min(squares.size - done, hop_end - (self._samples + done))
            self._partial += float(squares[done:done + take].sum())
            done += take
            if self._samples + done == hop_end:
                self._hops.append(self._partial)
                self._partial = 0.0
        self._samples += squares.size

    def integrated(self) -> float | None:
        """The gated loudness of what was fed, in LUFS; None for a mix shorter than one block
        or with no block above the absolute gate (silence)."""
        seconds = self._samples / self.rate
        if seconds < BLOCK:
            return None
        hops = self._hops + [self._partial]
        count = int(np.round((seconds - BLOCK) / HOP)) + 1
        per_block = BLOCK * self.rate
        powers = [sum(hops[j:j + 4]) / per_block for j in range(count)]
        loud = [power for power in powers if loudness_of(power) >= ABSOLUTE_GATE]
        if not loud:
            return None
        gate = loudness_of(sum(loud) / len(loud)) + RELATIVE_GATE
        gated = [power for power in loud if loudness_of(power) > gate]
        return loudness_of(sum(gated) / len(gated)) if gated else None
