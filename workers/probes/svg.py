"""An SVG file as footage (kind "vector"): parsed whole by Skia's SVG parser, as the render
worker will draw it, for its size; what will not draw as its author meant comes back as
warnings for the import's result.

Skia's parser recurses into nested elements and overflows its stack on a file nested some tens
of thousands deep: here that kills a probe worker, which the supervisor reports as one
sentence naming the file.
"""

from __future__ import annotations

import re

import skia

from workers.probes.opened import read_whole
from workers.tasks import TaskError

# The root element's viewBox, for an SVG that gives no width and height of its own.
_VIEW_BOX = re.compile(rb"<svg\b[^>]*?\bviewBox\s*=\s*[\"']\s*[-\d.eE+]+[\s,]+[-\d.eE+]+[\s,]+"
                       rb"([\d.eE+]+)[\s,]+([\d.eE+]+)", re.S)
_TEXT = re.compile(rb"<text\b")


def probe_svg(job_file: dict, limit: int) -> dict:
    """{kind, width, height, warnings} of the SVG in the job's file."""
    name = job_file["name"]
    data = read_whole(job_file, limit)
    dom = skia.SVGDOM.MakeFromStream(skia.MemoryStream(data))
    if dom is None:
        raise TaskError(f"cannot import {name}: it is not an SVG file rendervisor can read (the "
                        "XML does not parse, or its root is not <svg>); check the file, or "
                        "export it again.")
    size = dom.containerSize()
    width, height = size.width(), size.height()
    if not (width > 0 and height > 0):
        match = _VIEW_BOX.search(data)
        width, height = (float(match.group(1)), float(match.group(2))) if match else (0, 0)
    if not (width > 0 and height > 0):
        raise TaskError(f"cannot import {name}: the SVG gives no size (no width and height in "
                        "absolute units, and no viewBox); add width and height to its <svg> "
                        "element.")
    return {"kind": "vector", "width": _whole(width), "height": _whole(height),
            "warnings": _warnings(data)}


def _whole(value: float):
    return int(value) if float(value).is_integer() else value


def _warnings(data: bytes) -> list[str]:
    if _TEXT.search(data):
        return ["the SVG has <text>, which is not drawn (Skia's SVG renderer has no fonts "
                "here); convert its text to outlines (paths) in the design tool"]
    return []
