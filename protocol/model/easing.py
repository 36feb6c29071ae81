"""Named eases beyond cubic beziers: spring, bounce, elastic and back, each an exact formula
(docs/document.md, "Properties and keyframes" lists them in words).

An interpolation is given by name (`"bounce"`, the defaults) or as an object with its
parameters (`{"spring": {"stiffness": 200, "damping": 12, "mass": 1}}`). Each maps the
segment's progress p (0..1) to a fraction of the way from the key's value to the next key's,
ending at 1; back, elastic and spring pass 1 on the way (overshoot). Bounce, elastic and back are
Robert Penner's ease-out curves, as easings.net gives them; spring is a damped harmonic
oscillator released from rest, and it runs in real seconds from its key, not in progress, so
its stiffness means the same on a short segment and a long one. Pure: no I/O.
"""

from __future__ import annotations

import math
from typing import Any

from protocol.model.numbers import is_number

# Parameters of each ease: name -> (default, lowest accepted, lowest is allowed itself).
PARAMETERS: dict[str, dict[str, tuple[float, float, bool]]] = {
    # Framer Motion's defaults: a lively spring that settles in about 0.8 s.
    "spring": {"stiffness": (100.0, 0.0, False), "damping": (10.0, 0.0, True),
               "mass": (1.0, 0.0, False)},
    "bounce": {},
    # period is in progress (0.3 of the segment per swing), amplitude 1 or more.
    "elastic": {"amplitude": (1.0, 1.0, True), "period": (0.3, 0.0, False)},
    # Penner's 1.70158 overshoots by 10%.
    "back": {"overshoot": (1.70158, 0.0, True)},
}
NAMES = tuple(PARAMETERS)


def check_ease(interpolation: Any) -> Any:
    """`interpolation` normalised if it is one of these eases (an object gets every parameter),
    None if it is not one of them, ValueError if it is one with bad parameters."""
    if isinstance(interpolation, str):
        return interpolation if interpolation in PARAMETERS else None
    if not (isinstance(interpolation, dict) and len(interpolation) == 1):
        return None
    (name, given), = interpolation.items()
    if name not in PARAMETERS:
        return None
    spec = PARAMETERS[name]
    if not isinstance(given, dict) or set(given) - set(spec):
        takes = ", ".join(spec) or "no parameters"
        raise ValueError(f"{name} takes {{{takes}}}, got {given!r}")
    params = {}
    for key, (default, lowest, inclusive) in spec.items():
        value = given.get(key, default)
        if not is_number(value) or value < lowest or (value == lowest and not inclusive):
            bound = f"{'at least' if inclusive else 'above'} {lowest:g}"
            raise ValueError(f"{name}'s {key} must be a number {bound}, got {value!r}")
        params[key] = value
    return {name: params}


def ease_fraction(interpolation: Any, progress: float, span: float) -> float:
    """The fraction of the change reached at `progress` (0..1) through a segment of `span`
    seconds, for an interpolation `check_ease` accepted."""
    if isinstance(interpolation, str):
        name, params = interpolation, {k: v[0] for k, v in PARAMETERS[interpolation].items()}
    else:
        (name, params), = interpolation.items()
    if name == "spring":
        return spring(progress * span, **params)
    return _CURVES[name](progress, **params)


def back(p: float, overshoot: float = 1.70158) -> float:
    return 1 + (overshoot + 1) * (p - 1) ** 3 + overshoot * (p - 1) ** 2


def elastic(p: float, amplitude: float = 1.0, period: float = 0.3) -> float:
    shift = period / (2 * math.pi) * math.asin(1 / amplitude)
    return amplitude * 2 ** (-10 * p) * math.sin((p - shift) * 2 * math.pi / period) + 1


def bounce(p: float) -> float:
    n, d = 7.5625, 2.75
    if p < 1 / d:
        return n * p * p
    if p < 2 / d:
        p -= 1.5 / d
        return n * p * p + 0.75
    if p < 2.5 / d:
        p -= 2.25 / d
        return n * p * p + 0.9375
    p -= 2.625 / d
    return n * p * p + 0.984375


def spring(t: float, stiffness: float = 100.0, damping: float = 10.0,
           mass: float = 1.0) -> float:
    """Where a mass on a spring, released at rest at 0 and pulled toward 1, is after `t` s:
    m x'' = -stiffness (x - 1) - damping x'."""
    omega = math.sqrt(stiffness / mass)  # undamped angular frequency
    zeta = damping / (2 * math.sqrt(stiffness * mass))  # damping ratio
    if abs(zeta - 1) < 1e-9:  # critically damped
        return 1 - math.exp(-omega * t) * (1 + omega * t)
    if zeta < 1:  # underdamped: it overshoots and rings down
        damped = omega * math.sqrt(1 - zeta * zeta)
        return 1 - math.exp(-zeta * omega * t) * (
            math.cos(damped * t) + zeta * omega / damped * math.sin(damped * t))
    root = math.sqrt(zeta * zeta - 1)  # overdamped: it creeps in without overshoot
    r1, r2 = -omega * (zeta - root), -omega * (zeta + root)
    return 1 - (r2 * math.exp(r1 * t) - r1 * math.exp(r2 * t)) / (r2 - r1)


_CURVES = {"back": back, "elastic": elastic, "bounce": bounce}
