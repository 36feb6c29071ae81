"""Colors as the document stores them: `[r, g, b, a]`, components 0..1.

Commands and loaded documents may spell a color `[r, g, b]`, `[r, g, b, a]`, `"#rrggbb"` or
`"#rrggbbaa"`; everything that stores a color goes through `normalize_color`, so the renderer
only ever sees the four-component form. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from protocol.model.numbers import is_number

COLOR_HINT = 'a color as [r, g, b], [r, g, b, a] (0..1) or "#rrggbb[aa]"'


def normalize_color(value: Any) -> list[float]:
    """The four-component form of `value`; ValueError with a sentence fragment if it is not a
    color (the caller prefixes the place in the document)."""
    if isinstance(value, str):
        return _from_hex(value)
    if isinstance(value, (list, tuple)) and len(value) in (3, 4):
        components = list(value)
        if all(is_number(c) for c in components):
            if any(c < 0 or c > 1 for c in components):
                raise ValueError(f"expected {COLOR_HINT}, got {list(value)!r}: components "
                                 "must be between 0 and 1")
            if len(components) == 3:
                components.append(1.0)
            return [float(c) for c in components]
    raise ValueError(f"expected {COLOR_HINT}, got {value!r}")


def is_color(value: Any) -> bool:
    try:
        normalize_color(value)
    except ValueError:
        return False
    return True


def _from_hex(text: str) -> list[float]:
    digits = text[1:] if text.startswith("#") else None
    if digits is None or len(digits) not in (6, 8):
        raise ValueError(f'expected {COLOR_HINT}, got "{text}"')
    try:
        channels = [int(digits[i:i + 2], 16) / 255.0 for i in range(0, len(digits), 2)]
    except ValueError:
        raise ValueError(f'expected {COLOR_HINT}, got "{text}": not hexadecimal') from None
    if len(channels) == 3:
        channels.append(1.0)
    return channels
