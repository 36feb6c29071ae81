"""What a mix measures per window: its peak and RMS level in dBFS, the numbers `audio_levels`
gives an agent that cannot listen (is the music in when it should be? does anything clip?).

Pure numpy over a mixed signal. dBFS is 20 log10 of an amplitude, 0 being full scale; digital
silence has no level in dB (minus infinity), which JSON cannot hold, so it is None.
"""

from __future__ import annotations

import math

import numpy as np


def dbfs(amplitude: float) -> float | None:
    """An amplitude in dBFS to 0.1 dB; None for silence."""
    if amplitude <= 0.0:
        return None
    return round(20.0 * math.log10(amplitude), 1)


def window_levels(signal: np.ndarray, window: int) -> list[dict]:
    """For each `window` samples of a (channels, n) signal (the last window may be shorter):
    its peak over both channels and its RMS over both, in dBFS."""
    levels = []
    for start in range(0, signal.shape[1], window):
        part = signal[:, start:start + window].astype(np.float64)
        levels.append({"peak": dbfs(float(np.abs(part).max())),
                       "rms": dbfs(math.sqrt(float(np.mean(np.square(part)))))})
    return levels
