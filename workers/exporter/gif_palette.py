"""A 256-colour palette for each GIF frame, from that frame alone, through FFmpeg's own
palettegen and paletteuse filters.

GIF holds 256 colours per frame. The frame's palette is cut from its own colour statistics
(palettegen, `stats_mode=single`: a new histogram for every frame) and the frame is mapped to
it with error diffusion (paletteuse, `new=1`: each frame its own palette), so a gradient keeps
its steps as a fine grain instead of flat bands, and a frame of 256 colours or fewer (flat
graphics, titles) keeps them exactly. This is FFmpeg's usual palettegen/paletteuse recipe run
one frame at a time: a frame's palette depends on that frame only, never on its neighbours,
so any split of a GIF into segments gives the same frames (see segments.py).

`dither` (codecOptions): "sierra2_4a" (the default) or "floyd_steinberg", error diffusion;
"bayer", an 8x8 ordered pattern; "none", the nearest palette colour.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import av
import av.filter
import numpy as np

from protocol.model.codec_options import GIF_DITHERS

PALETTE_SIZE = 256
DEFAULT_DITHER = GIF_DITHERS[0]


class GifPalette:
    """Cuts RGB frames of one size to palette frames (pal8), each from itself alone."""

    def __init__(self, width: int, height: int, dither: str = DEFAULT_DITHER) -> None:
        if dither not in GIF_DITHERS:
            raise ValueError(f"unknown GIF dither {dither!r}; use one of "
                             f"{', '.join(GIF_DITHERS)}")
        self.size = (width, height)
        graph = av.filter.Graph()
        source = graph.add_buffer(width=width, height=height, format="rgb24",
                                  time_base=Fraction(1, 100))
        split = graph.add("split")
        # All 256 entries for colours: no transparent entry, as frames are composited over
        # black (pixels.py).
        statistics = graph.add("palettegen", f"max_colors={PALETTE_SIZE}:stats_mode=single"
                                             ":reserve_transparent=0")
        mapping = graph.add("paletteuse", f"dither={dither}:new=1")
        sink = graph.add("buffersink")
        source.link_to(split)
        split.link_to(mapping, 0, 0)
        split.link_to(statistics, 1, 0)
        statistics.link_to(mapping, 0, 1)
        mapping.link_to(sink)
        graph.configure()
        self._graph = graph
        self._pts = 0

    def frame(self, rgb: np.ndarray) -> av.VideoFrame:
        """The pal8 frame for an RGB frame (height x width x 3 uint8)."""
        if (rgb.shape[1], rgb.shape[0]) != self.size:
            raise ValueError(f"frame is {rgb.shape[1]}x{rgb.shape[0]}, the palette graph "
                             f"{self.size[0]}x{self.size[1]}")
        frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(rgb), format="rgb24")
        frame.pts = self._pts  # only increasing; the frame's time is the segment's business
        self._pts += 1
        self._graph.push(frame)
        return self._graph.pull()


@functools.lru_cache(maxsize=4)
def _graph(width: int, height: int, dither: str) -> GifPalette:
    return GifPalette(width, height, dither)


def palette_frame(rgb: np.ndarray, dither: str = DEFAULT_DITHER) -> av.VideoFrame:
    """The pal8 frame for an RGB frame, through a graph kept per size and dither (a frame's
    result depends on the frame alone, so one graph serves every segment of a worker)."""
    return _graph(rgb.shape[1], rgb.shape[0], dither).frame(rgb)


def quantize(rgb: np.ndarray, dither: str = DEFAULT_DITHER) -> tuple[np.ndarray, np.ndarray]:
    """(indices height x width uint8, palette 256 x 4 uint8 in ARGB order) for one RGB frame:
    the frame a GifPalette makes, as arrays."""
    frame = palette_frame(rgb, dither)
    indices = np.frombuffer(frame.planes[0], np.uint8).reshape(frame.height, -1)
    indices = indices[:, :frame.width].copy()
    # The palette plane is 256 native-endian 32-bit ARGB words: B, G, R, A bytes here.
    bgra = np.frombuffer(frame.planes[1], np.uint8)[:PALETTE_SIZE * 4].reshape(-1, 4)
    return indices, bgra[:, ::-1].copy()
