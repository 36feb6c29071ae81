"""Footage layers: stills reproduce their pixels, sequences and videos show the frame for the
layer's time (checked against clips encoded here with PyAV), and unreadable footage is reported,
never raised."""

import os

import av
import numpy as np
import pytest
import skia

from tests.helpers.compositor_documents import comp, document, footage_item, layer
from tests.helpers.confinement_world import write_clip
from workers.compositor import FootageCache, render_frame

FPS = 30
CLIP_FRAMES = 40
CLIP_SIZE = (64, 48)


def frame_color(index: int) -> np.ndarray:
    """Each clip frame's index, written into it as a color."""
    return np.array([index * 6 % 256, 255 - index * 6 % 256, (index * 37) % 256], np.uint8)


def write_image(path, pixels: np.ndarray, fmt=skia.kPNG) -> str:
    kind = skia.kRGBA_8888_ColorType
    image = skia.Image.fromarray(np.ascontiguousarray(pixels), colorType=kind)
    image.save(str(path), fmt, 95)
    return str(path)


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> str:
    """A short H.264 clip, lossless (qp 0, 4:4:4), a key frame every 10 frames so seeking and
    decoding forward are both exercised."""
    path = str(tmp_path_factory.mktemp("clip") / "frames.mp4")
    with av.open(path, "w") as container:
        stream = container.add_stream("libx264", rate=FPS)
        stream.width, stream.height = CLIP_SIZE
        stream.pix_fmt = "yuv444p"
        stream.options = {"qp": "0", "g": "10", "keyint_min": "10"}
        for index in range(CLIP_FRAMES):
            pixels = np.empty((CLIP_SIZE[1], CLIP_SIZE[0], 3), np.uint8)
            pixels[:] = frame_color(index)
            for packet in stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return path


def footage_doc(item: dict, layer_type="image", start_time=0.0, comp_size=(160, 90)) -> dict:
    shown = layer("l", layer_type, {"footage": item["id"]}, position=(10, 10),
                  startTime=start_time)
    return document(comp("c", [shown], width=comp_size[0], height=comp_size[1]), footage=[item])


def test_image_layer_at_100_percent_reproduces_the_source_pixels(tmp_path):
    rng = np.random.default_rng(4)
    source = rng.integers(0, 256, (30, 40, 4), dtype=np.uint8)
    source[..., 3] = 255
    path = write_image(tmp_path / "noise.png", source)
    frame = render_frame(footage_doc(footage_item("f1", path, "image", 40, 30)), "c", 0.0)
    assert frame.missing == []
    assert (frame.pixels[10:40, 10:50] == source).all()
    black = [0, 0, 0, 255]
    assert (frame.pixels[:10] == black).all() and (frame.pixels[40:] == black).all()


def test_image_alpha_comes_through_as_straight_rgba(tmp_path):
    rng = np.random.default_rng(5)
    source = rng.integers(0, 256, (30, 40, 4), dtype=np.uint8)
    source[..., 3] = rng.integers(64, 256, (30, 40), dtype=np.uint8)
    path = write_image(tmp_path / "alpha.png", source)
    doc = footage_doc(footage_item("f1", path, "image", 40, 30))
    pixels = render_frame(doc, "c", 0.0, transparent=True).pixels[10:40, 10:50].astype(int)
    assert (pixels[..., 3] == source[..., 3]).all()
    # Skia stores premultiplied pixels: a color survives to within the rounding at its alpha.
    tolerance = 255.0 / source[..., 3:4] + 1
    assert (np.abs(pixels[..., :3] - source[..., :3]) <= tolerance).all()


@pytest.mark.parametrize("fmt, suffix", [(skia.kJPEG, "jpg"), (skia.kWEBP, "webp")])
def test_jpeg_and_webp_stills_decode(tmp_path, fmt, suffix):
    source = np.zeros((32, 48, 4), np.uint8)
    source[:, :24] = [200, 40, 40, 255]
    source[:, 24:] = [40, 40, 200, 255]
    path = write_image(tmp_path / f"still.{suffix}", source, fmt)
    frame = render_frame(footage_doc(footage_item("f1", path, "image", 48, 32)), "c", 0.0)
    assert frame.missing == []
    assert np.abs(frame.pixels[26, 20, :3].astype(int) - [200, 40, 40]).max() <= 6
    assert np.abs(frame.pixels[26, 50, :3].astype(int) - [40, 40, 200]).max() <= 6


def test_image_sequence_shows_the_frame_for_the_layers_time(tmp_path):
    for number in range(10, 15):
        pixels = np.zeros((8, 8, 4), np.uint8)
        pixels[:] = [*frame_color(number), 255]
        write_image(tmp_path / f"plate_{number:04d}.png", pixels)
    item = footage_item("f1", str(tmp_path / "plate_[####].png"), "sequence", 8, 8,
                        frameRate=10, frameCount=5, firstFrame=10, duration=0.5)
    doc = footage_doc(item, start_time=0.5)
    # Comp time 0.75 is 0.25 s into the layer: the sequence's frame index 2, file number 12.
    assert (render_frame(doc, "c", 0.75).pixels[12, 12, :3] == frame_color(12)).all()
    # Past its last frame the sequence holds it.
    assert (render_frame(doc, "c", 5.0).pixels[12, 12, :3] == frame_color(14)).all()


def video_color(doc, time, cache) -> np.ndarray:
    frame = render_frame(doc, "c", time, footage=cache)
    assert frame.missing == []
    return frame.pixels[34, 42, :3].astype(int)


def test_video_layer_shows_the_decoded_frame_for_the_layers_time(clip):
    item = footage_item("f1", clip, "video", *CLIP_SIZE, frameRate=FPS, frameCount=CLIP_FRAMES)
    doc = footage_doc(item, layer_type="video", start_time=0.5)
    cache = FootageCache()
    for index in range(CLIP_FRAMES):
        time = 0.5 + index / FPS
        assert np.abs(video_color(doc, time, cache) - frame_color(index)).max() <= 3, index
    # A render walking forward decodes forward: the only seek is the first.
    assert cache.video_decoder(clip).seeks == 1


def test_video_seeks_back_and_far_ahead_and_still_finds_the_right_frame(clip):
    item = footage_item("f1", clip, "video", *CLIP_SIZE, frameRate=FPS, frameCount=CLIP_FRAMES)
    doc = footage_doc(item, layer_type="video")
    cache = FootageCache()
    for index in (35, 3, 17, 16, 39, 0):
        assert np.abs(video_color(doc, index / FPS, cache) - frame_color(index)).max() <= 3, index
    # Past the end the last frame holds.
    assert np.abs(video_color(doc, 9.0, cache) - frame_color(CLIP_FRAMES - 1)).max() <= 3


def test_missing_footage_is_reported_by_path_and_the_rest_still_renders(tmp_path, clip):
    garbage = tmp_path / "broken.png"
    garbage.write_bytes(b"this is not a picture")
    items = [footage_item("f1", str(tmp_path / "gone.png"), "image", 10, 10),
             footage_item("f2", str(garbage), "image", 10, 10),
             footage_item("f3", str(tmp_path / "gone.mp4"), "video", 10, 10, frameRate=30),
             footage_item("f4", str(garbage), "video", 10, 10, frameRate=30),
             footage_item("f5", str(tmp_path / "seq_[###].png"), "sequence", 10, 10,
                          frameRate=30, firstFrame=1)]
    layers = [layer(f"l{i}", "video" if "mp4" in item["path"] else "image",
                    {"footage": item["id"]}) for i, item in enumerate(items)]
    layers.append(layer("l9", "image", {"footage": "footage404"}))
    layers.append(layer("s", "solid", {"color": [0, 1, 0, 1], "width": 160, "height": 90}))
    frame = render_frame(document(comp("c", layers), footage=items), "c", 0.0)
    # Each path once, however many layers use it.
    assert sorted(frame.missing) == sorted([
        str(tmp_path / "gone.png"), str(garbage), str(tmp_path / "gone.mp4"),
        str(tmp_path / "seq_001.png"), "footage 'footage404' (not in the project)"])
    assert (frame.pixels == [0, 255, 0, 255]).all()


def test_a_file_replaced_on_disk_is_read_again(tmp_path):
    path = tmp_path / "swap.png"
    cache = FootageCache()
    doc = footage_doc(footage_item("f1", str(path), "image", 4, 4))
    for color in ([255, 0, 0, 255], [0, 0, 255, 255]):
        pixels = np.zeros((4, 4, 4), np.uint8)
        pixels[:] = color
        write_image(path, pixels)
        os.utime(path, ns=(len(color) + color[0], len(color) + color[0]))
        assert (render_frame(doc, "c", 0.0, footage=cache).pixels[11, 11] == color).all()


def test_video_past_its_end_holds_the_last_frame_even_when_its_length_is_unknown(clip):
    item = footage_item("f1", clip, "video", *CLIP_SIZE, frameRate=FPS)
    doc = footage_doc(item, layer_type="video")
    cache = FootageCache()
    decoder = cache.video_decoder(clip)
    decoder.frame_count = None  # as for a stream whose header does not say
    assert np.abs(video_color(doc, 9.0, cache) - frame_color(CLIP_FRAMES - 1)).max() <= 3
    assert np.abs(video_color(doc, 1 / FPS, cache) - frame_color(1)).max() <= 3


def test_footage_shrunk_far_below_its_size_is_averaged_not_aliased(tmp_path):
    # A one-pixel checker at a quarter size, placed so each sample bilinear takes lands on a
    # source pixel's center: without mipmaps every sample has the same parity and the layer
    # turns solid black or white instead of grey.
    y, x = np.mgrid[0:200, 0:200]
    pixels = np.zeros((200, 200, 4), np.uint8)
    pixels[..., :3] = (((x + y) % 2) * 255)[..., None]
    pixels[..., 3] = 255
    path = write_image(tmp_path / "checker.png", pixels)
    item = footage_item("f1", path, "image", 200, 200)
    doc = footage_doc(item)
    doc["comps"][0]["layers"][0]["transform"]["scale"] = [25, 25]
    doc["comps"][0]["layers"][0]["transform"]["position"] = [10.125, 10.125]
    region = render_frame(doc, "c", 0.0).pixels[14:56, 14:56, 0].astype(float)
    assert abs(region.mean() - 127.5) <= 3 and region.std() <= 4
    # At full size the pixels are untouched.
    full = render_frame(footage_doc(item), "c", 0.0).pixels[10:90, 10:160]
    assert (full == pixels[:80, :150]).all()


def test_video_that_skips_frames_keeps_showing_the_frame_before_the_gap(tmp_path):
    # Frames at 0, 1, 2, then 5, 6 (in 1/30 s): at 3/30 and 4/30 frame 2 is still on screen.
    from fractions import Fraction
    path = str(tmp_path / "gaps.mkv")
    with av.open(path, "w") as container:
        stream = container.add_stream("ffv1", rate=FPS)
        stream.width, stream.height = CLIP_SIZE
        stream.pix_fmt = "bgr0"
        stream.time_base = Fraction(1, FPS)
        for index in (0, 1, 2, 5, 6):
            pixels = np.empty((CLIP_SIZE[1], CLIP_SIZE[0], 3), np.uint8)
            pixels[:] = frame_color(index)
            frame = av.VideoFrame.from_ndarray(pixels, format="rgb24")
            frame.pts, frame.time_base = index, Fraction(1, FPS)
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    item = footage_item("f1", path, "video", *CLIP_SIZE, frameRate=FPS)
    doc = footage_doc(item, layer_type="video")
    cache = FootageCache()
    for time_index, shown in ((0, 0), (2, 2), (3, 2), (4, 2), (5, 5), (6, 6), (9, 6), (3, 2)):
        color = video_color(doc, time_index / FPS, cache)
        assert (color == frame_color(shown)).all(), (time_index, shown)


@pytest.mark.parametrize("name,content,segment", [
    ("list.mov", "ffconcat version 1.0\nfile segment.mp4\n", "segment.mp4"),
    ("play.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:0.5,\nsegment.ts\n"
                  "#EXT-X-ENDLIST\n", "segment.ts"),  # MPEG-TS, as a playlist's segments are
], ids=["ffconcat", "hls"])
def test_a_video_that_is_really_a_list_of_other_files_is_never_followed(tmp_path, name, content,
                                                                         segment):
    """The decoder opens the one file a footage item names, with a demuxer that reads no
    other: a file that became a concat list or a playlist (after any check) is unreadable
    footage, reported by path, and the clip it lists is never drawn."""
    if segment.endswith(".mp4"):
        write_clip(str(tmp_path / segment), format="mp4", codec="libx264")
    else:
        write_clip(str(tmp_path / segment))
    listing = str(tmp_path / name)
    with open(listing, "w") as handle:
        handle.write(content)
    item = footage_item("f1", listing, "video", 32, 32, frameRate=10)
    frame = render_frame(footage_doc(item, layer_type="video"), "c", 0.0, footage=FootageCache())
    assert frame.missing == [listing]
    assert (frame.pixels == [0, 0, 0, 255]).all()  # the comp's black background alone


@pytest.mark.parametrize("pix_fmt", ["yuv420p", "yuva420p"])
def test_video_2_or_4_pixels_past_a_multiple_of_16_wide_keeps_its_last_columns(tmp_path,
                                                                               pix_fmt):
    """A 4:2:0 video 20 pixels wide shows the same colour (and alpha) in its last four columns
    as in the rest: swscale's RGBA conversion got those columns wrong by up to 255."""
    width, height = 20, 16
    pixels = np.empty((height, width, 4), np.uint8)
    pixels[:] = [200, 50, 100, 160 if pix_fmt == "yuva420p" else 255]
    frame = av.VideoFrame.from_ndarray(pixels, format="rgba").reformat(format=pix_fmt)
    path = str(tmp_path / "narrow.mkv")
    with av.open(path, "w") as container:
        stream = container.add_stream("ffv1", rate=FPS)  # lossless, and it keeps yuva420p
        stream.width, stream.height, stream.pix_fmt = width, height, pix_fmt
        for packet in [*stream.encode(frame), *stream.encode()]:
            container.mux(packet)
    item = footage_item("f1", path, "video", width, height, frameRate=FPS, frameCount=1)
    shown = layer("l", "video", {"footage": item["id"]}, position=(0, 0))
    drawn = render_frame(document(comp("c", [shown], width=width, height=height,
                                       background=[0, 0, 0, 0]), footage=[item]), "c", 0.0)
    assert drawn.missing == []
    columns = drawn.pixels.astype(int)
    middle = columns[:, width // 2: width // 2 + 1]
    assert np.abs(columns - middle).max() <= 1, np.abs(columns - middle).max(axis=(0, 2))
