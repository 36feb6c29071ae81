"""A .cube 3D LUT a `lut` effect names: read whole (within the size limit) and parsed as the
compositor will parse it (workers/compositor/cube_files.py), so a bad file is refused, naming
its line, when the effect is set rather than when it is first drawn."""

from __future__ import annotations

from workers.compositor.cube_files import LutError, parse_cube
from workers.probes.opened import read_whole
from workers.tasks import TaskError


def probe_lut(job_file: dict, limit: int) -> dict:
    """{size, domainMin, domainMax} of the LUT."""
    try:
        lut = parse_cube(read_whole(job_file, limit), job_file["name"])
    except LutError as error:
        raise TaskError(str(error)) from None
    return {"size": lut.size, "domainMin": list(lut.domain_min),
            "domainMax": list(lut.domain_max)}
