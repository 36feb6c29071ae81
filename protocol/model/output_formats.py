"""The output formats a render queue item can write, and the sound each can carry: the tables
behind `renderQueue.formats`.

Both sides read it: the supervisor to name outputs and answer `renderQueue.formats`, the
render workers' exporter to pick an encoder. It is data only, so the two can never disagree
about an extension or a default; how each format is actually encoded lives in
workers/exporter/. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class OutputFormat:
    name: str
    extension: str  # with its dot, as it appears at the end of an output name
    is_sequence: bool  # one file per frame (a pattern with [####]) rather than one video file
    codec: str  # the FFmpeg encoder, as PyAV names it
    alpha: bool  # whether some profile of the format keeps the alpha channel
    description: str
    # Profile name -> whether that profile keeps alpha; empty when the format has no profiles.
    profiles: dict[str, bool] = field(default_factory=dict)
    default_profile: str | None = None
    # Passed to the encoder unless the item's codecOptions say otherwise.
    default_codec_options: dict[str, str] = field(default_factory=dict)
    # The sound a file of the format can carry (AUDIO_CODECS' names), the default first; none
    # for image sequences and GIF.
    audio_codecs: tuple[str, ...] = ()
    # No pictures at all: the comp's sound alone (wav).
    audio_only: bool = False

    @property
    def carries_sound(self) -> bool:
        return bool(self.audio_codecs)


@dataclass(frozen=True)
class AudioCodec:
    name: str  # as an item's audioCodec says it
    encoder: str  # the FFmpeg encoder, as PyAV names it
    sample_format: str  # what the encoder is fed (PyAV converts the mix to it)
    # Bits per second: the default, and the range the encoder does well in; None for PCM,
    # which has no bit rate to choose.
    default_bitrate: int | None = None
    bitrate_range: tuple[int, int] | None = None
    # The sample rates the encoder takes; empty for any of the comp's (SAMPLE_RATES).
    rates: tuple[int, ...] = ()
    description: str = ""
    # dB a lossy encoder's decoded peaks may rise over the peaks it was fed (its quantisation
    # noise adds to them): the limiter aims this far under its ceiling for it.
    headroom_db: float = 0.0


AUDIO_CODECS: dict[str, AudioCodec] = {
    c.name: c
    for c in (
        AudioCodec("aac", "aac", "fltp", 192_000, (32_000, 512_000),
                   description="AAC-LC, FFmpeg's own encoder", headroom_db=0.5),
        AudioCodec("opus", "libopus", "flt", 128_000, (6_000, 510_000),
                   rates=(48000, 24000, 16000, 12000, 8000), description="Opus (libopus)",
                   headroom_db=0.5),
        AudioCodec("pcm_s16le", "pcm_s16le", "s16", description="16-bit PCM, uncompressed"),
        AudioCodec("pcm_s24le", "pcm_s24le", "s32", description="24-bit PCM, uncompressed"),
        AudioCodec("pcm_f32le", "pcm_f32le", "flt",
                   description="32-bit float PCM, uncompressed (keeps a mix above 0 dBFS)"),
    )
}


FORMATS: dict[str, OutputFormat] = {
    f.name: f
    for f in (
        OutputFormat("png", ".png", True, "png", True,
                     "PNG image sequence, lossless, with alpha: 8 bits per channel, 16 from a "
                     "16-bit or float comp (codecOptions pix_fmt rgba or rgba64be says which)"),
        OutputFormat("jpeg", ".jpg", True, "mjpeg", False,
                     "JPEG image sequence; alpha is composited over black",
                     default_codec_options={"qscale": "2"}),
        OutputFormat("tiff", ".tif", True, "tiff", True,
                     "TIFF image sequence with alpha: 8 bits per channel, 16 from a 16-bit or "
                     "float comp (codecOptions pix_fmt rgba or rgba64le says which)",
                     default_codec_options={"compression_algo": "lzw"}),
        OutputFormat("exr", ".exr", True, "exr", True,
                     "OpenEXR image sequence, linear light with alpha: half floats, or "
                     "codecOptions format float for 32-bit",
                     default_codec_options={"format": "half", "compression": "zip16"}),
        OutputFormat("h264", ".mp4", False, "libx264", False,
                     "H.264 in MP4, yuv420p unless codecOptions set pix_fmt",
                     default_codec_options={"preset": "medium", "crf": "18"},
                     audio_codecs=("aac",)),
        OutputFormat("hevc", ".mp4", False, "libx265", False,
                     "H.265/HEVC in MP4 (tagged hvc1 so Apple players open it)",
                     default_codec_options={"preset": "medium", "crf": "20"},
                     audio_codecs=("aac",)),
        OutputFormat("av1", ".mp4", False, "libsvtav1", False,
                     "AV1 in MP4 (SVT-AV1), yuv420p unless codecOptions set pix_fmt",
                     default_codec_options={"preset": "8", "crf": "32"},
                     audio_codecs=("aac",)),
        OutputFormat("prores", ".mov", False, "prores_ks", True,
                     "Apple ProRes in QuickTime; profiles 4444 and 4444xq keep alpha",
                     profiles={"proxy": False, "lt": False, "standard": False, "hq": False,
                               "4444": True, "4444xq": True},
                     default_profile="hq", audio_codecs=("aac", "pcm_s16le", "pcm_s24le")),
        OutputFormat("vp9", ".webm", False, "libvpx-vp9", True,
                     "VP9 in WebM with alpha (yuva420p)",
                     default_codec_options={"crf": "30", "b": "0", "deadline": "good",
                                            "cpu-used": "4"},
                     audio_codecs=("opus",)),
        OutputFormat("gif", ".gif", False, "gif", False,
                     "Animated GIF, 256 colours per frame; alpha is composited over black; "
                     "frame times are whole hundredths of a second, as GIF stores them"),
        OutputFormat("wav", ".wav", False, "pcm_s16le", False,
                     "WAV audio alone: the comp's sound mixed, 16-bit PCM unless audioCodec "
                     "says otherwise; no pictures",
                     audio_codecs=("pcm_s16le", "pcm_s24le", "pcm_f32le"), audio_only=True),
    )
}

DEFAULT_FORMAT = "h264"


class UnknownFormatError(ValueError):
    """A format name that is not in FORMATS; the message lists the ones that are."""


def output_format(name: str) -> OutputFormat:
    """The format called `name`, or an error sentence listing the accepted names."""
    try:
        return FORMATS[name]
    except (KeyError, TypeError):
        raise UnknownFormatError(
            f"unknown output format {name!r}; use one of {', '.join(FORMATS)}") from None


def format_for_extension(path: str) -> str | None:
    """The format an output name's extension implies (`.mov` -> prores), or None.

    `.mp4` implies h264, the common choice; hevc and av1 have to be asked for by name."""
    lowered = path.lower()
    if lowered.endswith(".jpeg"):
        return "jpeg"
    if lowered.endswith(".tiff"):
        return "tiff"
    for f in FORMATS.values():
        if lowered.endswith(f.extension) and f.name not in ("hevc", "av1"):
            return f.name
    return None


def formats_listing() -> list[dict]:
    """`renderQueue.formats`' result: every format with its extension, codec, alpha support,
    profiles and default codec options, in plain JSON types."""
    return [
        {
            "format": f.name,
            "extension": f.extension,
            "sequence": f.is_sequence,
            "codec": f.codec,
            "alpha": f.alpha,
            "description": f.description,
            "profiles": [{"name": p, "alpha": a} for p, a in f.profiles.items()],
            "defaultProfile": f.default_profile,
            "defaultCodecOptions": dict(f.default_codec_options),
            "audioCodecs": [{"codec": name, "description": AUDIO_CODECS[name].description,
                             "defaultBitrate": AUDIO_CODECS[name].default_bitrate}
                            for name in f.audio_codecs],
            "audioOnly": f.audio_only,
        }
        for f in FORMATS.values()
    ]
