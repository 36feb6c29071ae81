"""Bezier path values (protocol/model/bezier.py) as Skia paths, for path shapes and masks.

A segment whose two handles are zero is a straight line, drawn as one: Skia flattens a line
exactly, and a straight path draws the same pixels it drew before paths had tangents.
"""

from __future__ import annotations

import skia

from protocol.model.bezier import segments


def skia_path(path: dict | None) -> skia.Path:
    """The outline of `path` (an empty Skia path for none or a malformed one)."""
    result = skia.Path()
    if not isinstance(path, dict) or len(path.get("points") or ()) < 2:
        return result
    parts = segments(path)
    result.moveTo(*parts[0][0])
    for start, handle_out, handle_in, end in parts:
        if handle_out == start and handle_in == end:
            result.lineTo(*end)
        else:
            result.cubicTo(*handle_out, *handle_in, *end)
    if path.get("closed", True):
        result.close()
    return result
