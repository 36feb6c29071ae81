"""The master bus: what a comp's rendered mix goes through last (docs/rendering.md, "Sound"),
as its settings say (protocol/model/audio.py, MASTER_BUS).

    spans of the comp's samples ─► CompMixer, block by block ─► x gain ─► TruePeakLimiter ─►
                                                               (loudness)   (audioLimiter)

- Loudness: with `audioLoudness` set, the whole mix is measured first (BS.1770, loudness.py)
  and turned up or down to the target; the limiter may then take a little back from a loud
  target, so the limited mix is measured again and the gain corrected, at most
  LOUDNESS_PASSES times, until it lands within LOUDNESS_TOLERANCE. Each pass mixes again (the
  mixer is exact and repeatable, and a mix is never held whole in memory).
- Limiter: limiter.py, on by default, keeps every true peak under `audioCeiling`, and under it
  by the encoder's headroom for a lossy codec, whose decoded peaks rise a little over the ones
  it was fed (AAC's by 0.2 dB on two full-scale sines).

No I/O of its own beyond the mixer's reading of sources.
"""

from __future__ import annotations

import math
from typing import Iterator

import numpy as np

from protocol.cancel import Cancel
from protocol.model.audio import master_bus, sample_rate
from workers.mixer.comp_sound import CompMixer
from workers.mixer.limiter import TruePeakLimiter

# A mix is made a second at a time: long enough that Python's share is small, short enough
# that an hour-long item holds a few megabytes, and a cancel is heard within a second of sound.
BLOCK_SECONDS = 1.0
# Passes that correct a loudness the limiter took some of, and how close is close enough
# (a tenth of the 0.5 LU the ear barely hears, so even a lossy encoding lands within it).
LOUDNESS_PASSES = 4
LOUDNESS_TOLERANCE = 0.1
# The most a loudness target may turn a mix up: past it, a near-silent mix would become noise.
MAX_GAIN_DB = 40.0


def blocks(spans, size: int):
    """(first, count) blocks of at most `size` samples covering each [first, count] span."""
    for first, count in spans:
        for start in range(first, first + count, size):
            yield start, min(size, first + count - start)


class MasterBus:
    """One comp's rendered mix over `spans`, through its master bus."""

    def __init__(self, document: dict, comp: dict, spans, cancel: Cancel,
                 headroom_db: float = 0.0) -> None:
        self.document = document
        self.comp = comp
        self.rate = sample_rate(comp)
        self.spans = [tuple(span) for span in spans]
        self.cancel = cancel
        self.settings = master_bus(comp)
        self.headroom_db = headroom_db  # the encoder's (protocol/model/output_formats.py)
        self.gain_db = 0.0
        self.loudness: float | None = None  # of the limited mix, once measured
        self.limiter: TruePeakLimiter | None = None

    def prepare(self) -> None:
        """Find the gain a loudness target needs (nothing to do without one)."""
        target = self.settings["audioLoudness"]
        if target is None:
            return
        measured = self._measure(0.0, limited=False)
        if measured is None:
            return  # silence has no loudness to turn up
        self.gain_db = min(MAX_GAIN_DB, target - measured)
        self.loudness = measured + self.gain_db
        for _ in range(LOUDNESS_PASSES if self.settings["audioLimiter"] else 0):
            self.loudness = self._measure(self.gain_db, limited=True)
            if self.loudness is None or abs(target - self.loudness) <= LOUDNESS_TOLERANCE:
                break
            self.gain_db = min(MAX_GAIN_DB, self.gain_db + target - self.loudness)

    def output(self) -> Iterator[np.ndarray]:
        """The mix through the bus, block by block ((2, n) float32), as it is encoded."""
        yield from self._blocks(self.gain_db, self.settings["audioLimiter"])

    def _measure(self, gain_db: float, limited: bool) -> float | None:
        # Imported here, by the few renders with a loudness target: the meter needs scipy,
        # whose import costs every worker's start seconds on a busy machine otherwise.
        from workers.mixer.loudness import LoudnessMeter
        meter = LoudnessMeter(self.rate)
        for block in self._blocks(gain_db, limited):
            meter.feed(block)
        return meter.integrated()

    def _blocks(self, gain_db: float, limited: bool) -> Iterator[np.ndarray]:
        gain = math.pow(10.0, gain_db / 20.0)
        self.limiter = TruePeakLimiter(self.rate, self.settings["audioCeiling"] -
                                       self.headroom_db) if limited else None
        mixer = CompMixer(self.document, self.rate)
        try:
            for first, count in blocks(self.spans, round(BLOCK_SECONDS * self.rate)):
                self.cancel.check()
                block = mixer.mix(self.comp["id"], first, count)
                if gain != 1.0:
                    block = block * np.float32(gain)
                yield block if self.limiter is None else \
                    self.limiter.process(block).astype(np.float32)
            if self.limiter is not None:
                yield self.limiter.flush().astype(np.float32)
        finally:
            mixer.close()
