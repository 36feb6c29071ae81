"""The arithmetic of a mix, as pure numpy functions: which samples a layer is heard in, its
level per sample, where in its source each sample is read, reading a source at those places,
and the measures of a mixed block (its peak, where it clips).

Times become samples in one way only (`sample_at`), so a layer's in point, a key and a frame
range all land on the same sample wherever they are computed. Levels and remapped times are
evaluated at their keys (and, where eased, at CONTROL_STEP-sample points of the comp's own
sample grid) and interpolated per sample between them, so a fade is smooth within a sample
(no steps a frame long, the "zipper noise" of levels updated per video frame), and a block of
a mix is the same whichever block boundaries a caller chose. No I/O: sources are whatever `read(first, count)` returns.
"""

from __future__ import annotations

import bisect
import math
from typing import Callable

import numpy as np

from protocol.model.audio import CHANNELS, SILENCE_DB
from protocol.model.keyframes import is_animated, value_at
from protocol.model.scenes import Window

# Every this many samples an eased level or time remap is evaluated exactly (0.67 ms at
# 48 kHz), and key times always are; in between, per sample, straight lines. Fewer points cost
# the keyframe evaluator less (it runs in Python) and bend an eased fade into longer straight
# pieces; at 64 no ear can tell the pieces from the curve, and a minute of eased fading costs
# 45,000 evaluations. Linear and hold segments need only their keys.
CONTROL_STEP = 64
STRAIGHT = ("linear", "hold")
# A source read at a place that moves less than this per sample is frozen (a time remap that
# holds): it is silent, not one sample repeated as a click and a DC offset.
FROZEN = 1e-6

Reader = Callable[[int, int], np.ndarray]  # read(first, count) -> (CHANNELS, count) float32


def sample_at(seconds: float, rate: int) -> int:
    """The first sample at or after `seconds`: sample k plays at k / rate. The tolerance keeps
    1/3 s at 48 kHz (16000.000000000002 samples) on sample 16000."""
    return math.ceil(seconds * rate - 1e-6)


def active_span(layer: dict, first: int, count: int, rate: int) -> tuple[int, int]:
    """The samples [start, end) of [first, first + count) in which the layer is heard (its
    inPoint <= t < outPoint); start >= end when none."""
    return (max(first, sample_at(layer["inPoint"], rate)),
            min(first + count, sample_at(layer["outPoint"], rate)))


def control_points(first: int, count: int, keys: list[dict], rate: int) -> np.ndarray:
    """The samples to evaluate an animated property at for [first, first + count): each key
    and the sample before it (so a hold steps within one sample), from the last key at or
    before the stretch to the first at or after it; and, inside eased segments only, the
    comp's CONTROL_STEP grid. A linear segment is a straight line between its keys, so it
    needs no more. Never the stretch's own ends: a sample is interpolated between the same two
    points whichever stretch it is mixed in."""
    low = (first // CONTROL_STEP) * CONTROL_STEP
    high = -(-(first + count) // CONTROL_STEP) * CONTROL_STEP
    samples = [sample_at(key["time"], rate) for key in keys]
    begin = max(0, bisect.bisect_right(samples, low) - 1)
    stop = min(len(keys), bisect.bisect_left(samples, high) + 1)
    points = []
    for index in range(begin, stop):
        points += [samples[index] - 1, samples[index]]
        if index + 1 < len(keys) and keys[index].get("interpolation", "linear") not in \
                STRAIGHT:
            start = max(samples[index], low)
            start = -(-start // CONTROL_STEP) * CONTROL_STEP
            points.extend(range(start, min(samples[index + 1], high) + 1, CONTROL_STEP))
    return np.unique(np.array(points, np.int64))


def per_sample(prop, first: int, count: int, rate: int) -> np.ndarray | float:
    """A number property at each sample of [first, first + count), or its value when static."""
    if not is_animated(prop):
        return float(prop)
    points = control_points(first, count, prop["keys"], rate)
    values = np.array([float(value_at(prop, k / rate)) for k in points])
    return np.interp(np.arange(first, first + count), points, values)


def gains(level, first: int, count: int, rate: int) -> np.ndarray | float:
    """The amplitude factor per sample of a level property in dB (SILENCE_DB or below: 0)."""
    decibels = per_sample(level, first, count, rate)
    if np.isscalar(decibels):
        return 0.0 if decibels <= SILENCE_DB else 10.0 ** (decibels / 20.0)
    return np.where(decibels <= SILENCE_DB, 0.0, 10.0 ** (decibels / 20.0)).astype(np.float32)


def scene_fades(transitions: list[Window], layer_id: str, first: int, count: int,
                rate: int) -> np.ndarray | float:
    """The factor per sample of [first, first + count) by which a scene layer's sound fades
    across its transitions (protocol/model/scenes.py): out from 1 to 0 over a transition to
    the next scene, in from 0 to 1 over its own, linearly in time; 1 elsewhere."""
    factor: np.ndarray | float = 1.0
    samples = np.arange(first, first + count)
    for window in transitions:
        if layer_id not in (window.outgoing, window.incoming):
            continue
        start, end = sample_at(window.start, rate), sample_at(window.end, rate)
        if end <= first or start >= first + count or end <= start:
            continue
        rising = np.clip((samples - start) / (end - start), 0.0, 1.0)
        factor = factor * (rising if window.incoming == layer_id else 1.0 - rising)
    return factor if np.isscalar(factor) else np.asarray(factor, np.float32)


def plain_offset(content: dict, start_time: float, rate: int) -> int | None:
    """For a layer that plays its source at its own speed with no remap, the whole samples
    from comp time to source time (source sample = comp sample - offset); None otherwise."""
    if content.get("timeRemap") is not None or float(content.get("speed", 100)) != 100:
        return None
    return round(start_time * rate)


def source_places(layer: dict, first: int, count: int, rate: int) -> np.ndarray:
    """Where in its source (in samples, fractional) each of the comp's samples [first, first
    + count) is read: `protocol/model/time_remap.py`'s rule, per sample (the loop is the
    caller's, which knows the source's length)."""
    content = layer.get("content", {})
    remap = content.get("timeRemap")
    if remap is not None:
        return per_sample(remap, first, count, rate) * rate + np.zeros(count)
    speed = float(content.get("speed", 100)) / 100
    return (np.arange(first, first + count) - layer.get("startTime", 0.0) * rate) * speed


def read_places(read: Reader, places: np.ndarray, length: int | None,
                loop: bool) -> np.ndarray:
    """The source at fractional `places` (linear interpolation), silent where it does not
    move; with `loop` and a known `length` the places wrap at it."""
    if loop and length:
        places = np.mod(places, length)
    out = np.zeros((CHANNELS, places.size), np.float32)
    if places.size == 0:
        return out
    moving = np.abs(np.gradient(places)) > FROZEN if places.size > 1 else np.ones(1, bool)
    # Runs without a jump (a loop's wrap, a remap's cut) are read as one stretch each.
    breaks = np.flatnonzero(np.abs(np.diff(places)) > 2.0) + 1
    for run in np.split(np.arange(places.size), breaks):
        where = places[run]
        low = math.floor(where.min())
        stretch = read(low, math.floor(where.max()) - low + 2)
        offsets = where - low
        for channel in range(CHANNELS):
            out[channel, run] = np.interp(offsets, np.arange(stretch.shape[1]),
                                          stretch[channel])
    out[:, ~moving] = 0.0
    return out


def read_shifted(read: Reader, first: int, count: int, length: int | None,
                 loop: bool) -> np.ndarray:
    """The source's samples [first, first + count), exactly; with `loop` and a known `length`
    wrapping at it (each turn one exact read)."""
    if not (loop and length):
        return read(first, count)
    out = np.empty((CHANNELS, count), np.float32)
    done = 0
    while done < count:
        start = (first + done) % length
        take = min(count - done, length - start)
        out[:, done:done + take] = read(start, take)
        done += take
    return out


def slice_of(signal: np.ndarray, start: int, first: int, count: int) -> np.ndarray:
    """Samples [first, first + count) of a signal whose column 0 is sample `start`, silent
    outside it."""
    out = np.zeros((CHANNELS, count), np.float32)
    low, high = max(first, start), min(first + count, start + signal.shape[1])
    if high > low:
        out[:, low - first:high - first] = signal[:, low - start:high - start]
    return out


def peak(block: np.ndarray) -> float:
    return float(np.abs(block).max()) if block.size else 0.0


def clipping_samples(block: np.ndarray) -> np.ndarray:
    """The sample indices of a block at which some channel is past full scale."""
    return np.flatnonzero(np.abs(block).max(axis=0) > 1.0)
