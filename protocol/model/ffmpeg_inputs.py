"""How FFmpeg is asked to open a footage file: as that one file, and nothing else.

Given one name, FFmpeg can read other files than the one named:

- its image2 demuxer reads `%d` (`%04d`) anywhere in a picture's path as a frame number and
  opens f0.ppm, f1.ppm, ... instead of `f%d.ppm` (and `*`, `?`, `[...]` with its glob mode);
- a playlist (HLS), a concat list (ffconcat), a manifest (DASH, IMF) or a Magic Lantern clip
  names other files, which its demuxer opens wherever they are;
- a name that starts with a protocol (`concat:`, `subfile,`, `pipe:`, `data:`, `http:`...) is
  no file at all.

Any of those files can be a symbolic link out of a confined session's roots, and none is the
file rendervisor checked against them, watches for changes, or keeps renders from writing over.
So footage is opened, when probed at import and when decoded in a worker, with OPEN_OPTIONS:
the file protocol alone, image2 told to take the name as it is, and only demuxers that read the
one file they are given (SINGLE_FILE_DEMUXERS: an allow-list, so a demuxer a newer FFmpeg
brings is refused until it is known to be one). This holds in every session: a footage item is
one file (or, as a `[####]` sequence, files rendervisor lists itself).

The rest helps the supervisor refuse such footage with a sentence before FFmpeg would refuse it
without one: `frame_field` finds the field image2 would have expanded, `names_other_files` tells
a playlist, list or manifest by its first bytes. Pure: strings and bytes only.
"""

from __future__ import annotations

import re

# Demuxers that read only the file they are given (FFmpeg's names; one entry matches a demuxer
# with several names, as `mov` does `mov,mp4,m4a,3gp,3g2,mj2`). Left out on purpose: hls,
# dash, concat, imf, mlv (opens its .M00... siblings), vobsub (opens the .sub beside the .idx),
# sdp and rtsp (network streams), and svg_pipe (an SVG may reference other files).
SINGLE_FILE_DEMUXERS = (
    # video containers
    "mov", "matroska", "avi", "mpegts", "mpeg", "mxf", "gxf", "lxf", "flv", "asf", "ogg",
    "nut", "rm", "dv", "r3d", "cine", "ivf", "yuv4mpegpipe",
    # bare video streams
    "h264", "hevc", "vvc", "m4v", "mpegvideo", "mjpeg", "dnxhd", "vc1", "dirac", "obu",
    # animations
    "gif", "apng", "jpegxl_anim",
    # sound alone (WAV, FLAC, MP3, ADTS AAC; M4A is mov's, Ogg and Opus ogg's, MKA matroska's)
    "wav", "flac", "mp3", "aac",
    # single pictures: image2 by extension (with pattern_type none), the rest by content
    "image2", "bmp_pipe", "dds_pipe", "dpx_pipe", "exr_pipe", "gif_pipe", "hdr_pipe",
    "j2k_pipe", "jpeg_pipe", "jpegls_pipe", "jpegxl_pipe", "pam_pipe", "pbm_pipe", "pcx_pipe",
    "pfm_pipe", "pgm_pipe", "pgmyuv_pipe", "phm_pipe", "png_pipe", "ppm_pipe", "psd_pipe",
    "qoi_pipe", "sgi_pipe", "sunrast_pipe", "tiff_pipe", "webp_pipe", "xbm_pipe", "xpm_pipe",
    "xwd_pipe",
)

OPEN_OPTIONS = {
    "protocol_whitelist": "file",
    "format_whitelist": ",".join(SINGLE_FILE_DEMUXERS),
    "pattern_type": "none",  # image2: the name is the file, `%d` and `*` are characters
    "enable_drefs": "0",  # mov: never follow a movie's references to other files (the default)
}

# FFmpeg's frame-number field: `%` and an optional padding, then `d`; `%%` is a `%`.
_FIELD_OR_PERCENT = re.compile(r"%%|%\d*d")

# FFmpeg picks HLS and DASH demuxers by extension as well as by content.
PLAYLIST_EXTENSIONS = {".m3u8", ".m3u", ".hls", ".mpd", ".ffconcat"}
# As much of a file as is looked at: the size of FFmpeg's first probe. No picture or video
# starts with blank text, so a file still blank this far in is refused like markup.
SNIFF_BYTES = 2048
_BOM = b"\xef\xbb\xbf"
# Why a playlist is never footage: the clause every refusal of one gives.
PLAYLIST_REASON = ("it is a playlist, manifest or concat list (HLS, DASH or ffconcat), which "
                   "makes FFmpeg open the files it names, and a footage item is the one file it "
                   "names")


def frame_field(path: str) -> str | None:
    """The first frame-number field (`%d`, `%04d`) FFmpeg's image2 would expand in `path`."""
    for match in _FIELD_OR_PERCENT.finditer(path):
        if match.group() != "%%":
            return match.group()
    return None


def is_playlist_name(path: str) -> bool:
    """Whether FFmpeg would take `path` for a playlist or manifest by its extension alone."""
    dot = path.rfind(".")
    return dot > path.rfind("/") and path[dot:].lower() in PLAYLIST_EXTENSIONS


def names_other_files(head: bytes) -> bool:
    """Whether a file starting with `head` is a playlist, concat list or manifest: after a byte
    order mark and blanks, `#EXTM3U`, `ffconcat`, or markup at all (`<MPD`, `<?xml`, a comment
    before either: DASH and IMF are XML, and FFmpeg finds `<MPD` anywhere in what it probes)."""
    if not head:
        return False  # an empty file: not media either, and the probe says so
    text = head.removeprefix(_BOM).lstrip()
    return not text or text.startswith((b"#EXTM3U", b"ffconcat", b"<"))
