"""An SVG file as footage (kind "vector"): parsed as the render worker will read it
(protocol/model/svg_files.py: expat, the DTD's internal entities expanded, no external one
fetched), sized as resvg (the renderer) sizes it, and what will not draw as its author meant
named in warnings for the import's result: references to other files (never read), and what
resvg does not draw.
"""

from __future__ import annotations

import os

from protocol.model.svg_files import SvgError, read_svg, self_contained, size, unsupported
from workers.probes.opened import read_whole
from workers.tasks import TaskError


def probe_svg(job_file: dict, limit: int) -> dict:
    """{kind, width, height, warnings} of the SVG in the job's file."""
    name = job_file["name"]
    data = read_whole(job_file, limit)
    try:
        root = read_svg(data)
        width, height = size(root)
    except SvgError as error:
        raise TaskError(f"cannot import {name}: it is not {error}; check the file, or export "
                        "it again.") from None
    base = os.path.basename(job_file["path"])
    warnings = [f"{base}: {phrase}" for phrase in self_contained(root)[1] + unsupported(root)]
    return {"kind": "vector", "width": _whole(width), "height": _whole(height),
            "warnings": warnings}


def _whole(value: float):
    return int(value) if float(value).is_integer() else value
