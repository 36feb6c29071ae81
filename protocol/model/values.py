"""Value kinds: what a property or attribute may hold, checked and normalised in one place.

The schema validator (loading a document) and the engine commands (editing one) both call
`check_value(kind, value)`, so a value a command accepts is always one a load accepts, and the
other way round. Colors come back in their stored `[r, g, b, a]` form. Errors are ValueError with
a fragment such as `expected [x, y], got 5`; the caller puts the place in front. A number is
protocol/model/numbers.py's (finite, in range), and strings, paths and corner counts stay within
protocol/model/limits.py's limits. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from protocol.model.audio import MAX_LEVEL_DB, SILENCE_DB
from protocol.model.bezier import PATH_HINT, check_path
from protocol.model.colors import COLOR_HINT, normalize_color
from protocol.model.limits import MAX_CORNERS, MAX_PATH_POINTS, MAX_TEXT_LENGTH
from protocol.model.numbers import is_number

# A kind is a name in _CHECKERS below, or a tuple of allowed strings (an enum).

# Font weights as CSS and OpenType number them: 100 thin ... 400 regular, 700 bold ... 900 black.
MIN_WEIGHT, MAX_WEIGHT = 100, 900

GRADIENT_HINT = ('a gradient {"type": "linear", "start": [x, y], "end": [x, y], "stops": '
                 '[[0, COLOR], [1, COLOR]]} or {"type": "radial", "center": [x, y], "radius": '
                 'r, "stops": [...]}')


def check_value(kind: Any, value: Any) -> Any:
    """`value` normalised for `kind`, or ValueError saying what was expected."""
    if isinstance(kind, tuple):
        if value not in kind:
            raise ValueError(f"expected {describe(kind)}, got {value!r}")
        return value
    checker = _CHECKERS.get(kind)
    if checker is None:
        raise KeyError(f"unknown value kind {kind!r}")
    return checker(value)


def describe(kind: Any) -> str:
    """A few words for a kind, for command catalogs and error messages."""
    if isinstance(kind, tuple):
        return "one of " + ", ".join("null" if k is None else str(k) for k in kind)
    return _DESCRIPTIONS[kind]


def _number(value: Any) -> float | int:
    if not is_number(value):
        raise ValueError(f"expected a number, got {value!r}")
    return value


def _positive(value: Any) -> float | int:
    _number(value)
    if value <= 0:
        raise ValueError(f"expected a number above 0, got {value!r}")
    return value


def _non_negative(value: Any) -> float | int:
    _number(value)
    if value < 0:
        raise ValueError(f"expected a number of 0 or more, got {value!r}")
    return value


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"expected a whole number of 0 or more, got {value!r}")
    return value


def _vec2(value: Any) -> list:
    if not (isinstance(value, list) and len(value) == 2 and all(is_number(v) for v in value)):
        raise ValueError(f"expected [x, y], got {value!r}")
    return list(value)


def _size(value: Any) -> list:
    _vec2(value)
    if value[0] <= 0 or value[1] <= 0:
        raise ValueError(f"expected [w, h] above 0, got {value!r}")
    return list(value)


def _size_or_null(value: Any) -> list | None:
    return None if value is None else _size(value)


def _weight(value: Any) -> float | int:
    _number(value)
    if not MIN_WEIGHT <= value <= MAX_WEIGHT:
        raise ValueError(f"expected a weight from {MIN_WEIGHT} (thin) to {MAX_WEIGHT} (black), "
                         f"400 being regular and 700 bold; got {value!r}")
    return value


def _decibels(value: Any) -> float | int:
    _number(value)
    if value > MAX_LEVEL_DB:
        raise ValueError(f"expected a level in dB of at most +{MAX_LEVEL_DB:g} (0 plays the sound "
                         f"as it is, -6 at half its amplitude); got {value!r}")
    return value


def _path(value: Any) -> str:
    _string(value)
    if not value:
        raise ValueError("expected a file path, got an empty string")
    return value


def _path_or_null(value: Any) -> str | None:
    return None if value is None else _path(value)


def _rgb(value: Any) -> list:
    """A per-channel value: one number for all three channels, or [r, g, b]."""
    if is_number(value):
        return [value] * 3
    if not (isinstance(value, list) and len(value) == 3 and all(is_number(v) for v in value)):
        raise ValueError(f"expected a number or [r, g, b], got {value!r}")
    return list(value)


def _string(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {value!r}")
    if len(value) > MAX_TEXT_LENGTH:
        raise ValueError(f"is {len(value):,} characters long, over the limit of "
                         f"{MAX_TEXT_LENGTH:,}; shorten it (split a long text into several "
                         "layers)")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _color(value: Any) -> list[float]:
    return normalize_color(value)


def _color_or_null(value: Any) -> list[float] | None:
    return None if value is None else normalize_color(value)


def _fill(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, dict):
        return _gradient(value)
    try:
        return normalize_color(value)
    except ValueError:
        raise ValueError(f"expected {COLOR_HINT}, {GRADIENT_HINT}, or null; got "
                         f"{value!r}") from None


def _gradient(value: dict) -> dict:
    kind = value.get("type")
    fields = {"linear": ("start", "end"), "radial": ("center", "radius")}.get(kind)
    if fields is None:
        raise ValueError(f"expected {GRADIENT_HINT}; the type {kind!r} is neither linear nor "
                         "radial")
    allowed = {"type", "stops", *fields}
    extra = sorted(set(value) - allowed)
    if extra:
        raise ValueError(f"a {kind} gradient takes {', '.join(sorted(allowed))}, not "
                         f"{', '.join(extra)}")
    result: dict = {"type": kind}
    for name in fields:
        if name not in value:
            raise ValueError(f"a {kind} gradient needs {name!r}")
        result[name] = _positive(value[name]) if name == "radius" else _vec2(value[name])
    stops = value.get("stops")
    if not isinstance(stops, list) or len(stops) < 2:
        raise ValueError("a gradient needs at least two stops [offset, COLOR]")
    result["stops"] = []
    for stop in stops:
        if not (isinstance(stop, list) and len(stop) == 2 and is_number(stop[0])
                and 0 <= stop[0] <= 1):
            raise ValueError(f"a gradient stop is [offset 0..1, COLOR], got {stop!r}")
        result["stops"].append([stop[0], normalize_color(stop[1])])
    return result


def _points(value: Any) -> Any:
    """A corner count (polygon, star) or a list of [x, y] (path)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 3:
            raise ValueError(f"expected at least 3 corners, got {value}")
        if value > MAX_CORNERS:
            raise ValueError(f"asks for {value:,} corners, over the limit of {MAX_CORNERS:,}; "
                             "use fewer (a polygon of a few hundred is an ellipse)")
        return value
    if isinstance(value, list) and len(value) > MAX_PATH_POINTS:
        raise ValueError(f"has {len(value):,} points, over the limit of {MAX_PATH_POINTS:,} "
                         "for a path; simplify the outline")
    if isinstance(value, list) and len(value) >= 2:
        return [_vec2(p) for p in value]
    raise ValueError(f"expected a corner count (3 or more) or a list of [x, y] points, got "
                     f"{value!r}")


def _dashes(value: Any) -> list:
    """A stroke's dash pattern [on, off, ...] in px; [] for a solid stroke."""
    if not (isinstance(value, list) and all(is_number(v) and v >= 0 for v in value)):
        raise ValueError(f"expected dashes [on, off, ...] in px (numbers of 0 or more), or [] "
                         f"for none; got {value!r}")
    if value and sum(value) <= 0:
        raise ValueError(f"dashes {value!r} add up to 0 px, so the pattern never advances; give "
                         "a length above 0, or [] for a solid stroke")
    return list(value)


def _number_or_null(value: Any) -> float | int | None:
    return None if value is None else _number(value)


def _id_or_null(value: Any) -> str | None:
    if value is None:
        return None
    return _string(value)


_CHECKERS = {
    "number": _number,
    "positive": _positive,
    "nonNegative": _non_negative,
    "whole": _whole,
    "vec2": _vec2,
    "size": _size,
    "string": _string,
    "bool": _bool,
    "color": _color,
    "colorOrNull": _color_or_null,
    "fill": _fill,
    "points": _points,
    "idOrNull": _id_or_null,
    "sizeOrNull": _size_or_null,
    "weight": _weight,
    "path": _path,
    "pathOrNull": _path_or_null,
    "rgb": _rgb,
    "bezierPath": check_path,
    "dashes": _dashes,
    "numberOrNull": _number_or_null,
    "decibels": _decibels,
}

_DESCRIPTIONS = {
    "number": "a number",
    "positive": "a number above 0",
    "nonNegative": "a number of 0 or more",
    "whole": "a whole number of 0 or more",
    "vec2": "[x, y]",
    "size": "[w, h]",
    "string": "a string",
    "bool": "true or false",
    "color": COLOR_HINT,
    "colorOrNull": COLOR_HINT + " or null",
    "fill": "a color, a gradient, or null",
    "points": "a corner count or a list of [x, y]",
    "idOrNull": "an id or null",
    "sizeOrNull": "[w, h] or null",
    "weight": f"a weight {MIN_WEIGHT}..{MAX_WEIGHT}",
    "path": "a file path",
    "pathOrNull": "a file path or null",
    "rgb": "a number, or [r, g, b]",
    "bezierPath": PATH_HINT,
    "dashes": "dashes [on, off, ...] in px, or []",
    "numberOrNull": "a number or null",
    "decibels": f"a level in dB (at most +{MAX_LEVEL_DB:g}; {SILENCE_DB:g} or less is silence)",
}

# Kinds whose values interpolate between keys (the rest hold, see protocol/model/keyframes.py).
INTERPOLATED_KINDS = {"number", "positive", "nonNegative", "vec2", "size", "color", "rgb",
                      "bezierPath", "numberOrNull", "decibels"}
