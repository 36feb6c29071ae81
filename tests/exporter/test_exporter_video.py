"""Video outputs: encode in segments, join by stream copy, decode with PyAV and compare."""

from __future__ import annotations

import os
from fractions import Fraction

import av
import numpy as np
import pytest

from protocol.model.output_formats import output_format
from tests.helpers.synthetic_frames import HEIGHT, WIDTH, moving_frame, moving_frames
from workers.exporter import (JoinError, OpenedFiles, encode_segment, join_segments,
                              keyframe_interval_for, segment_path, segment_ranges)
from workers.exporter.keyframe_grid import (KEYFRAME_INTERVAL, KEYFRAME_UNITS,
                                           MAX_KEYFRAME_INTERVAL, MIN_KEYFRAME_INTERVAL)
from workers.exporter.pixels import is_opaque, over_black
from workers.exporter.video_encoders import CodecOptionError, encoder_setup

FRAMES = 30
INTERVAL = 10  # key frame interval for these tests: three runs in 30 frames

# Mean absolute error per channel allowed for each lossy format at this tiny size.
TOLERANCE = {"h264": 6, "hevc": 6, "av1": 6, "prores": 3, "vp9": 8, "gif": 3}


def render(tmp_path, fmt, frames, parts, codec_options=None, name="out", interval=INTERVAL,
           opened=None):
    """Encode `frames` split into `parts` segments, join them; returns the final path."""
    final = str(tmp_path / (name + output_format(fmt).extension))
    opened = opened if opened is not None else OpenedFiles()
    paths = []
    for run in segment_ranges(len(frames), parts, interval):
        path = segment_path(final, run.start)
        encode_segment(frames[run.start:run.stop], run.start, 30, fmt, codec_options, path,
                       opened=opened, keyframe_interval=interval)
        paths.append(path)
    assert join_segments(paths, fmt, final, 30, opened=opened) == len(frames)
    return final


def decode(path, fmt):
    """(stream facts, decoded RGBA arrays). VP9 alpha needs libvpx's decoder; FFmpeg's own
    drops the alpha plane."""
    with av.open(path) as container:
        stream = container.streams.video[0]
        facts = {"rate": stream.average_rate, "width": stream.codec_context.width,
                 "height": stream.codec_context.height, "tag": stream.codec_context.codec_tag,
                 "time_base": stream.time_base}
        if fmt == "vp9":
            decoder = av.CodecContext.create("libvpx-vp9", "r")
            frames = [f for p in container.demux(stream) for f in decoder.decode(p)]
        else:
            frames = list(container.decode(stream))
        facts["pts"] = [f.pts for f in frames]
        facts["pix_fmt"] = frames[0].format.name
        return facts, [f.to_ndarray(format="rgba") for f in frames]


def mean_error(a, b):
    return np.abs(a.astype(int) - b.astype(int)).mean()


@pytest.mark.parametrize("fmt,options,alpha", [
    ("h264", {"preset": "veryfast", "crf": "16"}, False),
    ("hevc", {"preset": "fast", "crf": "16"}, False),
    ("av1", {"preset": "10", "crf": "20"}, False),
    ("prores", {"profile": "hq"}, False),
    ("prores", {"profile": "4444"}, True),
    ("vp9", {"crf": "20"}, True),
    ("gif", {}, False),
])
def test_decoded_video_matches_the_frames(tmp_path, fmt, options, alpha):
    frames = moving_frames(FRAMES, alpha=alpha)
    final = render(tmp_path, fmt, frames, parts=2, codec_options=options)
    facts, decoded = decode(final, fmt)
    assert len(decoded) == FRAMES
    assert (facts["width"], facts["height"]) == (WIDTH, HEIGHT)
    if fmt == "gif":
        # GIF keeps hundredths of a second: frame n shows at round(n * 100 / 30) / 100 s.
        assert facts["pts"] == [round(n * 100 / 30) for n in range(FRAMES)]
    else:
        assert facts["rate"] == 30
        assert [round(p * facts["time_base"] * 30) for p in facts["pts"]] == list(range(FRAMES))
    for n in (0, 9, 10, 17, 29):  # either side of a key frame, and a segment boundary
        expected = frames[n] if alpha else over_black(frames[n])
        got = decoded[n] if alpha else decoded[n][..., :3]
        error = mean_error(got, expected)
        assert error < TOLERANCE[fmt], (n, error)
        # A neighbouring frame is further away: frames are in order, none repeated.
        neighbour = frames[n + 1 if n < FRAMES - 1 else n - 1]
        neighbour = neighbour if alpha else over_black(neighbour)
        assert mean_error(got, neighbour) > error
    if alpha:
        # Alpha survives, not flattened to opaque: the right edge is transparent.
        assert decoded[5][:, -1, 3].max() < 16 and decoded[5][:, 0, 3].min() > 239


def colr_box(path) -> tuple[int, int, int, int] | None:
    """An MP4's colour tags as its `colr` box of type `nclx` holds them (ISO/IEC 14496-12):
    (primaries, transfer, matrix, range: 1 limited, 2 full), or None without one."""
    with open(path, "rb") as file:
        data = file.read()
    at = data.find(b"colrnclx")
    if at < 0:
        return None
    primaries, transfer, matrix = (int.from_bytes(data[at + 8 + 2 * i:at + 10 + 2 * i], "big")
                                   for i in range(3))
    return primaries, transfer, matrix, 2 if data[at + 14] & 0x80 else 1


@pytest.mark.parametrize("fmt", ["h264", "hevc", "av1", "prores", "vp9"])
def test_video_is_bt709_and_tagged_so_players_pick_the_same_matrix(tmp_path, fmt):
    red = np.zeros((HEIGHT, WIDTH, 4), np.uint8)
    red[...] = (230, 20, 40, 255)
    final = render(tmp_path, fmt, [red] * 3, 1)
    with av.open(final) as container:
        context = container.streams.video[0].codec_context
        frame = next(container.decode(video=0))
        # BT.709 primaries, transfer and matrix, limited range: in the container's header and
        # in the bitstream, which the decoded frame reads (ProRes left its frame headers'
        # primaries and transfer unspecified).
        tags = (1, 1, 1, 1)
        assert (context.color_primaries, context.color_trc, context.colorspace,
                context.color_range) == tags
        assert (frame.color_primaries, frame.color_trc, frame.colorspace,
                frame.color_range) == tags
    if final.endswith(".mp4"):
        # And in MP4's own box, which players read before the bitstream.
        assert colr_box(final) == tags
    # Decoded with the tagged matrix, a saturated colour comes back (an untagged BT.709
    # frame read as BT.601 would be off by about 20 in green): on average, and in every pixel
    # but for the ordered dither of 8-bit Y'CbCr (up to a level of Y', Cb and Cr each).
    _, decoded = decode(final, fmt)
    error = decoded[1][..., :3].astype(int) - red[..., :3]
    assert np.abs(error.mean(axis=(0, 1))).max() <= 3
    assert np.abs(error).max() <= 6


def test_hevc_is_tagged_hvc1_so_apple_players_open_it(tmp_path):
    facts, _ = decode(render(tmp_path, "hevc", moving_frames(5), 1), "hevc")
    assert facts["tag"] == "hvc1"


def test_prores_profiles_pick_their_pixel_formats(tmp_path):
    frames = moving_frames(3, alpha=True)
    # FFmpeg's ProRes decoder hands 4444 back at 12 bits; what matters is the alpha plane.
    for profile, tag, pix_fmt in (("proxy", "apco", "yuv422p10le"), ("lt", "apcs", "yuv422p10le"),
                                  ("standard", "apcn", "yuv422p10le"),
                                  ("4444", "ap4h", "yuva444p12le"),
                                  ("4444xq", "ap4x", "yuva444p12le")):
        facts, _ = decode(render(tmp_path, "prores", frames, 1, {"profile": profile},
                                 name=profile), "prores")
        assert (facts["tag"], facts["pix_fmt"]) == (tag, pix_fmt), profile


def test_codec_options_reach_the_encoder(tmp_path):
    frames = moving_frames(FRAMES)
    small = os.path.getsize(render(tmp_path, "h264", frames, 1, {"crf": "45"}, name="small"))
    large = os.path.getsize(render(tmp_path, "h264", frames, 1, {"crf": "5"}, name="large"))
    assert small * 2 < large
    facts, _ = decode(render(tmp_path, "h264", frames[:3], 1, {"pix_fmt": "yuv444p"},
                             name="444"), "h264")
    assert facts["pix_fmt"] == "yuv444p"


@pytest.mark.parametrize("fmt", ["h264", "hevc", "av1", "prores", "vp9", "gif"])
def test_any_split_on_key_frames_decodes_to_the_same_frames(tmp_path, fmt):
    frames = moving_frames(FRAMES, alpha=fmt in ("vp9",))
    results = []
    for parts in (1, 2, 3):
        (tmp_path / str(parts)).mkdir()
        final = render(tmp_path / str(parts), fmt, frames, parts)
        results.append(decode(final, fmt)[1])
    for other in results[1:]:
        assert len(other) == len(results[0]) == FRAMES
        assert all(np.array_equal(a, b) for a, b in zip(results[0], other))


@pytest.mark.parametrize("fmt", ["h264", "av1"])
def test_split_is_byte_identical(tmp_path, fmt):
    frames = moving_frames(FRAMES)
    finals = []
    for parts in (1, 2, 3):  # first segments of 30, 20 and 10 frames
        (tmp_path / str(parts)).mkdir()
        finals.append(render(tmp_path / str(parts), fmt, frames, parts))
    one, *others = finals
    for other in others:
        with av.open(one) as a, av.open(other) as b:
            assert [bytes(p) for p in a.demux(video=0)] == [bytes(p) for p in b.demux(video=0)]
        # The whole file too: its header does not depend on the first segment's bit rate.
        with open(one, "rb") as a, open(other, "rb") as b:
            assert a.read() == b.read()


def test_keyframe_interval_depends_on_the_frame_count_only():
    # 30 frames once a video has 8 intervals of 30; below, about an eighth of it, at least 8;
    # a long video a sixteenth of it, at most 240.
    assert keyframe_interval_for(240) == keyframe_interval_for(495) == KEYFRAME_INTERVAL == 30
    assert keyframe_interval_for(511) == 31 and keyframe_interval_for(1200) == 75 and keyframe_interval_for(3840) == 240
    assert keyframe_interval_for(100_000) == MAX_KEYFRAME_INTERVAL == 240
    assert keyframe_interval_for(239) == 30 and keyframe_interval_for(232) == 29
    assert keyframe_interval_for(90) == 12 and keyframe_interval_for(100) == 13
    assert keyframe_interval_for(65) == 9
    assert keyframe_interval_for(64) == keyframe_interval_for(1) == MIN_KEYFRAME_INTERVAL == 8
    for count in range(1, 400):
        interval = keyframe_interval_for(count)
        assert MIN_KEYFRAME_INTERVAL <= interval <= KEYFRAME_INTERVAL
        assert -(-count // interval) <= max(KEYFRAME_UNITS, -(-count // KEYFRAME_INTERVAL))
    # The default split of segment_ranges is on that grid.
    assert segment_ranges(90, 2) == [range(0, 48), range(48, 90)]


def test_segment_ranges_split_on_key_frames_and_balance():
    assert segment_ranges(90, 2, 15) == [range(0, 45), range(45, 90)]
    assert segment_ranges(90, 3, 30) == [range(0, 30), range(30, 60), range(60, 90)]
    assert segment_ranges(25, 4, 10) == [range(0, 10), range(10, 20), range(20, 25)]
    assert segment_ranges(0, 3, 10) == []
    for runs in (segment_ranges(100, n, 7) for n in range(1, 12)):
        assert runs[0].start == 0 and runs[-1].stop == 100
        assert all(r.start % 7 == 0 for r in runs)
        assert all(a.stop == b.start for a, b in zip(runs, runs[1:]))


def test_frame_rate_is_exact_for_ntsc_rates(tmp_path):
    final = str(tmp_path / "ntsc.mp4")
    seg = segment_path(final, 0)
    encode_segment(moving_frames(12), 0, Fraction(30000, 1001), "h264", {}, seg)
    join_segments([seg], "h264", final, Fraction(30000, 1001))
    with av.open(final) as container:
        assert container.streams.video[0].average_rate == Fraction(30000, 1001)
        assert container.streams.video[0].frames == 12


def test_join_leaves_only_the_final_file(tmp_path):
    opened = OpenedFiles()
    final = render(tmp_path, "h264", moving_frames(FRAMES), 3, opened=opened)
    assert os.listdir(tmp_path) == ["out.mp4"]  # no segment, no temporary
    assert opened.paths == [final]


def test_segments_out_of_order_are_refused_and_nothing_appears(tmp_path):
    frames = moving_frames(20)
    final = str(tmp_path / "out.mp4")
    first, second = segment_path(final, 0), segment_path(final, 10)
    encode_segment(frames[:10], 0, 30, "h264", {}, first)
    encode_segment(frames[10:], 10, 30, "h264", {}, second)
    opened = OpenedFiles([first, second])
    with pytest.raises(JoinError, match="starts at frame 10"):
        join_segments([second, first], "h264", final, 30, opened=opened)
    # The join's own temporary is gone already; the segments wait for the record's cleanup.
    assert sorted(os.listdir(tmp_path)) == sorted(os.path.basename(p) for p in (first, second))
    assert sorted(opened.paths) == sorted([first, second])
    opened.remove_all()
    assert os.listdir(tmp_path) == []


def test_segments_with_different_settings_are_refused(tmp_path):
    frames = moving_frames(20)
    final = str(tmp_path / "out.mp4")
    first, second = segment_path(final, 0), segment_path(final, 10)
    encode_segment(frames[:10], 0, 30, "h264", {}, first)
    encode_segment(frames[10:], 10, 30, "h264", {"pix_fmt": "yuv444p"}, second)
    with pytest.raises(JoinError, match="different settings"):
        join_segments([first, second], "h264", final, 30)
    assert not os.path.exists(final)


@pytest.mark.parametrize("fmt", ["h264", "prores"])
def test_a_video_is_the_same_bytes_every_time_whatever_its_size(tmp_path, fmt):
    # 54x38: a size where FFmpeg's threaded scaler, converting to 10 or 16 bits, now and then
    # wrote a row of garbage (one frame in four or five).
    pixels = np.random.default_rng(7).integers(0, 256, (12, 38, 54, 4), dtype=np.uint8)
    pixels[..., 3] = 255
    frames = list(pixels)
    first = render(tmp_path, fmt, frames, 1, name="first")
    again = render(tmp_path, fmt, frames, 1, name="again")
    with open(first, "rb") as one, open(again, "rb") as other:
        assert one.read() == other.read()


def test_a_frame_is_opaque_only_when_every_alpha_is_255():
    frame = np.full((37, 53, 4), 255, np.uint8)
    assert is_opaque(frame) and is_opaque(frame[:, ::2])
    for channel in range(4):
        touched = frame.copy()
        touched[36, 52, channel] = 254  # the last pixel: one colour channel, or its alpha
        assert is_opaque(touched) == (channel != 3)
        assert is_opaque(touched[:, ::-1]) == (channel != 3)


def planes(frame: av.VideoFrame) -> list[np.ndarray]:
    """A Y'CbCr frame's planes as arrays of their visible samples."""
    return [np.frombuffer(plane, np.uint8).reshape(plane.height, -1)[:, :plane.width]
            for plane in frame.planes]


@pytest.mark.parametrize("width,height", [(4, 4), (8, 6), (18, 10)])
def test_av1_encodes_frames_down_to_its_smallest(tmp_path, width, height):
    frames = [moving_frame(n, width, height) for n in range(12)]
    final = render(tmp_path, "av1", frames, 2, interval=4)
    with av.open(final) as container:
        decoded = list(container.decode(video=0))
    assert len(decoded) == 12
    # Compared as the encoder took them, in Y'CbCr: FFmpeg's conversion back to RGB garbles
    # the last rows or columns of some sizes that are not a multiple of 8 (now and then, and
    # whatever the codec), which says nothing of the file.
    setup = encoder_setup("av1", width, height, 30)
    for got, want in zip(decoded, frames):
        assert (got.width, got.height, got.format.name) == (width, height, "yuv420p")
        for plane, source in zip(planes(got), planes(setup.frame(want))):
            assert mean_error(plane, source) < 3


@pytest.mark.parametrize("width,height,says", [
    (2, 2, "av1 frames are 4x4 to 16384x8704 pixels, and the comp is 2x2"),
    (64, 8706, "av1 frames are 4x4 to 16384x8704 pixels, and the comp is 64x8706"),
    (63, 48, "av1 with yuv420p needs an even width and height, but the comp is 63x48; make "
             "the comp size even"),
])
def test_av1_refuses_a_frame_size_it_cannot_take_with_a_sentence(tmp_path, width, height, says):
    with pytest.raises(CodecOptionError) as refused:
        encoder_setup("av1", width, height, 30)
    assert str(refused.value).startswith(says)
    assert "yuv444p" not in str(refused.value)  # SVT-AV1 takes 4:2:0 only
