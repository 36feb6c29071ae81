"""A comp's frame rate as the exact fraction a video file stores. Pure: no I/O.

Broadcast ("NTSC") rates are 1000/1001 of a whole rate: 29.97 fps is 30000/1001, not 2997/100.
A player or an editor that meets 2997/100 sees a rate that matches no standard and drifts by a
frame every 16 minutes against 30000/1001 footage, so the rates people type as 23.976, 29.97
or 59.94 are taken as the fractions they name.
"""

from __future__ import annotations

from fractions import Fraction

# The whole rates whose 1000/1001 rates are in use (cinema, TV, high frame rate).
NTSC_BASES = (24, 30, 48, 60, 120, 240)
# How near a typed rate must be: 23.976 is 24000/1001 less 0.000024; a rate typed with two
# decimals (29.97) is within 0.00003. Far below the step between any two real rates.
NTSC_TOLERANCE = 0.0005


def exact_frame_rate(frame_rate) -> Fraction:
    """The exact rate: N*1000/1001 for a rate within NTSC_TOLERANCE of one (N in NTSC_BASES),
    else the rate as written (12.5 -> 25/2). ValueError for a rate that is not above zero."""
    rate = Fraction(str(frame_rate)) if isinstance(frame_rate, float) else Fraction(frame_rate)
    if rate <= 0:
        raise ValueError(f"frame rate {frame_rate} is not above zero; a comp needs a positive "
                         "frame rate to be rendered")
    for base in NTSC_BASES:
        ntsc = Fraction(base * 1000, 1001)
        if abs(rate - ntsc) < NTSC_TOLERANCE:
            return ntsc
    return rate.limit_denominator(1001)
