"""Which encoder options (an item's codecOptions) may reach FFmpeg: an allow-list per output
format of option names and the shape of each value, and the one check every door runs:
renderQueue.add and set, a project being opened, the render plan, and the exporter itself.

Why an allow-list rather than a list of dangerous options: FFmpeg's encoders take options
that open files by name, and each is reached by more than one spelling. x264 truncates and
overwrites the file `dump-yuv` names, writes two-pass statistics where `stats` or
`passlogfile` say (or to `x264_2pass.log` in its working folder after `pass=1` or
`flags=+pass1`), and reads a `cqmfile`, failing only when it is missing (which tells whether
a file exists); it takes `dump_yuv`, `nodump-yuv` and a quoted `'dump-yuv'` as that same key,
and `x264opts` is a second way in beside `x264-params`. x265 writes `csv`, `analysis-save`
and `x265-stats` files. A refusal list misses the next spelling; this list names what renders
need and nothing more.

Every value has a shape (a number, a bit rate, one of some names, a word) made of letters,
digits and `. , + - _` only, so no value holds a path, a newline, a quote or an escape.
`x264-params`, `x265-params` and `svtav1-params` are split into `key=value` pairs at ':' here
as FFmpeg splits them, and every key must be on its encoder's list; since a value holds no
quote or backslash, FFmpeg can never read the pairs differently from this split.

The list applies to every session, confined or not: a farm node renders project files that
other people wrote, so an unconfined run is no sign that its options are trusted.

Sound has a shorter list still: an item's `audioCodec` picks one of its format's audio codecs
by name (protocol/model/output_formats.py) and `audioBitrate` sets that encoder's bit rate, in
its range; no other option reaches an audio encoder (`check_audio_options`).

Pure: no I/O. docs/outputs.md gives the list in words; renderQueue.formats lists it too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from protocol.model.output_formats import AUDIO_CODECS, FORMATS


class CodecOptionRefused(ValueError):
    """codecOptions that may not reach an encoder; the message names the option, whose they
    are, and what to do."""


@dataclass(frozen=True)
class Shape:
    """What a value must look like: a pattern the whole value matches, and how to say it."""
    pattern: str
    says: str

    def fits(self, text: str) -> bool:
        return re.fullmatch(self.pattern, text) is not None


@dataclass(frozen=True)
class Params:
    """An option whose value is `key=value` pairs separated by ':' (x264-params, x265-params),
    every key one of `keys`, every value a word, or of its own shape in `shapes`."""
    encoder: str
    keys: frozenset[str]
    shapes: dict = field(default_factory=dict, compare=False)

    @property
    def says(self) -> str:
        return (f"key=value pairs separated by ':' (aq-mode=3:ref=4), keys: "
                f"{', '.join(sorted(self.keys))}")


def one_of(*names: str) -> Shape:
    return Shape("|".join(map(re.escape, names)), f"one of {', '.join(names)}")


WHOLE = Shape(r"-?[0-9]+", "a whole number")
NUMBER = Shape(r"-?[0-9]+(\.[0-9]+)?", "a number")
BITRATE = Shape(r"[0-9]+(\.[0-9]+)?[kM]?",
                "a bit rate in bits per second, k or M for thousands or millions (2500k, 8M)")
SWITCH = one_of("0", "1")
PIXEL_FORMAT = Shape(r"[a-z0-9_]+", "a pixel format name (yuv420p, yuv444p, ...)")
# Also the shape of every x264-params and x265-params value: numbers, names, comma lists
# (deblock=-1,-1), never a '/', '=', ':', quote, backslash, space or control character.
WORD = Shape(r"[A-Za-z0-9_.,+-]+", "a word or a number (letters, digits and . , + - _)")

PRESETS = one_of("ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow",
                 "slower", "veryslow", "placebo")
RATE_CONTROL = {"b": BITRATE, "maxrate": BITRATE, "bufsize": BITRATE}
KEYFRAMES = {"g": WHOLE, "keyint_min": WHOLE}
# rendervisor's own for 8-bit Y'CbCr video (workers/exporter/dithered_yuv.py): "ordered", the
# default, rounds frames to 8 bits through a fixed pattern so gradients show no bands;
# "none" rounds to nearest, for the smallest files of flat graphics.
VIDEO_DITHER = one_of("none", "ordered")
# How a GIF frame is cut to its palette (workers/exporter/gif_palette.py): error diffusion
# (FFmpeg paletteuse's sierra2_4a, the first and default, or floyd_steinberg), an ordered 8x8
# pattern (bayer), or the nearest colour (none).
GIF_DITHERS = ("sierra2_4a", "floyd_steinberg", "bayer", "none")

# x264's and x265's own settings that take a number or a name. None of them reads or writes a
# file: not `stats`, `pass`, `dump-yuv`, `cqmfile`, `opencl-clbin` (x264), nor `csv`,
# `analysis-save`, `analysis-load`, `qpfile`, `zonefile`, `recon`, `scaling-list`,
# `lambda-file`, `dolby-vision-rpu`, `dhdr10-info` (x265).
X264_KEYS = frozenset("""
    threads lookahead-threads sliced-threads level bluray-compat overscan videoformat range
    colorprim transfer colormatrix chromaloc keyint min-keyint scenecut intra-refresh bframes
    b-adapt b-bias b-pyramid open-gop ref deblock slices slice-max-size slice-max-mbs cabac
    constrained-intra partitions direct weightb weightp me merange subme psy psy-rd chroma-me
    mixed-refs trellis fast-pskip dct-decimate deadzone-inter deadzone-intra 8x8dct nr bitrate
    qp crf crf-max rc-lookahead qpmin qpmax qpstep ratetol vbv-maxrate vbv-bufsize vbv-init
    ipratio pbratio chroma-qp-offset qcomp mbtree qblur cplxblur aq-mode aq-strength aud
    repeat-headers nal-hrd filler
""".split())
X265_KEYS = frozenset("""
    crf qp bitrate vbv-maxrate vbv-bufsize vbv-init crf-max crf-min qpmin qpmax qpstep ipratio
    pbratio cbqpoffs crqpoffs aq-mode aq-strength qcomp cutree rc-lookahead lookahead-slices
    keyint min-keyint scenecut bframes b-adapt b-pyramid bframe-bias ref open-gop deblock sao
    ctu min-cu-size max-tu-size tu-intra-depth tu-inter-depth rd rdoq-level psy-rd psy-rdoq me
    subme merange weightp weightb strong-intra-smoothing frame-threads pools wpp level-idc
    high-tier repeat-headers aud hrd info colorprim transfer colormatrix range chromaloc
    log-level lossless rect amp limit-refs early-skip fast-intra b-intra tskip rskip rc-grain
    max-cll hdr10 hdr10-opt master-display
""".split())
# SVT-AV1's own settings (`svtav1-params`) that take a number or a name. None of them reads or
# writes a file: not `fgs-table`, `stat-file`, `input-stat-file`, `output-stat-file`, `pass`
# or `roi-map-file`. The colour tags are not among them: rendervisor writes those itself.
SVTAV1_KEYS = frozenset("""
    preset crf qp rc tbr mbr keyint irefresh-type scd lookahead pred-struct tune film-grain
    film-grain-denoise adaptive-film-grain enable-tf tf-strength enable-overlays enable-qm
    qm-min qm-max chroma-qm-min chroma-qm-max aq-mode enable-variance-boost
    variance-boost-strength variance-octile sharpness fast-decode tile-rows tile-columns lp
    enable-cdef enable-restoration enable-dlf enable-mfmv enable-dg min-qp max-qp
    luminance-qp-bias qp-scale-compress-strength ac-bias recode-loop overshoot-pct
    undershoot-pct minsection-pct maxsection-pct scm
""".split())
# HDR10's mastering metadata, as x265 takes it: the mastering display's primaries and white
# point in 0.00002 units of CIE 1931 xy, its luminance range in 0.0001 nits (SMPTE ST 2086),
# and the content's light levels in nits (CTA-861.3).
X265_SHAPES = {
    "master-display": Shape(r"G\(\d{1,5},\d{1,5}\)B\(\d{1,5},\d{1,5}\)R\(\d{1,5},\d{1,5}\)"
                            r"WP\(\d{1,5},\d{1,5}\)L\(\d{1,10},\d{1,10}\)",
                            "G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min), SMPTE ST 2086 in x265's units "
                            "(P3-D65 at 1000 nits: G(13250,34500)B(7500,3000)R(34000,16000)"
                            "WP(15635,16450)L(10000000,1))"),
    "max-cll": Shape(r"\d{1,5},\d{1,5}", "MaxCLL,MaxFALL in nits (1000,400)"),
}

# Names (options or x264/x265 keys) that make an encoder read or write a file of its own,
# for a refusal that says so; they are refused because they are not on the lists above.
FILE_TAKING = frozenset("""
    stats passlogfile x265-stats pass dump-yuv cqmfile qpfile opencl-clbin csv
    analysis-save analysis-load analysis-reuse-file zonefile recon scaling-list lambda-file
    dolby-vision-rpu dhdr10-info tcfile-in tcfile-out fgs-table stat-file input-stat-file
    output-stat-file roi-map-file
""".split())

# Format -> option name -> its shape. `pix_fmt` (every format), prores' `profile`, jpeg's
# `qscale` and video's `dither` are rendervisor's own (workers/exporter/); the rest are the
# encoder's options.
OPTIONS: dict[str, dict[str, Shape | Params]] = {
    "png": {"pix_fmt": PIXEL_FORMAT, "compression_level": WHOLE,
            "pred": one_of("none", "sub", "up", "avg", "paeth", "mixed"),
            "dpi": WHOLE, "dpm": WHOLE},
    "tiff": {"pix_fmt": PIXEL_FORMAT,
             "compression_algo": one_of("packbits", "raw", "lzw", "deflate")},
    # format: half or float samples; compression: FFmpeg's EXR encoder's own names.
    "exr": {"format": one_of("half", "float"),
            "compression": one_of("none", "rle", "zip1", "zip16")},
    "jpeg": {"pix_fmt": PIXEL_FORMAT,
             "qscale": Shape(r"[1-9]|[12][0-9]|3[01]", "a whole number from 1 (best) to 31"),
             "huffman": one_of("default", "optimal")},
    "h264": {"preset": PRESETS,
             "tune": one_of("film", "animation", "grain", "stillimage", "psnr", "ssim",
                            "fastdecode", "zerolatency"),
             "profile": one_of("baseline", "main", "high", "high10", "high422", "high444"),
             "level": NUMBER, "crf": NUMBER, "crf_max": NUMBER, "qp": WHOLE, **RATE_CONTROL,
             "minrate": BITRATE, **KEYFRAMES, "refs": WHOLE, "threads": WHOLE,
             "aq-mode": WHOLE, "aq-strength": NUMBER, "rc-lookahead": WHOLE,
             "pix_fmt": PIXEL_FORMAT, "x264-params": Params("x264", X264_KEYS),
             "dither": VIDEO_DITHER},
    "hevc": {"preset": PRESETS,
             "tune": one_of("psnr", "ssim", "grain", "zerolatency", "fastdecode", "animation"),
             "profile": WORD, "crf": NUMBER, "qp": WHOLE, **RATE_CONTROL, **KEYFRAMES,
             "pix_fmt": PIXEL_FORMAT, "x265-params": Params("x265", X265_KEYS, X265_SHAPES),
             "dither": VIDEO_DITHER},
    "av1": {"preset": Shape(r"-?[0-9]|1[0-3]", "a whole number from 0 (slowest) to 13"),
            "crf": Shape(r"[0-9]|[1-5][0-9]|6[0-3]", "a whole number from 0 to 63"),
            "qp": WHOLE, **RATE_CONTROL, "g": WHOLE, "tile_rows": WHOLE,
            "tile_columns": WHOLE, "pix_fmt": PIXEL_FORMAT,
            "svtav1-params": Params("SVT-AV1", SVTAV1_KEYS), "dither": VIDEO_DITHER},
    "prores": {"profile": one_of(*FORMATS["prores"].profiles), "pix_fmt": PIXEL_FORMAT,
               "quant_mat": one_of("auto", "default", "proxy", "lt", "standard", "hq"),
               "bits_per_mb": WHOLE, "mbs_per_slice": WHOLE, "alpha_bits": one_of("0", "8", "16"),
               "vendor": Shape(r"[A-Za-z0-9]{4}", "four letters or digits"), "threads": WHOLE},
    "vp9": {"crf": WHOLE, **RATE_CONTROL, "minrate": BITRATE, **KEYFRAMES,
            "deadline": one_of("good", "best", "realtime"),
            "quality": one_of("good", "best", "realtime"), "cpu-used": WHOLE, "speed": WHOLE,
            "threads": WHOLE, "row-mt": SWITCH, "tile-columns": WHOLE, "tile-rows": WHOLE,
            "frame-parallel": SWITCH, "lag-in-frames": WHOLE, "auto-alt-ref": WHOLE,
            "arnr-maxframes": WHOLE, "arnr-strength": WHOLE, "aq-mode": WHOLE,
            "tune-content": one_of("default", "screen", "film"), "lossless": SWITCH,
            "qmin": WHOLE, "qmax": WHOLE, "undershoot-pct": WHOLE, "overshoot-pct": WHOLE,
            "static-thresh": WHOLE, "sharpness": WHOLE, "enable-tpl": SWITCH, "profile": WHOLE,
            "level": NUMBER, "pix_fmt": PIXEL_FORMAT, "dither": VIDEO_DITHER},
    # maxSide, fps and dither are rendervisor's own, not the encoder's: the render plan takes
    # out the first two, rendering at the scale that makes the GIF's longer side at most that
    # many pixels and writing fps frames a second (a full-size 30 fps 720p GIF is megabytes a
    # second); dither is how the exporter cuts each frame to its palette.
    "gif": {"pix_fmt": PIXEL_FORMAT, "maxSide": Shape(r"[1-9][0-9]*", "a whole number above 0"),
            "dither": one_of(*GIF_DITHERS),
            "fps": Shape(r"0*[1-9][0-9]*(\.[0-9]+)?|0*\.[0-9]*[1-9][0-9]*",
                         "a number above 0")},
    "wav": {},  # its encoder is chosen by audioCodec, and PCM takes no options
}


def check_codec_options(fmt: str, options: Any, owner: str) -> dict[str, str]:
    """`options` as the strings FFmpeg takes, if every one is on `fmt`'s list in its shape;
    otherwise CodecOptionRefused, one sentence naming the option and `owner` (whose options
    they are: "item3", "the new item of comp 'Main'")."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise CodecOptionRefused(f"codecOptions of {owner} must be an object of option names "
                                 f'to values, e.g. {{"crf": "20"}}, not {options!r}.')
    accepted = OPTIONS.get(fmt, {})
    checked = {}
    for name, value in options.items():
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise CodecOptionRefused(f"codecOptions values are strings or numbers (as FFmpeg "
                                     f"takes them); {name!r} of {owner} is not.")
        shape = accepted.get(name)
        if shape is None:
            raise CodecOptionRefused(_not_accepted(fmt, name, owner, sorted(accepted)))
        text = str(value)
        if isinstance(shape, Params):
            _check_params(shape, name, text, owner)
        elif not shape.fits(text):
            raise CodecOptionRefused(f"codecOptions {name!r} of {owner} must be {shape.says}, "
                                     f"not {text!r}.")
        checked[name] = text
    return checked


def check_audio_options(fmt: str, audio, codec, bitrate, owner: str) -> None:
    """Refuse, with CodecOptionRefused's sentence, an item's audio settings its format cannot
    take: `audio` (true, false or None for the default), `audioCodec` and `audioBitrate` (None
    for the codec's default)."""
    spec = FORMATS[fmt]
    if audio is not None and not isinstance(audio, bool):
        raise CodecOptionRefused(f"audio of {owner} is true or false, not {audio!r}.")
    if not spec.carries_sound:
        if audio or codec is not None or bitrate is not None:
            raise CodecOptionRefused(f"{fmt} files carry no sound, so {owner} takes no audio, "
                                     "audioCodec or audioBitrate; render the sound to a wav, "
                                     "or pick a video format that carries it (h264, hevc, av1, "
                                     "prores, vp9).")
        return
    if audio is False and spec.audio_only:
        raise CodecOptionRefused(f"a {fmt} file is sound alone, so {owner} cannot leave its "
                                 "audio out; pick a video format instead.")
    if codec is not None and codec not in spec.audio_codecs:
        raise CodecOptionRefused(f"audioCodec {codec!r} of {owner} is not one a {fmt} file "
                                 f"carries; use {' or '.join(spec.audio_codecs)}.")
    if bitrate is not None:
        chosen = AUDIO_CODECS[codec or spec.audio_codecs[0]]
        bits = audio_bitrate(bitrate)
        if bits is None:
            raise CodecOptionRefused(f"audioBitrate of {owner} must be {BITRATE.says} "
                                     f"(192k), not {bitrate!r}.")
        if chosen.bitrate_range is None:
            raise CodecOptionRefused(f"{chosen.name} is uncompressed and has no bit rate, so "
                                     f"leave audioBitrate of {owner} out.")
        low, high = chosen.bitrate_range
        if not low <= bits <= high:
            raise CodecOptionRefused(f"audioBitrate {bitrate!r} of {owner} is outside what "
                                     f"{chosen.name} takes, {low // 1000}k to {high // 1000}k.")


def audio_bitrate(value) -> int | None:
    """A bit rate as given (192000, "192k", "0.2M") in bits per second; None if not one."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value > 0 else None
    if not isinstance(value, str) or not BITRATE.fits(value):
        return None
    scale = {"k": 1000, "M": 1_000_000}.get(value[-1], 1)
    number = float(value.rstrip("kM"))
    return int(round(number * scale)) or None


def accepted_options(fmt: str) -> dict[str, str]:
    """The options `fmt` accepts, each with its shape in words (renderQueue.formats)."""
    return {name: shape.says for name, shape in OPTIONS.get(fmt, {}).items()}


def _check_params(params: Params, name: str, text: str, owner: str) -> None:
    for pair in text.split(":"):
        key, equals, value = pair.partition("=")
        if not equals:
            raise CodecOptionRefused(f"codecOptions {name!r} of {owner} holds {pair!r}, which "
                                     "is not key=value; write key=value pairs separated by ':' "
                                     "(aq-mode=3:ref=4).")
        if key not in params.keys:
            if _takes_a_file(key):
                raise CodecOptionRefused(
                    f"codecOptions {name!r} of {owner} has the key {key!r}, which makes "
                    f"{params.encoder} read or write a file of its own; rendervisor never lets "
                    "an encoder open files, so leave it out.")
            raise CodecOptionRefused(
                f"codecOptions {name!r} of {owner} has the key {key!r}, which rendervisor "
                f"does not pass to {params.encoder}; renderQueue.formats lists the keys it "
                "accepts.")
        shape = params.shapes.get(key, WORD)
        if not shape.fits(value):
            raise CodecOptionRefused(f"codecOptions {name!r} of {owner} gives {key!r} the "
                                     f"value {value!r}, which is not {shape.says}.")


def _not_accepted(fmt: str, name: str, owner: str, accepted: list[str]) -> str:
    if not accepted:
        return (f"codecOptions {name!r} of {owner}: the {fmt} format takes no codecOptions "
                "(audioCodec and audioBitrate choose its sound); leave them out.")
    if _takes_a_file(name):
        return (f"codecOptions {name!r} of {owner} makes the {fmt} encoder read or write a "
                "file of its own; rendervisor never lets an encoder open files, so leave it "
                "out.")
    return (f"codecOptions {name!r} of {owner} is not an option rendervisor gives the {fmt} "
            f"encoder; use one of {', '.join(accepted)} (renderQueue.formats says what each "
            "takes).")


def _takes_a_file(name: str) -> bool:
    """Whether a refused name is a file-taking one under a spelling x264 or x265 also reads:
    quoted, any case, '_' for '-', or with a `no`/`no-` prefix."""
    plain = name.strip().strip("'\"").lower().replace("_", "-")
    return plain in FILE_TAKING or (plain.startswith("no") and plain[2:].lstrip("-")
                                    in FILE_TAKING)
