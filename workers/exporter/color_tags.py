"""The colour tags a video carries: primaries, transfer, matrix and range, written the same
into the container and into the bitstream, so every player reads the picture alike.

An encoder takes some tags from its context (x264, x265, the MP4 and MOV muxers) and some from
each frame (ProRes writes the frame's primaries and transfer into every frame header, and left
them "unspecified" when only the context said BT.709), so both are tagged from one ColorTags.

Numbers are FFmpeg's (AVColorPrimaries, AVColorTransferCharacteristic, AVColorSpace,
AVColorRange), which are those of ITU-T H.273.
"""

from __future__ import annotations

from dataclasses import dataclass

import av


@dataclass(frozen=True)
class ColorTags:
    primaries: int
    transfer: int
    matrix: int
    range: int  # 1 limited ("TV"), 2 full ("PC")
    name: str  # as docs, errors and a queue item's colorTags say it
    conversion: str = "itu709"  # the matrix frames are converted to Y'CbCr with (swscale's)

    def tag_context(self, ctx: av.codec.context.CodecContext) -> None:
        ctx.color_primaries = self.primaries
        ctx.color_trc = self.transfer
        ctx.colorspace = self.matrix
        ctx.color_range = self.range

    def tag_frame(self, frame: av.VideoFrame) -> av.VideoFrame:
        frame.color_primaries = self.primaries
        frame.color_trc = self.transfer
        frame.colorspace = self.matrix
        frame.color_range = self.range
        return frame


# HD video, and what players assume of untagged video: BT.709 primaries, transfer and matrix,
# limited range.
BT709 = ColorTags(primaries=1, transfer=1, matrix=1, range=1, name="bt709")
# HDR10: BT.2020 primaries, the PQ curve (SMPTE ST 2084), the BT.2020 non-constant luminance
# matrix, limited range.
BT2020_PQ = ColorTags(primaries=9, transfer=16, matrix=9, range=1, name="bt2020-pq",
                      conversion="bt2020")
# Wide gamut without HDR: BT.2020 primaries and matrix, BT.709's transfer (as BT.2020 gives it
# for 10 bits).
BT2020 = ColorTags(primaries=9, transfer=14, matrix=9, range=1, name="bt2020",
                   conversion="bt2020")

TAGS = {tags.name: tags for tags in (BT709, BT2020, BT2020_PQ)}
