"""How each video format is encoded: encoder, pixel format, container and the options that
make segments joinable.

Every segment of a video must come out of an encoder configured exactly alike, so that the
first segment's codec header (extradata) describes all of them and the joined file is a plain
stream copy. `open_encoder` is therefore the one place an encoder is configured, for the
container's stream and for every fresh encoder alike.

Options we force, and the failure each prevents:
- No B-frames (`bf=0`): with B-frames a segment's first packets decode before they display
  (dts < pts), which collides with the previous segment's last timestamps after a join.
  (AV1 has no such reordering: SVT-AV1 returns one packet per shown frame, in order.)
- Fixed key frame interval with no scene-cut key frames: the key frame pattern depends only
  on the frame index, so any split on those key frames encodes the same frames the same way.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fractions import Fraction

import av

from protocol.model.codec_options import CodecOptionRefused, check_codec_options
from protocol.model.frame_rates import exact_frame_rate
from protocol.model.output_formats import OutputFormat, output_format
from workers.exporter.gif_palette import DEFAULT_DITHER
from workers.exporter.color_tags import BT709, BT2020_PQ, TAGS, ColorTags
from workers.exporter.pixels import is_bt709, sample_bits, video_frame

# Video container per format, as FFmpeg names the muxer.
CONTAINERS = {"h264": "mp4", "hevc": "mp4", "av1": "mp4", "prores": "mov", "vp9": "webm",
              "gif": "gif"}

# The container a segment is written in. GIF's own would not do: its demuxer hands back the
# file header and loop extension inside the first packet and the trailer inside the last, so
# copied segments would end the joined GIF early. NUT keeps the encoder's packets as they are.
SEGMENT_CONTAINERS = {**CONTAINERS, "gif": "nut"}

# Formats whose every frame is coded on its own (no reference frames, no rate control carried
# between frames): any frame can start a segment and the encoder never needs a restart. GIF
# must not be restarted mid-segment, as its encoder writes the GIF file header into its first
# packet.
INTRA_ONLY = {"prores", "gif"}

# The colorTags a queue item may ask for, and the formats that carry wide-gamut tags.
ITEM_COLOR_TAGS = ("bt709", "bt2020-pq")
WIDE_GAMUT_FORMATS = ("hevc", "prores")

# Tags a format's stream must carry that the muxer would not pick itself: Apple players open
# HEVC in MP4 only as hvc1 (parameter sets in the header), not FFmpeg's default hev1.
CODEC_TAGS = {"hevc": "hvc1"}


# Settings that keep a key frame at the quality of the frames around it, so a near-static
# shot does not pulse at each one. x264's macroblock tree (x265's cutree) gives a block the
# quality its later use by other frames earns it: in a near-static shot the key frame is
# coded far sharper than the frames after it, which then let slow changes pile up until the
# next key frame redraws everything at once (measured on a slow drift over a textured image:
# the jump at a key frame 14x the median frame-to-frame difference, 4.5x without the tree;
# docs/outputs.md). x265 logs every encoder start to stderr (the render reports its own
# progress), and needs its B-frames and scene cuts off in its own params too.
# SVT-AV1 hands back its frames in order whatever its prediction structure (an AV1 packet
# holds every frame a shown frame needs), and makes a key frame only at a restart once its
# own interval is unbounded (`keyint=-1`) and its scene cuts off.
ENCODER_NAMES = {"h264": "x264", "hevc": "x265", "av1": "svtav1"}
STEADY_KEY_FRAMES = {"h264": ("mbtree=0",),
                     "hevc": ("log-level=error", "bframes=0", "scenecut=0", "cutree=0"),
                     "av1": ("keyint=-1", "scd=0")}
# The smallest and largest frames SVT-AV1 encodes (its sources are 4:2:0 only).
AV1_FRAME_SIZES = ((4, 4), (16384, 8704))

# Y'CbCr video in 4:2:0 by default, with its encoder's own params (`x264-params`, ...).
PARAMS_FORMATS = tuple(ENCODER_NAMES)

# SVT-AV1 prints its whole configuration to stderr at every encoder start (a render reports
# its own progress) unless its log level, which it reads from the environment once, before
# its first encoder, says errors only. Left as it is when set, to debug with.
os.environ.setdefault("SVT_LOG", "1")


class CodecOptionError(ValueError):
    """codecOptions the encoder cannot take; the message names the option and the fix."""


@dataclass(frozen=True)
class EncoderSetup:
    """Everything needed to configure one encoder; equal setups make identical encoders."""
    format: OutputFormat
    container: str  # of the segments
    pix_fmt: str
    keep_alpha: bool
    options: dict[str, str]
    codec_tag: str | None
    width: int
    height: int
    frame_rate: Fraction
    # How frames are rounded to the pixel format: a GIF's palette by error diffusion, "bayer"
    # or "none" (gif_palette.py); 8-bit Y'CbCr video "ordered" or "none" (dithered_yuv.py).
    dither: str = "none"
    # The colour tags of the stream and of every frame (color_tags.py); None for RGB formats.
    tags: ColorTags | None = None

    def frame(self, rgba) -> av.VideoFrame:
        """A frame of the compositor's as this encoder takes it, tagged."""
        matrix = None if self.tags is None else self.tags.conversion
        frame = video_frame(rgba, self.keep_alpha, self.pix_fmt, self.dither, matrix)
        return frame if self.tags is None else self.tags.tag_frame(frame)


def allowed_options(fmt: str, codec_options: dict | None) -> dict[str, str]:
    """An item's codecOptions as strings, once protocol/model/codec_options.py's list for the format
    allows them; otherwise CodecOptionError with its sentence. Checked here as well as when
    queued and planned: this is the last place before FFmpeg, whoever planned the chunk."""
    try:
        return check_codec_options(fmt, codec_options, f"this {fmt} render")
    except CodecOptionRefused as error:
        raise CodecOptionError(str(error)) from None


def encoder_setup(fmt: str, width: int, height: int, frame_rate,
                  codec_options: dict | None = None,
                  color_tags: str | None = None) -> EncoderSetup:
    """The encoder configuration for a video format and an item's codecOptions.

    codecOptions pass through to the encoder (strings, as FFmpeg takes them), on top of the
    format's defaults, once the list allows them (`allowed_options`); `pix_fmt` picks the
    pixel format, and for prores `profile` picks the profile (4444 keeps alpha). `color_tags`
    (an item's colorTags: bt709, the default, or bt2020-pq for HDR10) tags Y'CbCr video and
    picks the matrix its frames are converted with; HDR10 HEVC is 10-bit (Main10) unless
    `pix_fmt` says otherwise."""
    tagged = TAGS.get(color_tags or "bt709")
    if tagged is None:
        raise CodecOptionError(f"colorTags {color_tags!r} is not one rendervisor writes; use "
                               f"{' or '.join(ITEM_COLOR_TAGS)}")
    if tagged is not BT709 and fmt not in WIDE_GAMUT_FORMATS:
        raise CodecOptionError(f"colorTags {tagged.name} tags HEVC or ProRes; {fmt} is written "
                               "as BT.709, so leave colorTags out or choose hevc or prores")
    spec = output_format(fmt)
    if spec.is_sequence:
        raise ValueError(f"{fmt} is an image sequence format, not a video format")
    options = {**spec.default_codec_options, **allowed_options(fmt, codec_options)}
    pix_fmt = options.pop("pix_fmt", None)
    keep_alpha = False
    dither = "none"
    codec_tag = CODEC_TAGS.get(fmt)
    if fmt in (*PARAMS_FORMATS, "vp9"):
        dither = options.pop("dither", "ordered")  # ours: how frames are cut to 8 bits
    if fmt in PARAMS_FORMATS:
        check_frame_size(fmt, width, height, pix_fmt or "yuv420p")
        pix_fmt = pix_fmt or ("yuv420p" if tagged is BT709 else "yuv420p10le")
        if fmt != "av1":  # SVT-AV1 takes neither; its own params say it
            options["bf"] = "0"
            options["sc_threshold"] = "0"
        # The item's own params come last, so they win over ours.
        key = f"{ENCODER_NAMES[fmt]}-params"
        extra = options.pop(key, "")
        options[key] = ":".join(p for p in (*STEADY_KEY_FRAMES[fmt], extra) if p)
    elif fmt == "prores":
        profile = options.setdefault("profile", spec.default_profile)
        if profile not in spec.profiles:
            raise CodecOptionError(f"unknown prores profile {profile!r}; use one of "
                                   f"{', '.join(spec.profiles)}")
        keep_alpha = spec.profiles[profile]
        pix_fmt = pix_fmt or ("yuva444p10le" if keep_alpha else "yuv422p10le")
    elif fmt == "vp9":
        pix_fmt = pix_fmt or "yuva420p"
        keep_alpha = pix_fmt.startswith("yuva")
    elif fmt == "gif":
        pix_fmt = pix_fmt or "pal8"
        # Each GIF frame stored whole, never as a difference to the previous one, and with
        # its own colour table rather than the first frame's as the file's global one, so a
        # frame does not depend on the segment before it and segments join by plain copy.
        options["gifflags"] = "-offsetting-transdiff"
        options["global_palette"] = "0"
        # Ours: how frames are cut to their palette.
        dither = options.pop("dither", DEFAULT_DITHER)
    tags = tagged if is_bt709(pix_fmt) else None
    if tagged.transfer == BT2020_PQ.transfer and (tags is None or sample_bits(pix_fmt) < 10):
        raise CodecOptionError(f"HDR10 (colorTags {tagged.name}) needs 10-bit Y'CbCr, and "
                               f"pix_fmt {pix_fmt} is not; leave pix_fmt out or use "
                               "yuv420p10le")
    return EncoderSetup(spec, SEGMENT_CONTAINERS[fmt], pix_fmt, keep_alpha, options, codec_tag,
                        width, height, exact_frame_rate(frame_rate), dither, tags)


def check_frame_size(fmt: str, width: int, height: int, pix_fmt: str) -> None:
    """Refuse a frame size the encoder cannot take, here rather than as an encoder error in
    every worker: 4:2:0 needs an even width and height, and SVT-AV1 frames of 4x4 to
    16384x8704."""
    if fmt == "av1":
        (low_w, low_h), (high_w, high_h) = AV1_FRAME_SIZES
        if not (low_w <= width <= high_w and low_h <= height <= high_h):
            raise CodecOptionError(f"av1 frames are {low_w}x{low_h} to {high_w}x{high_h} "
                                   f"pixels, and the comp is {width}x{height}; resize the comp "
                                   "or its item's scale, or pick h264 or hevc")
    if (width % 2 or height % 2) and pix_fmt.startswith(("yuv420p", "yuva420p")):
        fix = ("make the comp size even" if fmt == "av1" else
               "make the comp size even or set codecOptions pix_fmt to yuv444p")
        raise CodecOptionError(f"{fmt} with {pix_fmt} needs an even width and height, but the "
                               f"comp is {width}x{height}; {fix}")


def configure(ctx: av.codec.context.CodecContext, setup: EncoderSetup,
              global_header: bool) -> None:
    """Apply a setup to an unopened encoder context (a container stream's or a fresh one)."""
    ctx.width = setup.width
    ctx.height = setup.height
    ctx.pix_fmt = setup.pix_fmt
    ctx.time_base = 1 / setup.frame_rate
    ctx.framerate = setup.frame_rate
    ctx.options = dict(setup.options)
    if setup.codec_tag:
        ctx.codec_tag = setup.codec_tag
    if setup.tags is not None:
        setup.tags.tag_context(ctx)
    if global_header:
        ctx.flags |= av.codec.context.Flags.global_header


def fresh_encoder(setup: EncoderSetup, global_header: bool) -> av.codec.context.CodecContext:
    """A new, open encoder with the setup: the start of a run of frames that depends on no
    frame before it."""
    ctx = av.CodecContext.create(setup.format.codec, "w")
    configure(ctx, setup, global_header)
    try:
        ctx.open()
    except av.error.FFmpegError as error:
        raise refused(setup, error) from None
    return ctx


def refused(setup: EncoderSetup, error: Exception) -> CodecOptionError:
    """The sentence for an encoder that would not open with a setup."""
    reason = getattr(error, "strerror", None) or str(error)
    return CodecOptionError(
        f"the {setup.format.name} encoder ({setup.format.codec}) refused the settings "
        f"{setup.options} with pixel format {setup.pix_fmt} ({reason}); check the item's "
        "codecOptions against renderQueue.formats and the encoder's documentation")


def stamp(packet: av.Packet, index: int, rate: Fraction, stream: av.video.stream.VideoStream) -> None:
    """Give a packet the timestamps of frame `index`, in the stream's own time base.

    Computed from the index each time (never by adding durations), so a container whose
    ticks do not divide a frame (GIF's hundredths of a second at 30 fps) rounds each frame's
    time once and never drifts; the duration is the gap to the next frame's time."""
    time_base = stream.time_base
    ticks = 1 / (rate * time_base)
    start = round(index * ticks)
    packet.time_base = time_base
    packet.pts = packet.dts = start
    packet.duration = round((index + 1) * ticks) - start
