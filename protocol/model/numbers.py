"""What counts as a number in a project, and the sentence for one that does not.

JSON as Python reads it holds numbers a project cannot: NaN, Infinity (and 1e999, which reads
as Infinity), and integers far past a double's range. Accepted once, such a number made the
project unsavable (JSON has no spelling for it) and broke every summary that counts frames. So
a number is an int or float within ±MAX_NUMBER, and everything that takes numbers asks
`is_number`: the value kinds (protocol/model/values.py), colors, key times and eases, the engine
commands' params and the tools' arguments. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from protocol.model.limits import MAX_NUMBER

RANGE_HINT = (f"numbers must be finite and within ±2^53 ({MAX_NUMBER}); JSON's 1e999 reads as "
              "Infinity, so give an ordinary number")


def is_number(value: Any) -> bool:
    # NaN fails every comparison, so the range check refuses it with the infinities.
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and -MAX_NUMBER <= value <= MAX_NUMBER)


def is_unusable_number(value: Any) -> bool:
    """A number JSON can carry but a project cannot hold."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and not is_number(value)


def unusable_number_in(value: Any, place: str = "") -> tuple[str, Any] | None:
    """(where, number) for the first unusable number anywhere in `value` (`place` prefixes
    where: `.keys[3].time`), or None. Cheap per value, since it runs over every command's
    params: a path is spelled only for the number found."""
    if not isinstance(value, (dict, list)):
        return (place, value) if is_unusable_number(value) else None
    stack: list[tuple[Any, tuple]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        for key, sub in pairs:
            if isinstance(sub, (dict, list)):
                stack.append((sub, (path, key)))
            elif is_unusable_number(sub):
                return place + _spelled((path, key)), sub
    return None


def _spelled(path: tuple) -> str:
    parts = []
    while path:
        path, key = path
        parts.append(f"[{key}]" if isinstance(key, int) else f".{key}")
    return "".join(reversed(parts))


def shown(number: float | int) -> str:
    """A number as its JSON reads (NaN, Infinity), a huge integer by its digits."""
    if isinstance(number, float):
        return {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}.get(repr(number),
                                                                         repr(number))
    digits = len(str(abs(number)))
    return repr(number) if digits <= 24 else f"an integer of {digits} digits"


def unusable_problem(number: float | int, where: str = "") -> str:
    """The fragment for an unusable number, found at `where` inside the value (as
    `unusable_number_in` gives it) or as the value itself; the caller puts its place in front."""
    if where:
        return (f"has {shown(number)} at {where.lstrip('.')}, not a number rendervisor can use: "
                f"{RANGE_HINT}")
    return f"is {shown(number)}, not a number rendervisor can use: {RANGE_HINT}"


# Digits of the longest index or count given as text: 2^53 has 16.
MAX_INDEX_DIGITS = 16


def written_index(text: Any) -> int | None:
    """`text` as a whole number when it is one written in ASCII digits (a 1-based index, a list
    position, a port), else None. str.isdigit alone takes '²', which int() refuses, other
    scripts' digits, and any length, which int() refuses past 4300 digits: such text is a name."""
    if isinstance(text, str) and 0 < len(text) <= MAX_INDEX_DIGITS and text.isascii() \
            and text.isdigit():
        return int(text)
    return None
