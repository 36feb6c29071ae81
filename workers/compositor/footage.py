"""The per-worker footage cache: decoded stills and sequence frames, and open video decoders.

A worker process lives for many frames and many jobs, so it keeps what is expensive to get
again: decoded images (decoding a PNG costs more than drawing it) and one open decoder per video
file (see video.py). Entries are keyed by path and the file's modification stamp, so a file
replaced on disk is read again instead of shown stale. A file that cannot be read gives None;
the caller reports it as missing and draws nothing, never raises.
"""

from __future__ import annotations

import os
from collections import OrderedDict

import skia

from protocol.model.sequences import sequence_path
from workers.compositor.video import DECODE_ERRORS, VideoDecoder

# Decoded stills kept, in bytes of pixels: enough for a sequence's working set and a few
# large plates, small enough that several workers fit in memory together.
IMAGE_BUDGET_BYTES = 512 * 1024 * 1024
# Open video files kept; each holds a demuxer, a decoder and one decoded frame.
MAX_OPEN_VIDEOS = 8
# Bytes of mipmap levels kept (for footage drawn much smaller than its pixels): a still's are
# reused every frame; a video frame's only by the layers and motion blur samples of its own
# frame. Kept by count (16), large stills could leave gigabytes of levels in a worker; the
# newest is kept even past the budget, since the next frame draws it again.
MIPMAP_BUDGET_BYTES = 128 * 1024 * 1024


def file_stamp(path: str):
    """What says a file changed (its modification time and size), or None if it is gone."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size)


class FootageCache:
    """One per worker process, kept across frames and jobs. Not thread-safe: a worker renders
    one frame at a time."""

    def __init__(self, image_budget_bytes: int = IMAGE_BUDGET_BYTES,
                 max_open_videos: int = MAX_OPEN_VIDEOS):
        self.image_budget_bytes = image_budget_bytes
        self.max_open_videos = max_open_videos
        self._images: OrderedDict = OrderedDict()  # path -> (stamp, image)
        self._image_bytes = 0
        self._videos: OrderedDict = OrderedDict()  # path -> (stamp, VideoDecoder)
        self._mipmapped: OrderedDict = OrderedDict()  # image uniqueID -> mipmapped image
        self._mipmap_bytes = 0

    def image(self, path: str) -> skia.Image | None:
        stamp = file_stamp(path)
        if stamp is None:
            return None
        cached = self._images.get(path)
        if cached is not None and cached[0] == stamp:
            self._images.move_to_end(path)
            return cached[1]
        image = _decode_still(path)
        if image is None:
            return None
        self._forget_image(path)
        self._images[path] = (stamp, image)
        self._image_bytes += _size_of(image)
        while self._image_bytes > self.image_budget_bytes and len(self._images) > 1:
            self._forget_image(next(iter(self._images)))
        return image

    def sequence_frame(self, pattern: str, number: int) -> tuple[str, skia.Image | None]:
        path = sequence_path(pattern, number)
        return path, self.image(path)

    def video_frame(self, path: str, seconds: float) -> skia.Image | None:
        decoder = self.video_decoder(path)
        if decoder is None:
            return None
        try:
            return decoder.image_at(seconds)
        except DECODE_ERRORS:
            self._forget_video(path)
            return None

    def mipmapped(self, image: skia.Image) -> skia.Image:
        """`image` with its mipmap chain, built once per image."""
        key = image.uniqueID()
        mipmapped = self._mipmapped.get(key)
        if mipmapped is None:
            mipmapped = image.withDefaultMipmaps()
            self._mipmapped[key] = mipmapped
            self._mipmap_bytes += _mipmap_size_of(mipmapped)
            while self._mipmap_bytes > MIPMAP_BUDGET_BYTES and len(self._mipmapped) > 1:
                _, dropped = self._mipmapped.popitem(last=False)
                self._mipmap_bytes -= _mipmap_size_of(dropped)
        else:
            self._mipmapped.move_to_end(key)
        return mipmapped

    def close(self) -> None:
        for path in list(self._videos):
            self._forget_video(path)
        self._images.clear()
        self._image_bytes = 0
        self._mipmapped.clear()
        self._mipmap_bytes = 0

    def video_decoder(self, path: str) -> VideoDecoder | None:
        """The open decoder for `path` (opened now if needed), or None if it cannot be read."""
        stamp = file_stamp(path)
        if stamp is None:
            self._forget_video(path)
            return None
        cached = self._videos.get(path)
        if cached is not None and cached[0] == stamp:
            self._videos.move_to_end(path)
            return cached[1]
        self._forget_video(path)
        try:
            decoder = VideoDecoder(path)
        except (*DECODE_ERRORS, IndexError):
            return None  # not a media file, or one without a video stream
        self._videos[path] = (stamp, decoder)
        while len(self._videos) > self.max_open_videos:
            self._forget_video(next(iter(self._videos)))
        return decoder

    def _forget_image(self, path: str) -> None:
        cached = self._images.pop(path, None)
        if cached is not None:
            self._image_bytes -= _size_of(cached[1])

    def _forget_video(self, path: str) -> None:
        cached = self._videos.pop(path, None)
        if cached is not None:
            try:
                cached[1].close()
            except DECODE_ERRORS:
                pass


def _decode_still(path: str) -> skia.Image | None:
    data = skia.Data.MakeFromFileName(path)
    if data is None:
        return None
    encoded = skia.Image.MakeFromEncoded(data)
    if encoded is None:
        return None
    # Decode now, once: a lazily decoded image may be decoded again on every draw.
    return encoded.makeRasterImage()


def _size_of(image: skia.Image) -> int:
    return image.width() * image.height() * 4


def _mipmap_size_of(image: skia.Image) -> int:
    """The levels below full size: each a quarter of the one above, a third of it in all."""
    return _size_of(image) // 3
