"""Motion blur as a comp option: the frame is the average of sub-frame renders spread over the
shutter interval (docs/document.md, "Compositions": `motionBlur` {enabled, samples,
shutterAngle}).

The shutter is open for shutterAngle/360 of a frame and centred on the frame's time (After
Effects' default phase of -angle/2), so a blurred object stays where its unblurred self is.
"""

from __future__ import annotations

import numpy as np

# More sub-frames than this is no visible gain and multiplies render time.
MAX_SAMPLES = 64


def motion_blur_settings(comp: dict) -> tuple[int, float] | None:
    """(samples, shutterAngle) when the comp asks for motion blur, else None."""
    options = comp.get("motionBlur") or {}
    if not options.get("enabled"):
        return None
    samples = min(MAX_SAMPLES, int(options.get("samples", 8) or 0))
    angle = float(options.get("shutterAngle", 180) or 0)
    if samples < 2 or angle <= 0:
        return None
    return samples, angle


def sample_times(time: float, frame_rate: float, samples: int, shutter_angle: float) -> list:
    shutter = (shutter_angle / 360.0) / frame_rate
    return [time + shutter * ((index + 0.5) / samples - 0.5) for index in range(samples)]


def average_premultiplied(total: np.ndarray, samples: int, out: np.ndarray, *,
                          opaque: bool = False) -> np.ndarray:
    """The mean of `samples` premultiplied RGBA renders summed in `total` (uint32), as straight
    RGBA in `out`. Averaging must happen premultiplied: averaging straight colors would let a
    transparent sample's meaningless color bleed into the edge. `opaque` (every sample fully
    opaque) skips the unpremultiplying division, which changes nothing then."""
    mean = (total + samples // 2) // samples
    if opaque:
        out[...] = mean
        return out
    alpha = mean[..., 3:4]
    straight = np.where(alpha > 0, (mean[..., :3] * 255 + alpha // 2) // np.maximum(alpha, 1), 0)
    out[..., :3] = np.minimum(straight, 255)
    out[..., 3:4] = alpha
    return out
