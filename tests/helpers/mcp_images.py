"""Pixels of the PNG image content an MCP tool returns, decoded by FFmpeg (PyAV): an
implementation independent of the Skia that encoded them."""

from __future__ import annotations

import base64
import io

import av
import numpy as np


def decode_png(data: str) -> np.ndarray:
    """The RGBA pixels of a base64 PNG (an image content block's `data`)."""
    with av.open(io.BytesIO(base64.b64decode(data)), format="png_pipe") as container:
        return next(container.decode(video=0)).to_ndarray(format="rgba")
