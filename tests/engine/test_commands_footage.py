"""Footage commands against real files: PNGs written by Skia, a video encoded by PyAV."""

import os

import av
import numpy as np
import pytest
import skia

from supervisor.engine.engine import Engine
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp


def write_png(path, width, height):
    surface = skia.Surface(width, height)
    surface.getCanvas().clear(skia.ColorRED)
    surface.makeImageSnapshot().save(str(path), skia.kPNG)


def write_video(path, width=64, height=48, frames=12, rate=24):
    with av.open(str(path), "w") as container:
        stream = container.add_stream("mpeg4", rate=rate)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        for index in range(frames):
            pixels = np.full((height, width, 3), index * 20 % 255, dtype=np.uint8)
            for packet in stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def test_import_an_image(tmp_path):
    write_png(tmp_path / "logo.png", 40, 30)
    engine = Engine()
    result = engine.run("footage.import", {"path": str(tmp_path / "logo.png")})
    assert result["new"] is True
    [footage] = engine.doc["footage"]
    assert footage == {"id": result["footage"], "name": "logo.png",
                       "path": str(tmp_path / "logo.png"), "kind": "image", "width": 40,
                       "height": 30}
    again = engine.run("footage.import", {"path": str(tmp_path / "logo.png")})
    assert again["new"] is False and again["footage"] == footage["id"]


def test_import_a_video_probes_size_rate_duration_and_frames(tmp_path):
    write_video(tmp_path / "clip.avi")
    engine = Engine()
    result = engine.run("footage.import", {"path": str(tmp_path / "clip.avi")})
    assert (result["kind"], result["width"], result["height"], result["frameRate"]) == \
        ("video", 64, 48, 24)
    assert result["frameCount"] == 12
    assert result["duration"] == pytest.approx(0.5, abs=1 / 24)


def test_import_a_sequence_by_pattern_and_by_folder(tmp_path):
    folder = tmp_path / "plates"
    folder.mkdir()
    for number in range(3, 8):
        write_png(folder / f"plate_{number:04d}.png", 16, 8)
    (folder / "notes.txt").write_text("not a frame")
    engine = Engine()
    by_pattern = engine.run("footage.import", {"path": str(folder / "plate_[####].png"),
                                               "frameRate": 25})
    assert (by_pattern["kind"], by_pattern["firstFrame"], by_pattern["frameCount"],
            by_pattern["frameRate"], by_pattern["duration"]) == ("sequence", 3, 5, 25, 0.2)
    assert (by_pattern["width"], by_pattern["height"]) == (16, 8)
    by_folder = engine.run("footage.import", {"path": str(folder)})
    assert by_folder["footage"] == by_pattern["footage"]  # the same pattern: already imported


@pytest.mark.parametrize("make,message", [
    (lambda p: None, "there is no such file; check the path"),
    (lambda p: (p / "bad.png").write_bytes(b"not a png"), "it is not an image rendervisor can "
                                                          "read"),
    (lambda p: (p / "bad.mp4").write_bytes(b"\0" * 64), "is not an image, a video or a sound file"),
])
def test_import_bad_files(tmp_path, make, message):
    make(tmp_path)
    path = {"there is no such file; check the path": "gone.png",
            "it is not an image rendervisor can read": "bad.png",
            "is not an image, a video or a sound file": "bad.mp4"}[message]
    with pytest.raises(CommandError, match=message):
        Engine().run("footage.import", {"path": str(tmp_path / path)})


def test_an_empty_folder_and_an_unmatched_pattern_are_refused(tmp_path):
    with pytest.raises(CommandError, match="holds no numbered images"):
        Engine().run("footage.import", {"path": str(tmp_path)})
    with pytest.raises(CommandError, match="no file matches it"):
        Engine().run("footage.import", {"path": str(tmp_path / "x_[###].png")})


def test_layer_add_with_a_path_imports_then_shows_it_centered(tmp_path):
    write_png(tmp_path / "logo.png", 40, 30)
    write_video(tmp_path / "clip.avi")
    engine = engine_with_comp()
    engine.run("layer.add", {"comp": "Main", "type": "image", "path": str(tmp_path / "logo.png")})
    engine.run("layer.add", {"comp": "Main", "type": "video", "path": str(tmp_path / "clip.avi")})
    video, image = engine.doc["comps"][0]["layers"]
    assert image["name"] == "logo.png" and image["transform"]["anchor"] == [20.0, 15.0]
    assert video["outPoint"] == pytest.approx(0.5, abs=1 / 24)  # ends with its footage
    assert len(engine.doc["footage"]) == 2
    with pytest.raises(CommandError, match="footage 'clip.avi' is a video; show it with a video "
                                           "layer"):
        engine.run("layer.add", {"comp": "Main", "type": "image", "footage": "clip.avi"})


def test_missing_footage_is_reported_by_name_not_a_crash(tmp_path):
    write_png(tmp_path / "logo.png", 4, 4)
    engine = engine_with_comp()
    engine.run("layer.add", {"comp": "Main", "type": "image", "path": str(tmp_path / "logo.png")})
    os.remove(tmp_path / "logo.png")
    assert engine.run("footage.list", {})["missing"] == ["logo.png"]
    assert engine.run("project.info", {})["missingFootage"] == ["logo.png"]
    engine.run("project.save", {"path": str(tmp_path / "p.rvproj")})
    assert Engine(str(tmp_path / "p.rvproj")).run("project.open", {
        "path": str(tmp_path / "p.rvproj")})["missingFootage"] == ["logo.png"]


def test_footage_replace_reprobes_and_remove_refuses_while_shown(tmp_path):
    write_png(tmp_path / "a.png", 4, 4)
    write_png(tmp_path / "b.png", 8, 2)
    engine = engine_with_comp()
    engine.run("layer.add", {"comp": "Main", "type": "image", "path": str(tmp_path / "a.png")})
    engine.run("footage.replace", {"footage": "a.png", "path": str(tmp_path / "b.png")})
    [footage] = engine.doc["footage"]
    assert (footage["name"], footage["width"], footage["height"]) == ("b.png", 8, 2)
    with pytest.raises(CommandError, match="footage 'b.png' is shown by layer 'a.png' in comp "
                                           "'Main'; remove those layers"):
        engine.run("footage.remove", {"footage": "b.png"})
    engine.run("layer.remove", {"comp": "Main", "layer": 1})
    assert engine.run("footage.remove", {"footage": footage["id"]})["removed"] == footage["id"]
    with pytest.raises(CommandError, match="the project has no footage"):
        engine.run("footage.remove", {"footage": footage["id"]})


def ppm(path, width, height, rgb):
    path.write_bytes(b"P6\n%d %d\n255\n" % (width, height) + bytes(rgb) * (width * height))


def test_a_name_ffmpeg_would_read_as_a_frame_pattern_is_imported_as_that_one_file(tmp_path):
    """FFmpeg's image2 would open f1.ppm for `f%d.ppm`; footage is the file named."""
    ppm(tmp_path / "f%d.ppm", 8, 4, (0, 255, 0))
    ppm(tmp_path / "f1.ppm", 16, 16, (255, 0, 0))
    result = Engine().run("footage.import", {"path": str(tmp_path / "f%d.ppm")})
    assert (result["kind"], result["width"], result["height"]) == ("video", 8, 4)


def test_a_missing_file_named_like_an_ffmpeg_pattern_says_how_a_sequence_is_named(tmp_path):
    with pytest.raises(CommandError, match=r"sequence is named with \[####\], not %04d"):
        Engine().run("footage.import", {"path": str(tmp_path / "shot_%04d.exr")})


@pytest.mark.parametrize("name,content", [
    ("list.mov", "ffconcat version 1.0\nfile clip.avi\n"),
    ("play.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:0.5,\nclip.avi\n#EXT-X-ENDLIST\n"),
    ("web.mp4", "<!-- packaged --><MPD><BaseURL>clip.avi</BaseURL></MPD>\n"),
], ids=["ffconcat", "hls", "dash"])
def test_footage_that_names_other_files_is_refused_in_every_session(tmp_path, name, content):
    """FFmpeg would open clip.avi through these; a footage item is the one file it names."""
    write_video(tmp_path / "clip.avi")
    (tmp_path / name).write_text(content)
    with pytest.raises(CommandError, match=f"cannot import .*{name}: it is a playlist, manifest "
                                           r"or concat list \(HLS, DASH or ffconcat\)"):
        Engine().run("footage.import", {"path": str(tmp_path / name)})


def test_a_file_ffmpeg_reads_with_a_demuxer_not_meant_for_footage_is_refused(tmp_path):
    """Sony Wave64 is sound FFmpeg reads, but its w64 demuxer is not on the footage allow-list
    (WAV, FLAC, MP3, AAC, M4A and Ogg are)."""
    with av.open(str(tmp_path / "tone.w64"), "w", format="w64") as container:
        stream = container.add_stream("pcm_s16le", rate=8000)
        frame = av.AudioFrame.from_ndarray(np.zeros((1, 800), np.int16), format="s16",
                                           layout="mono")
        frame.sample_rate = 8000
        for packet in stream.encode(frame):
            container.mux(packet)
    with pytest.raises(CommandError, match="a demuxer that rendervisor does not use for footage"):
        Engine().run("footage.import", {"path": str(tmp_path / "tone.w64")})


@pytest.mark.parametrize("name", ["clip.mp4", "still.png"])
def test_a_fifo_is_refused_as_footage_without_waiting_for_a_writer(tmp_path, name):
    """footage.import of a FIFO another process holds open: the probe must not wait in read()
    for bytes that never come (the quick-lane thread would be lost for good)."""
    import threading
    fifo = str(tmp_path / name)
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # a writer that never writes
    outcome = []

    def import_it():
        try:
            Engine().run("footage.import", {"path": fifo})
            outcome.append("imported")
        except CommandError as error:
            outcome.append(str(error))

    thread = threading.Thread(target=import_it, daemon=True)
    thread.start()
    thread.join(10)
    os.close(writer)  # frees a probe that did wait, so a failing run ends
    thread.join(10)
    assert outcome and "FIFO" in outcome[0] and name in outcome[0], outcome
