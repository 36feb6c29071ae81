"""From the compositor's frames (numpy uint8, height x width x 4, straight RGBA) to the
av.VideoFrame an encoder takes.

Formats without alpha get the frame composited over black, as After Effects writes RGB
output; dropping alpha instead would show colours that a transparent pixel only carried by
accident (straight RGBA keeps colour under zero alpha).
"""

from __future__ import annotations

import av
import numpy as np

from workers.exporter.deep_pixels import as_8_bits, is_deep, wide_frame
from workers.exporter.dithered_yuv import SCALER_THREADS, WIDE_TWINS, dithered_frame
from workers.exporter.gif_palette import palette_frame


class FrameShapeError(ValueError):
    """A frame that is not height x width x 4 uint8, or not the size the output was opened at."""


def check_frame(rgba: np.ndarray, width: int | None = None, height: int | None = None) -> None:
    if not (isinstance(rgba, np.ndarray) and rgba.dtype in (np.uint8, np.float32)
            and rgba.ndim == 3 and rgba.shape[2] == 4):
        shape = getattr(rgba, "shape", None)
        dtype = getattr(rgba, "dtype", type(rgba).__name__)
        raise FrameShapeError(f"the exporter takes frames as height x width x 4 uint8 (or "
                              f"float32) RGBA arrays, got shape {shape} of {dtype}")
    if width is not None and (rgba.shape[1], rgba.shape[0]) != (width, height):
        raise FrameShapeError(f"frame is {rgba.shape[1]}x{rgba.shape[0]} but the output was "
                              f"opened at {width}x{height}; every frame of an output must "
                              "have the comp's size")


def is_opaque(rgba: np.ndarray) -> bool:
    """Whether every pixel of an 8-bit RGBA frame is opaque. A C-contiguous frame is read as
    32-bit words, whose least is at least 0xff000000 (on little-endian machines, alpha is the
    high byte) exactly when every alpha is 255: one quick pass instead of a strided one."""
    if rgba.flags["C_CONTIGUOUS"] and np.little_endian:
        return int(rgba.view(np.uint32).min()) >= 0xFF000000
    return int(rgba[..., 3].min()) == 255


def over_black(rgba: np.ndarray) -> np.ndarray:
    """RGB of the frame composited over black (height x width x 3 uint8), rounded to nearest."""
    alpha = rgba[..., 3:4]
    if is_opaque(rgba):
        return np.ascontiguousarray(rgba[..., :3])
    rgb = rgba[..., :3].astype(np.uint16) * alpha + 128
    return ((rgb + (rgb >> 8)) >> 8).astype(np.uint8)


# Y'CbCr video is written with the BT.709 matrix, and tagged so (color_tags.py): the matrix HD
# players assume for untagged video too, where FFmpeg's default (BT.601) would shift every
# colour slightly in them.
def is_bt709(pix_fmt: str) -> bool:
    """Whether frames in `pix_fmt` are converted and tagged BT.709: Y'CbCr, but not the
    full-range yuvj formats, which are JPEG's and BT.601 by definition."""
    return pix_fmt.startswith("yuv") and not pix_fmt.startswith("yuvj")


def video_frame(rgba: np.ndarray, keep_alpha: bool, pix_fmt: str,
                dither: str = "none", matrix: str | None = None) -> av.VideoFrame:
    """The frame in the encoder's pixel format (BT.709 for Y'CbCr video, see BT709, or the
    `matrix` its tags name), rounded as `dither` says: a GIF's palette frame by error
    diffusion, "bayer" or "none" (gif_palette.py); 8-bit Y'CbCr "ordered" (dithered_yuv.py) or
    "none" (FFmpeg's conversion, to nearest)."""
    if is_deep(rgba) or (matrix or "itu709") != "itu709":
        if sample_bits(pix_fmt) > 8:
            return _wide_video_frame(rgba, keep_alpha, pix_fmt, matrix or "itu709")
        rgba = as_8_bits(rgba)
    if pix_fmt == "pal8":
        return palette_frame(over_black(rgba), dither)
    opaque = is_opaque(rgba)
    if dither == "ordered" and pix_fmt in WIDE_TWINS:
        return dithered_frame(rgba if keep_alpha or opaque else over_black(rgba), pix_fmt)
    source, layout = (rgba, "rgba") if keep_alpha or opaque else (over_black(rgba), "rgb24")
    # Opaque frames go to the converter as they are: it ignores alpha, and skipping the RGB
    # copy matters at 1080p. The converter reads them where they lie; a frame that goes to the
    # encoder as it is must be a copy, since the caller draws the next frame into `rgba`.
    source = np.ascontiguousarray(source)
    if layout == pix_fmt:
        return av.VideoFrame.from_ndarray(source, format=layout)
    return av.VideoFrame.from_numpy_buffer(source, format=layout).reformat(
        format=pix_fmt, dst_colorspace="itu709" if is_bt709(pix_fmt) else None,
        threads=SCALER_THREADS)


def sample_bits(pix_fmt: str) -> int:
    """Bits of a pixel format's first component (8 for rgba, 10 for yuv422p10le)."""
    return av.VideoFormat(pix_fmt).components[0].bits


def _wide_video_frame(rgba: np.ndarray, keep_alpha: bool, pix_fmt: str,
                      matrix: str = "itu709") -> av.VideoFrame:
    """A frame in a pixel format of more than 8 bits a sample, through 16-bit RGBA, converted
    with `matrix` (swscale's name: itu709, bt2020)."""
    if not keep_alpha and rgba[..., 3].min() < 1.0:
        rgba = rgba.copy()
        rgba[..., :3] *= rgba[..., 3:4]
        rgba[..., 3] = 1.0
    frame = wide_frame(rgba)
    if frame.format.name != pix_fmt:
        frame = frame.reformat(format=pix_fmt,
                               dst_colorspace=matrix if is_bt709(pix_fmt) else None,
                               threads=SCALER_THREADS)
    return frame
