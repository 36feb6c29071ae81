"""Probing footage from the design world: SVG files (kind "vector", drawn by Skia's SVG renderer
at the scale they are shown) and Lottie animations (kind "lottie", `.json` or `.lottie`, played
by ThorVG). footage_probe.py hands such files here by extension.

Neither is opened by FFmpeg. Both are read whole (within MAX_VECTOR_FOOTAGE_BYTES), parsed,
and described; what will not draw as its author meant comes back as warnings, for the import's
result. A file that is not what its extension says is one ProbeError sentence.
"""

from __future__ import annotations

import os
import re

import skia

from protocol.model.limits import MAX_VECTOR_FOOTAGE_BYTES
from protocol.model.lottie_files import (LOTTIE_EXTENSIONS, LottieError, footage_fields,
                                   read_animation, self_contained, unsupported)
from supervisor.confinement.checked_files import read_small_file

SVG_EXTENSIONS = (".svg",)
VECTOR_EXTENSIONS = SVG_EXTENSIONS + LOTTIE_EXTENSIONS
# The root element's viewBox, for an SVG that gives no width and height of its own.
_VIEW_BOX = re.compile(rb"<svg\b[^>]*?\bviewBox\s*=\s*[\"']\s*[-\d.eE+]+[\s,]+[-\d.eE+]+[\s,]+"
                       rb"([\d.eE+]+)[\s,]+([\d.eE+]+)", re.S)
_TEXT = re.compile(rb"<text\b")


class VectorProbeError(Exception):
    """The whole sentence of why the file cannot be footage."""


def probe_vector(path: str) -> tuple[dict, list[str]]:
    """(the footage fields of the SVG or Lottie file at `path`, warnings)."""
    data = _read(path)
    name = os.path.basename(path)
    if path.lower().endswith(SVG_EXTENSIONS):
        return {"name": name, "path": path, "kind": "vector", **_svg_size(path, data)}, \
            _svg_warnings(data)
    try:
        animation, files = read_animation(data)
    except LottieError as error:
        raise VectorProbeError(f"cannot import {path}: it is not {error}; export it again as "
                               "Lottie JSON (for example with Bodymovin) or pick another "
                               "file.") from None
    _, dropped = self_contained(animation, files)
    warnings = [f"{name}: {phrase}" for phrase in unsupported(animation) + dropped]
    return {"name": name, "path": path, "kind": "lottie", **footage_fields(animation)}, \
        warnings


def _read(path: str) -> bytes:
    try:
        return read_small_file(path, MAX_VECTOR_FOOTAGE_BYTES)
    except OSError as error:
        reason = error.strerror or str(error)
        raise VectorProbeError(f"cannot import {path}: {reason}; footage files of this kind "
                               f"are read whole, up to {MAX_VECTOR_FOOTAGE_BYTES >> 20} MiB.") \
            from None


def _svg_size(path: str, data: bytes) -> dict:
    dom = skia.SVGDOM.MakeFromStream(skia.MemoryStream(data))
    if dom is None:
        raise VectorProbeError(f"cannot import {path}: it is not an SVG file rendervisor can "
                               "read (the XML does not parse, or its root is not <svg>); check "
                               "the file, or export it again.")
    size = dom.containerSize()
    width, height = size.width(), size.height()
    if not (width > 0 and height > 0):
        match = _VIEW_BOX.search(data)
        width, height = (float(match.group(1)), float(match.group(2))) if match else (0, 0)
    if not (width > 0 and height > 0):
        raise VectorProbeError(f"cannot import {path}: the SVG gives no size (no width and "
                               "height in absolute units, and no viewBox); add width and height "
                               "to its <svg> element.")
    return {"width": _whole(width), "height": _whole(height)}


def _whole(value: float):
    return int(value) if float(value).is_integer() else value


def _svg_warnings(data: bytes) -> list[str]:
    if _TEXT.search(data):
        return ["the SVG has <text>, which is not drawn (Skia's SVG renderer has no fonts "
                "here); convert its text to outlines (paths) in the design tool"]
    return []
