"""Writing image sequence frames (png, jpeg, tiff, exr): one file per frame, each written under a
temporary name in its folder and renamed into place, so a final frame name never holds a
half-written image, whatever moment a render is cancelled or a worker killed.

PNG is lossless and deterministic: the same frame gives the same bytes in any worker.
"""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Callable, Iterable

import av
import numpy as np

from protocol.model.output_formats import format_for_extension, output_format
from protocol.model.output_names import frame_path
from workers.exporter.atomic_files import publish, temporary_path
from workers.exporter.complete_frames import is_complete_frame
from workers.exporter.deep_pixels import as_linear, is_deep
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.pixels import check_frame, video_frame
from workers.exporter.video_encoders import CodecOptionError, allowed_options

# Each format's pixel format for 8-bit frames, and for a 16-bit or float comp's (deep) frames.
PIXEL_FORMATS = {"png": "rgba", "jpeg": "yuvj444p", "tiff": "rgba", "exr": "gbrapf32le"}
DEEP_PIXEL_FORMATS = {**PIXEL_FORMATS, "png": "rgba64be", "tiff": "rgba64le"}


class ImageEncoder:
    """Encodes frames of one size to PNG or JPEG bytes with an item's codecOptions.

    JPEG's `qscale` (1 best .. 31 smallest, default 2) is FFmpeg's `-q:v`; PyAV cannot set a
    frame's quality, so it is applied as equal minimum and maximum quantisers, the same
    thing for an intra-only encoder."""

    def __init__(self, fmt: str, width: int, height: int,
                 codec_options: dict | None = None, deep: bool = False,
                 scene_linear: bool = False) -> None:
        spec = output_format(fmt)
        if not spec.is_sequence:
            raise ValueError(f"{fmt} is a video format, not an image sequence format")
        options = {**spec.default_codec_options, **allowed_options(fmt, codec_options)}
        self.pix_fmt = options.pop("pix_fmt", (DEEP_PIXEL_FORMATS if deep else
                                               PIXEL_FORMATS)[fmt])
        if fmt == "jpeg":
            quality = options.pop("qscale")
            if not quality.isdigit() or not 1 <= int(quality) <= 31:
                raise CodecOptionError(f"jpeg qscale {quality!r} is not a whole number from 1 "
                                       "(best) to 31 (smallest); 2 is the default")
            options.update(qmin=quality, qmax=quality)
        self.fmt = fmt
        # Frames already in linear light (a colour-managed project's working space): EXR
        # writes them as they are, where it undoes the sRGB curve of every other frame.
        self._scene_linear = scene_linear
        self._half = options.get("format") == "half"
        self.keep_alpha = spec.alpha
        self.width, self.height = width, height
        self._ctx = av.CodecContext.create(spec.codec, "w")
        self._ctx.width, self._ctx.height = width, height
        self._ctx.pix_fmt = self.pix_fmt
        self._ctx.time_base = Fraction(1, 25)  # required by the API; an image has no time
        self._ctx.options = options
        # Square pixels: FFmpeg's PNG encoder writes a pHYs chunk from the sample aspect ratio
        # whatever it is, and an unset one made it an odd "0 by 1".
        self._ctx.sample_aspect_ratio = Fraction(1, 1)
        try:
            self._ctx.open()
        except av.error.FFmpegError as error:
            raise CodecOptionError(f"the {fmt} encoder refused codecOptions {codec_options} "
                                   f"with pixel format {self.pix_fmt}: {error}; check the "
                                   "item's codecOptions") from None

    def encode(self, rgba: np.ndarray) -> bytes:
        check_frame(rgba, self.width, self.height)
        if self.fmt == "exr":  # linear light, in floats: EXR is scene-referred
            linear = rgba.astype(np.float32) if self._scene_linear else as_linear(rgba)
            if self._half:
                # Rounded to the nearest half here: FFmpeg's encoder truncates, which put
                # half of all values one step low. A value that is a half already is kept.
                linear = linear.astype(np.float16).astype(np.float32)
            frame = av.VideoFrame.from_ndarray(linear, format=self.pix_fmt)
        else:
            frame = video_frame(rgba, self.keep_alpha, self.pix_fmt)
        packets = self._ctx.encode(frame)
        return b"".join(bytes(p) for p in packets)


def write_image(data: bytes, final_path: str, opened: OpenedFiles,
                token: str | None = None) -> None:
    """Write one encoded frame to `final_path` through a recorded temporary (named with
    `token`, see temporary_path)."""
    opened.make_folders(final_path)
    temporary = temporary_path(final_path, token=token)
    # O_EXCL: a temporary name that somehow exists belongs to someone else; never write into it.
    with os.fdopen(opened.create(temporary), "wb") as file:
        file.write(data)
    publish(temporary, final_path, opened)


def frames_to_write(pattern: str, frames: Iterable[int], skip_existing: bool,
                    fmt: str | None = None, start_number: int = 0) -> list[int]:
    """The frames an item still has to render: all of them, or with skipExisting those whose
    final file is not a complete image (the others are neither rendered nor written). `fmt`
    defaults to the pattern's extension's; a video's one file is there or not. Files are
    numbered from `start_number` (comp frame 0's file)."""
    if not skip_existing:
        return list(frames)
    fmt = fmt or format_for_extension(pattern)
    if fmt is None or not output_format(fmt).is_sequence:
        return [] if os.path.exists(pattern) else list(frames)
    return [frame for frame in frames
            if not is_complete_frame(frame_path(pattern, frame, start_number), fmt)]


def write_sequence(frames: Iterable[tuple[int, np.ndarray]], pattern: str, fmt: str,
                   codec_options: dict | None = None, opened: OpenedFiles | None = None,
                   skip_existing: bool = False,
                   on_frame: Callable[[int], None] | None = None,
                   token: str | None = None, start_number: int = 0,
                   scene_linear: bool = False) -> list[str]:
    """Write (comp frame number, RGBA array) pairs to the files `pattern` names; returns
    the files written. `scene_linear`: the frames hold linear light (EXR keeps it as it is).

    With skip_existing a frame whose file is complete when its turn comes is not written (pass
    only `frames_to_write`'s frames to avoid rendering it at all). Raising from the frames
    iterator or from `on_frame` stops between frames; every file written so far is in
    `opened`. `token` names the temporaries (see temporary_path); files are numbered from
    `start_number` (comp frame 0's file)."""
    opened = opened if opened is not None else OpenedFiles()
    encoder = None
    written = []
    for number, rgba in frames:
        path = frame_path(pattern, number, start_number)
        if skip_existing and is_complete_frame(path, fmt):
            continue
        if encoder is None:
            check_frame(rgba)
            encoder = ImageEncoder(fmt, rgba.shape[1], rgba.shape[0], codec_options,
                                   deep=is_deep(rgba), scene_linear=scene_linear)
        write_image(encoder.encode(rgba), path, opened, token)
        written.append(path)
        if on_frame is not None:
            on_frame(number)
    return written
