"""Measuring banding: the flat runs a viewer sees as bands, shared by the dither tests and the
benchmarks that report them (scripts/bench_dither.py, scripts/bench_blur.py)."""

from __future__ import annotations

import numpy as np


def longest_flat_run(values) -> int:
    """The length of the longest run of equal neighbours in `values`."""
    values = list(values)
    longest = run = 1
    for left, right in zip(values, values[1:]):
        run = run + 1 if left == right else 1
        longest = max(longest, run)
    return longest


def ramp_runs(columns) -> int:
    """The longest flat run of a blurred edge's column means (rounded to 0.001), left of its
    plateau and right of black, where a dither has nothing to do."""
    means = np.round(columns, 3)
    return longest_flat_run([m for m in means if 1 < m < means.max() - 1])
