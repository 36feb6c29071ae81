"""protocol/model/ffmpeg_inputs.py: the names FFmpeg would expand, the first bytes of files that
name other files, and the demuxer allow-list checked against the FFmpeg that PyAV carries."""

import av
import pytest

from protocol.model.ffmpeg_inputs import (OPEN_OPTIONS, SINGLE_FILE_DEMUXERS, SNIFF_BYTES,
                                          frame_field, is_playlist_name, names_other_files)


@pytest.mark.parametrize("path,field", [
    ("/r/img/f%d.ppm", "%d"),
    ("/r/img/f%04d.exr", "%04d"),
    ("/r/shot%3d/clip.mp4", "%3d"),  # a folder name is expanded too
    ("/r/100%%d.ppm", None),  # `%%` is a plain `%`, and `d` a plain letter after it
    ("/r/a%%%d.ppm", "%d"),
    ("/r/50%x.ppm", None),
    ("/r/plate_[####].png", None),  # rendervisor's own pattern, not FFmpeg's
])
def test_frame_field_is_the_field_ffmpeg_would_expand(path, field):
    assert frame_field(path) == field


@pytest.mark.parametrize("head", [
    b"#EXTM3U\n#EXT-X-VERSION:3\n",
    b"ffconcat version 1.0\nfile a.mp4\n",
    b'<?xml version="1.0"?><MPD>',
    b"<!-- packaged --><MPD profiles='urn:mpeg:dash:profile:isoff-live:2011'>",
    b"\xef\xbb\xbf \n\t<MPD>",
    b" " * SNIFF_BYTES,  # blanks as far as is looked: what follows could be anything
], ids=["hls", "ffconcat", "xml", "comment-before-mpd", "bom-and-blanks", "blank"])
def test_playlists_lists_and_markup_name_other_files(head):
    assert names_other_files(head)


@pytest.mark.parametrize("head", [
    b"", b"\x00\x00\x00\x20ftypisom", b"\x89PNG\r\n\x1a\n", b"P6\n8 8\n255\n", b"\x47\x40\x00",
    b"RIFF\x00\x00\x00\x00AVI ",
], ids=["empty", "mp4", "png", "ppm", "mpegts", "avi"])
def test_media_files_do_not(head):
    assert not names_other_files(head)


def test_playlist_extensions_are_told_by_the_name_alone():
    assert is_playlist_name("/r/live.M3U8") and is_playlist_name("/r/dash.mpd")
    assert not is_playlist_name("/r/x.m3u8/clip.mp4") and not is_playlist_name("/r/clip.mp4")


def test_every_demuxer_on_the_allow_list_is_one_this_ffmpeg_has():
    """A misspelt entry would silently turn a format away."""
    for name in SINGLE_FILE_DEMUXERS:
        assert av.format.ContainerFormat(name, "r").name, name


def test_no_demuxer_that_opens_other_files_is_on_the_allow_list():
    allowed = set(OPEN_OPTIONS["format_whitelist"].split(","))
    assert allowed == set(SINGLE_FILE_DEMUXERS)
    assert not allowed & {"hls", "dash", "concat", "imf", "mlv", "vobsub", "sdp", "rtsp", "rtp",
                          "sap", "svg_pipe", "image2pipe", "lavfi"}
