"""Numeric properties as key tables, evaluated for a whole chunk of frames at once.

    channels = Channels([prop, prop, ...], width=2)   # compiled once per render plan
    channels.evaluate(times)                          # -> (properties, times, width) float64

A property is a number, a list of `width` numbers, or an animated one of those (docs/document.md,
"Properties and keyframes"). Each value is bit for bit what protocol/model/keyframes.value_at
gives at that time, since a frame drawn from a plan must be the very pixels a frame drawn by
walking the document is: the linear stretches are numpy arithmetic in `interpolate`'s order
(a + (b - a) * f, IEEE doubles either way, no fused multiply-add across numpy calls); every
other stretch (a hold, an ease, a spring, a curved motion path) is asked of value_at itself,
time by time, since its math (Newton steps, arc-length tables) is not worth a second copy.

Properties whose keys fall at the same times share one search for their segments (a comp of
many layers animated together pays for one search, not one per layer), and properties that do
not move are filled in one assignment.
"""

from __future__ import annotations

import numpy as np

from protocol.model.keyframes import Driven, is_animated, value_at
from protocol.model.motion_paths import is_curved
from protocol.model.numbers import is_number


def numeric_row(value, width: int) -> list[float] | None:
    """`value` as `width` floats (a number is a row of one), or None if it is not that."""
    if width == 1 and is_number(value):
        return [float(value)]
    if isinstance(value, (list, tuple)) and len(value) == width and \
            all(is_number(v) for v in value):
        return [float(v) for v in value]
    return None


class Channels:
    """Properties of one width, evaluated together for any list of times."""

    def __init__(self, props: list, width: int) -> None:
        self.count = len(props)
        self.width = width
        constant_rows, constant_values = [], []
        groups: dict[tuple, list] = {}
        self._by_value_at: list[tuple[int, object]] = []
        for index, prop in enumerate(props):
            row = None if is_animated(prop) else numeric_row(prop, width)
            if row is not None:
                constant_rows.append(index)
                constant_values.append(row)
                continue
            table = _table(prop, width)
            if table is None:
                self._by_value_at.append((index, prop))
            else:
                groups.setdefault(table[0], []).append((index, prop, *table[1:]))
        self._constant_rows = np.array(constant_rows, dtype=np.intp)
        self._constant_values = np.array(constant_values, dtype=float).reshape(-1, 1, width)
        self._groups = [_Group(times, members) for times, members in groups.items()]
        self.animated = np.ones(self.count, dtype=bool)
        self.animated[self._constant_rows] = False

    def evaluate(self, times) -> np.ndarray:
        times = np.asarray(times, dtype=float)
        out = np.empty((self.count, len(times), self.width))
        if len(self._constant_rows):
            out[self._constant_rows] = self._constant_values
        for group in self._groups:
            out[group.rows] = group.evaluate(times, self.width)
        for index, prop in self._by_value_at:
            # An expression's property gives the chunk's times in one go (one crossing into
            # its sandbox, not one per time).
            values = prop.at_times(times) if isinstance(prop, Driven) else \
                [value_at(prop, float(t)) for t in times]
            out[index] = [_checked_row(value, self.width) for value in values]
        return out


class _Group:
    """Animated properties whose keys fall at the same times."""

    def __init__(self, key_times: tuple, members: list) -> None:
        self.key_times = np.array(key_times, dtype=float)
        self.rows = np.array([member[0] for member in members], dtype=np.intp)
        self.props = [member[1] for member in members]
        self.values = np.array([member[2] for member in members], dtype=float)  # (G, K, W)
        self.special = np.array([member[3] for member in members], dtype=bool).reshape(
            len(members), max(0, len(key_times) - 1))  # (G, K - 1): not a plain linear stretch

    def evaluate(self, times: np.ndarray, width: int) -> np.ndarray:
        key_times, values = self.key_times, self.values
        result = np.empty((len(values), len(times), width))
        # As value_at: at or before the first key its value, at or after the last key its value.
        first = times <= key_times[0]
        last = ~first & (times >= key_times[-1])
        between = ~(first | last)
        result[:, first] = values[:, :1]
        result[:, last] = values[:, -1:]
        if not between.any():
            return result
        inside = times[between]
        left = np.searchsorted(key_times, inside, side="right") - 1
        progress = (inside - key_times[left]) / (key_times[left + 1] - key_times[left])
        start, end = values[:, left], values[:, left + 1]
        stretch = start + (end - start) * progress[None, :, None]
        special = self.special[:, left]
        if special.any():
            for member, position in zip(*np.nonzero(special)):
                stretch[member, position] = _checked_row(
                    value_at(self.props[member], float(inside[position])), width)
        result[:, between] = stretch
        return result


def _table(prop, width: int) -> tuple | None:
    """(key times, values, which segments need value_at) for an animated numeric property with
    keys in time order; None for anything else, which value_at evaluates time by time."""
    if not is_animated(prop) or not prop["keys"]:
        return None
    keys = prop["keys"]
    times = [key.get("time") for key in keys]
    if not all(is_number(t) for t in times) or any(b < a for a, b in zip(times, times[1:])):
        return None
    rows = [numeric_row(key.get("value"), width) for key in keys]
    if any(row is None for row in rows):
        return None
    special = [left.get("interpolation", "linear") != "linear"
               or is_curved(left.get("spatialOut"), right.get("spatialIn"))
               for left, right in zip(keys, keys[1:])]
    return tuple(float(t) for t in times), rows, special


def _checked_row(value, width: int) -> list[float]:
    row = numeric_row(value, width)
    if row is None:
        raise ValueError(f"expected a number or a list of {width} numbers, got {value!r}")
    return row
