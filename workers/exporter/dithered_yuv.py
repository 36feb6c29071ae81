"""8-bit Y'CbCr frames rounded through an ordered pattern, so a gradient stays smooth through a
lossy video encoder.

The compositor draws gradients dithered in 8-bit RGB, but that dither does not reach the
video: a one-level step of R moves Y' by less than one level, so FFmpeg's conversion to 8-bit
Y'CbCr rounds most of it away (a dark gradient came out of H.264 in flat bands 50 px wide even
losslessly). Here FFmpeg converts to 16 bits a sample instead, and we round each plane to 8
bits after adding a fixed pattern, so the fraction of a level between two codes survives as
the share of pixels rounded up.

The pattern's shape is what lets it survive the encoder. A pattern that changes from pixel to
pixel is the finest detail there is, the first thing a lossy encoder quantises away (H.264 at
crf 18 gave the bands back); so the pattern holds one value over each 4x4 block, the
transform size of H.264, HEVC and VP9, where it lands in the blocks' mean. Block values follow
the R2 low-discrepancy sequence, so neighbouring blocks differ and every level between 0 and
1 is near. It spans two levels peak to peak: one level (the least that hides a step) still
left 32 px bands in a 1080p gradient through H.264 at crf 18, two left runs of 3 px
(docs/performance.md has the figures).

The pattern is keyed by pixel position only: the same in every frame, segment and worker, so
outputs do not depend on how a render is split. Alpha is never dithered: it is copied as it
is.
"""

from __future__ import annotations

import functools

import av
import numpy as np

# The 8-bit planar Y'CbCr formats rounded here, each with its 16-bit twin.
WIDE_TWINS = {name: name + "16le" for name in (
    "yuv420p", "yuv422p", "yuv444p", "yuva420p", "yuva422p", "yuva444p")}

_BLOCK = 4  # pixels of a plane: the encoders' smallest transform
_SPAN = 2.0  # levels, peak to peak
_TILE = 64  # pixels; a multiple of _BLOCK
_PLASTIC = 1.32471795724474602596  # the R2 sequence's constant

# FFmpeg's scaler on its own threads (its default) writes a row of garbage now and then when
# converting to 10 or 16 bits at some frame sizes (53x37: 3 different outputs for one frame in
# 100 conversions), which would make a video depend on the run; one thread costs nothing
# measurable at 1080p (7.8 ms against 8.1), and a render already runs a worker per core.
SCALER_THREADS = 1


def _pattern(phase: float) -> np.ndarray:
    """One _TILE x _TILE tile, as what to add to a 16-bit sample before keeping its high byte:
    half a level (rounding to nearest) plus the pattern's offset, in 1/256 of a level."""
    rows, columns = np.mgrid[0:_TILE // _BLOCK, 0:_TILE // _BLOCK]
    offsets = np.modf(columns / _PLASTIC + rows / _PLASTIC ** 2 + phase)[0] - 0.5
    blocks = np.repeat(np.repeat(offsets, _BLOCK, axis=0), _BLOCK, axis=1)
    return np.round(128 + 256 * _SPAN * blocks).astype(np.uint16)


@functools.lru_cache(maxsize=8)
def _plane_pattern(height: int, width: int, plane: int) -> np.ndarray:
    # Each colour plane its own phase: one pattern for all three would push every colour
    # towards the same corner of each block's levels together.
    tile = _pattern(plane / 3)
    tiles = np.tile(tile, (height // _TILE + 1, width // _TILE + 1))
    return np.ascontiguousarray(tiles[:height, :width])


def _samples(plane: av.video.plane.VideoPlane, dtype) -> np.ndarray:
    """A plane's samples as a height x width view (without the row padding)."""
    rows = np.frombuffer(plane, dtype).reshape(plane.height, -1)
    return rows[:, :plane.width]


def dithered_frame(pixels: np.ndarray, pix_fmt: str) -> av.VideoFrame:
    """`pixels` (height x width x 4 RGBA, or x 3 RGB, uint8) as a BT.709 limited-range frame in
    `pix_fmt` (one of WIDE_TWINS), each colour plane rounded through the pattern.

    No copy of a frame is made on the way (a 1080p frame's conversion went from about 19 ms to
    6 ms): FFmpeg reads `pixels` where they lie, the pattern is added to the 16-bit samples in
    place, and each rounded sample is its sum's high byte, taken straight into the frame."""
    source = av.VideoFrame.from_numpy_buffer(np.ascontiguousarray(pixels),
                                             format="rgba" if pixels.shape[2] == 4 else "rgb24")
    wide = source.reformat(format=WIDE_TWINS[pix_fmt], dst_colorspace="itu709",
                           threads=SCALER_THREADS)
    frame = av.VideoFrame(source.width, source.height, pix_fmt)
    for index, (deep, shallow) in enumerate(zip(wide.planes[:3], frame.planes[:3])):
        # Limited range peaks at 240 << 8 and the pattern adds at most 384: no overflow.
        samples = _samples(deep, np.uint16)
        samples += _plane_pattern(shallow.height, shallow.width, index)
        np.copyto(_samples(shallow, np.uint8), _high_bytes(samples))
    if len(frame.planes) == 4:  # RGB was composited over black: opaque
        _samples(frame.planes[3], np.uint8)[:] = pixels[..., 3] if pixels.shape[2] == 4 else 255
    frame.colorspace = 1  # BT.709 (color_tags.BT709)
    frame.color_range = 1  # limited
    return frame


def _high_bytes(samples: np.ndarray) -> np.ndarray:
    """Each 16-bit sample's high byte (its value >> 8), as a view of the same memory."""
    view = samples.view(np.uint8)
    return view[:, 1::2] if np.little_endian else view[:, 0::2]
