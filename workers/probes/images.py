"""A still picture (PNG, JPEG, WebP, BMP, TIFF): its size, read by Skia from the header (the
pixels are not decoded, so a picture declaring 100,000 pixels a side costs nothing here; drawing
it is the render worker's, under its own memory limit)."""

from __future__ import annotations

import skia

from workers.probes.opened import read_whole
from workers.tasks import TaskError


def probe_image(job_file: dict, limit: int) -> dict:
    """{kind, width, height} of the picture in the job's file."""
    data = read_whole(job_file, limit)
    image = skia.Image.MakeFromEncoded(skia.Data.MakeWithoutCopy(data)) if data else None
    if image is None:
        raise TaskError(f"cannot import {job_file['name']}: it is not an image rendervisor can "
                        "read (PNG, JPEG, WebP, BMP); convert it or pick another file.")
    return {"kind": "image", "width": image.width(), "height": image.height()}
