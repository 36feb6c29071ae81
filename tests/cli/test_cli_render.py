"""`rendervisor render` and `preview` as a user or a farm manager runs them: real processes,
real files. Exit codes: 0 all rendered, 1 an item failed, 2 bad usage or input (one line on
stderr, no traceback), 130 interrupted with partial outputs removed."""

import json
import os
import signal
from fractions import Fraction

import av
import numpy as np
import pytest
import skia

from supervisor.engine.engine import Engine
from tests.helpers.bands import longest_flat_run, ramp_runs
from tests.helpers.cli_projects import error_lines, popen, rendervisor, small_project
from tests.helpers.sound_files import decode_sound, tone, write_wav
from workers.compositor import render_frame
from workers.exporter.complete_frames import is_complete_frame


@pytest.fixture
def project(tmp_path):
    return small_project(tmp_path / "show.rvproj",
                         queue=[{"output": "out/main_[###].png", "format": "png"}])


def assert_usage_error(result, *fragments):
    lines = error_lines(result.stderr)
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1, lines
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_a_missing_project_is_one_line_and_exit_2(tmp_path):
    result = rendervisor("render", tmp_path / "nope.rvproj")
    assert_usage_error(result, "nope.rvproj", "there is no such file")


def test_a_project_that_is_not_json_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "broken.rvproj").write_text('{"version": 1, "comps": [')
    result = rendervisor("render", tmp_path / "broken.rvproj")
    assert_usage_error(result, "broken.rvproj", "not a valid rendervisor project")


def test_an_unknown_comp_is_one_line_naming_the_comps_there(project):
    assert_usage_error(rendervisor("render", project, "--comp", "Nope"), "'Nope'", "'Main'")


@pytest.mark.parametrize("spec", ["5-2", "x", "0-99"])
def test_a_bad_frame_spec_is_one_line_and_exit_2(project, spec):
    assert_usage_error(rendervisor("render", project, "--frames", spec), "frame spec")


def test_an_output_under_a_file_is_refused_before_rendering(project, tmp_path):
    (tmp_path / "plain").write_text("a file")
    result = rendervisor("render", project, "--comp", "Main",
                         "--output", tmp_path / "plain" / "x.mp4")
    assert_usage_error(result, "cannot write", "is a file, not a folder")


def test_a_malformed_codec_option_is_refused(project):
    assert_usage_error(rendervisor("render", project, "--codec-option", "crf"), "KEY=VALUE")


def test_json_events_are_progress_lines_then_done(project, tmp_path):
    result = rendervisor("render", project, "--json", "--workers", "2")
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    progress, done = events[:-1], events[-1]
    assert progress and all(event["event"] == "progress" for event in progress)
    assert [event["done"] for event in progress] == sorted(event["done"] for event in progress)
    assert progress[-1]["done"] == progress[-1]["total"] == 6
    assert done["event"] == "done" and done["completed"] == 1 and done["failed"] == 0
    assert done["items"][0]["output"] == str(tmp_path / "out" / "main_[###].png")
    assert sorted(os.listdir(tmp_path / "out")) == [f"main_{n:03d}.png" for n in range(6)]


def test_frames_writes_exactly_those_frames(project, tmp_path):
    result = rendervisor("render", project, "--comp", "Main", "--frames", "1-2,5",
                         "--format", "png", "--output", tmp_path / "sub" / "f_[####].png",
                         "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert sorted(os.listdir(tmp_path / "sub")) == ["f_0001.png", "f_0002.png", "f_0005.png"]
    # The project file is left as it was: the --comp item lived in the render's memory only.
    assert len(json.loads(open(project).read())["renderQueue"]) == 1


def test_a_failed_item_exits_1_and_the_others_still_render(tmp_path):
    picture = tmp_path / "logo.png"
    surface = skia.Surface(8, 8)
    surface.makeImageSnapshot().save(str(picture), skia.kPNG)
    path = small_project(tmp_path / "show.rvproj",
                         queue=[{"output": "good_[##].png", "format": "png"}])
    engine = Engine(path)
    engine.run("comp.new", {"name": "Uses logo", "width": 16, "height": 16, "duration": 0.1})
    engine.run("layer.add", {"comp": "Uses logo", "type": "image", "path": str(picture)})
    engine.run("renderQueue.add", {"comp": "Uses logo", "output": "bad.mp4"})
    engine.run("project.save", {})
    picture.write_bytes(b"not a png")  # there, readable, and found broken only when drawn
    result = rendervisor("render", path)
    assert result.returncode == 1, result.stderr
    assert "done" in result.stdout and "failed" in result.stdout and "logo.png" in result.stdout
    assert len([n for n in os.listdir(tmp_path) if n.startswith("good_")]) == 6
    assert not (tmp_path / "bad.mp4").exists()


def test_sigint_mid_render_exits_130_and_leaves_no_partial_file(tmp_path):
    path = small_project(tmp_path / "long.rvproj", frames=900, width=640, height=360, blur=40,
                         queue=[{"output": "long.mp4"}])
    process = popen("render", path, "--json", "--workers", "2")
    first = json.loads(process.stdout.readline())  # the render is under way
    assert first["event"] == "progress" and first["done"] < first["total"]
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert json.loads(out.splitlines()[-1])["event"] == "interrupted"
    assert "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == ["long.rvproj"]  # no video, no segment, no temporary


def test_sigterm_stops_a_frame_sequence_render_too(tmp_path):
    path = small_project(tmp_path / "long.rvproj", frames=900, width=640, height=360, blur=40,
                         queue=[{"output": "frames/f_[####].png", "format": "png"}])
    process = popen("render", path, "--json", "--workers", "2")
    json.loads(process.stdout.readline())
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    # The frames that were finished stay for --skip-existing, each whole; nothing else does.
    frames = tmp_path / "frames"
    names = os.listdir(frames) if frames.exists() else []
    assert all(name.startswith("f_") and is_complete_frame(str(frames / name), "png")
               for name in names), names


def test_preview_writes_one_png_of_the_asked_size(project, tmp_path):
    result = rendervisor("preview", project, "--frame", "3", "--output", tmp_path / "p.png",
                         "--max-side", "32")
    assert result.returncode == 0, result.stderr
    assert skia.Image.open(str(tmp_path / "p.png")).dimensions() == skia.ISize(32, 18)


def test_preview_outside_the_comp_is_one_line(project, tmp_path):
    assert_usage_error(rendervisor("preview", project, "--time", "9", "--output",
                                   tmp_path / "p.png"), "outside comp 'Main'")


def test_commands_lists_the_catalog_as_json():
    result = rendervisor("commands", "--json")
    assert result.returncode == 0
    ids = {entry["id"] for entry in json.loads(result.stdout)["commands"]}
    assert {"renderQueue.render", "layer.add", "project.open"} <= ids


def test_commands_piped_into_a_reader_that_leaves_early_prints_no_traceback():
    process = popen("commands")
    process.stdout.close()  # the reader is gone before the first line, as `| head -0` would be
    err = process.stderr.read()
    assert process.wait(timeout=30) == 0 and "Traceback" not in err


def test_a_fifo_given_as_the_project_is_one_line_and_exit_2_without_waiting(tmp_path):
    fifo = tmp_path / "pipe.rvproj"
    os.mkfifo(fifo)
    holder = os.open(fifo, os.O_RDWR)  # a writer that never writes: a read would wait forever
    try:
        result = rendervisor("render", fifo, timeout=60)
    finally:
        os.close(holder)
    assert_usage_error(result, "pipe.rvproj", "FIFO")


def test_format_wav_renders_the_sound_alone_and_a_clipping_mix_is_a_warning(tmp_path):
    project = small_project(tmp_path / "show.rvproj", frames=30)
    engine = Engine(project)
    loud = write_wav(tmp_path / "loud.wav", np.stack([tone(1.0, 300, 0.8)] * 2))
    for name in ("A", "B"):
        engine.run("layer.add", {"comp": "Main", "type": "audio", "name": name, "path": loud})
    engine.run("comp.set", {"comp": "Main", "audioLimiter": False})  # the limiter would hold it
    engine.run("project.save", {})
    result = rendervisor("render", project, "--comp", "Main", "--format", "wav", "--output",
                         tmp_path / "mix.wav")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("done") and "mix.wav  its sound written in" in lines[0]
    assert lines[1].strip().startswith(  # --comp: its name
        "warning: the sound of Main goes past full scale")
    sound, rate = decode_sound(tmp_path / "mix.wav")
    assert (sound.shape, rate) == ((2, 48000), 48000)
    assert np.abs(sound).max() == pytest.approx(1.0, abs=1e-3)


def test_an_empty_queue_with_one_comp_renders_that_comp(tmp_path):
    path = small_project(tmp_path / "one.rvproj")
    result = rendervisor("render", path, "--output", tmp_path / "x.mp4", "--quiet")
    assert result.returncode == 0, result.stderr
    with av.open(str(tmp_path / "x.mp4")) as video:
        assert video.streams.video[0].frames == 6


def test_an_empty_queue_with_several_comps_names_them(tmp_path):
    path = small_project(tmp_path / "two.rvproj")
    engine = Engine(path)
    engine.run("comp.new", {"name": "Other", "width": 16, "height": 16, "duration": 0.1})
    engine.run("project.save", {})
    assert_usage_error(rendervisor("render", path), "empty render queue", "'Main'", "'Other'",
                       "--comp")


def test_a_stepped_frame_spec_numbers_files_from_the_start_number(tmp_path):
    path = small_project(tmp_path / "farm.rvproj", frames=12)
    result = rendervisor("render", path, "--comp", "Main", "--frames", "0-10x5",
                         "--start-number", "1001", "--output", tmp_path / "f_[####].png",
                         "--quiet")
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path)) == ["f_1001.png", "f_1006.png", "f_1011.png",
                                            "farm.rvproj"]
    with av.open(str(tmp_path / "f_1006.png")) as frame_file:
        written = next(frame_file.decode(video=0)).to_ndarray(format="rgba")
    engine = Engine(path)
    assert np.array_equal(written, render_frame(engine.doc, "Main", 5 / 30).pixels)


def test_a_queue_items_start_number_numbers_its_files(tmp_path):
    path = small_project(tmp_path / "q.rvproj", queue=[
        {"output": "q_[####].png", "frames": "1-2", "startNumber": 1001}])
    assert json.loads(open(path).read())["renderQueue"][0]["startNumber"] == 1001
    result = rendervisor("render", path, "--quiet")
    assert result.returncode == 0, result.stderr
    assert sorted(name for name in os.listdir(tmp_path) if name.startswith("q_")) == [
        "q_1002.png", "q_1003.png"]


def test_ntsc_frame_rates_are_encoded_as_their_1001_fractions(tmp_path):
    rates = {23.976: Fraction(24000, 1001), 29.97: Fraction(30000, 1001),
             59.94: Fraction(60000, 1001)}
    engine = Engine()  # a comp and a queued video per rate, rendered by one process
    for number, rate in enumerate(rates):
        engine.run("comp.new", {"name": f"N{number}", "width": 32, "height": 18,
                                "frameRate": rate, "duration": 0.2})
        engine.run("layer.add", {"comp": f"N{number}", "type": "solid", "color": "#336699"})
        engine.run("renderQueue.add", {"comp": f"N{number}",
                                       "output": str(tmp_path / f"n{number}.mp4")})
    engine.run("project.save", {"path": str(tmp_path / "ntsc.rvproj")})
    result = rendervisor("render", tmp_path / "ntsc.rvproj", "--quiet")
    assert result.returncode == 0, result.stderr
    for number, (rate, exact) in enumerate(rates.items()):
        with av.open(str(tmp_path / f"n{number}.mp4")) as video:
            stream = video.streams.video[0]
            assert stream.average_rate == exact, rate
            stamps = [frame.pts * frame.time_base for frame in video.decode(stream)]
        assert len(stamps) == round(0.2 * rate), rate
        assert stamps == [index / exact for index in range(len(stamps))], rate


def rect_project(path, width: int, height: int, rect: dict, effect: dict | None = None,
                 duration=1 / 30) -> str:
    """A comp of one rect shape (`rect`: layer.add's params), through `effect` if given."""
    engine = Engine()
    engine.run("comp.new", {"name": "Main", "width": width, "height": height,
                            "duration": duration})
    engine.run("layer.add", {"comp": "Main", "type": "shape", "shape": "rect", **rect})
    if effect is not None:
        engine.run("effect.add", {"comp": "Main", "layer": 1, **effect})
    engine.run("project.save", {"path": str(path)})
    return str(path)


def gradient_project(path, start="#101418", end="#20262c", width=512, height=16,
                     duration=1 / 30) -> str:
    """A comp (512x16, one frame unless told) filled with a horizontal gradient from `start` to
    `end`."""
    return rect_project(path, width, height, {"size": [width, height], "fill": {
        "type": "linear", "start": [0, 0], "end": [width, 0], "stops": [[0, start], [1, end]]}},
        duration=duration)


def rendered_png(project: str, folder) -> np.ndarray:
    """The project's one frame rendered by `rendervisor render` to a PNG, decoded (RGB)."""
    result = rendervisor("render", project, "--comp", "Main",
                         "--output", folder / "frame_[#].png", "--quiet")
    assert result.returncode == 0, result.stderr
    with av.open(str(folder / "frame_0.png")) as image:
        return next(image.decode(video=0)).to_ndarray(format="rgb24").astype(int)


def test_a_dark_gradient_is_dithered_not_banded(tmp_path):
    # 16 levels of red over 512 px: undithered, each level is a flat band 32 px wide.
    pixels = rendered_png(gradient_project(tmp_path / "g.rvproj"), tmp_path)
    for channel in range(3):
        # Columns averaged over the rows, as the eye sees an ordered dither: no flat band.
        seen = list(np.round(pixels[:, :, channel].mean(axis=0), 3))
        assert longest_flat_run(seen) <= 8, f"channel {channel}"
    # Still the gradient: the mean of each 64 px span rises from one end to the other.
    means = pixels[:, :, 0].reshape(16, 8, 64).mean(axis=(0, 2))
    assert list(means) == sorted(means) and means[-1] - means[0] > 12


def blurred_edge_project(path, width=1024, height=64, color="#101418", radius=200) -> str:
    """A dark rect over the comp's right half (black to its left), blurred by `radius`: a ramp
    of 16 to 24 levels over about 600 px."""
    return rect_project(path, width, height,
                        {"size": [width, 20 * height], "fill": color,
                         "position": [width, height / 2]},
                        {"effect": "gaussianBlur", "params": {"radius": radius}})


def test_a_wide_blur_of_a_dark_edge_is_dithered_not_banded(tmp_path):
    # Skia's blur rounds to 8 bits: this ramp came out in flat bands 25 to 40 px wide.
    pixels = rendered_png(blurred_edge_project(tmp_path / "b.rvproj"), tmp_path)
    for channel in range(3):
        # Columns averaged over the rows, as the eye sees a dither: no flat band.
        assert ramp_runs(pixels[:, :, channel].mean(axis=0)) <= 8, f"channel {channel}"
    # Still the blurred edge: black at the left, the rect's color at the right, rising between.
    red = pixels[:, :, 0].mean(axis=0)
    assert red[:200].max() == 0 and abs(red[-64:].mean() - 0x10) < 0.5
    assert list(red[::64]) == sorted(red[::64])


def test_a_wide_feather_on_a_dark_layer_is_dithered_not_banded(tmp_path):
    # A vignette's edge: a dark solid cut by a mask feathered 600 px. Its coverage has 256
    # levels, but content times coverage was rounded to 8 bits: bands 35 to 40 px wide.
    engine = Engine()
    engine.run("comp.new", {"name": "Main", "width": 1024, "height": 64, "duration": 1 / 30})
    engine.run("layer.add", {"comp": "Main", "type": "solid", "color": "#101418",
                             "width": 1024, "height": 64})
    engine.run("mask.add", {"comp": "Main", "layer": 1, "shape": "path", "mode": "add",
                            "points": [[512, -200], [1600, -200], [1600, 300], [512, 300]],
                            "feather": 600})
    engine.run("project.save", {"path": str(tmp_path / "v.rvproj")})
    pixels = rendered_png(str(tmp_path / "v.rvproj"), tmp_path)
    for channel in range(3):
        assert ramp_runs(pixels[:, :, channel].mean(axis=0)) <= 8, f"channel {channel}"
    red = pixels[:, :, 0].mean(axis=0)
    assert red[:200].max() == 0 and red[900:].min() > 10  # black, then the plate through it
    assert list(red[:768:64]) == sorted(red[:768:64])  # rising to the plateau


def test_a_gif_takes_max_side(tmp_path):
    path = small_project(tmp_path / "g.rvproj", frames=4, width=320, height=180)
    result = rendervisor("render", path, "--comp", "Main", "--output", tmp_path / "g.gif",
                         "--codec-option", "maxSide=160", "--quiet")
    assert result.returncode == 0, result.stderr
    with av.open(str(tmp_path / "g.gif")) as gif:
        frames = [frame.to_ndarray(format="rgb24") for frame in gif.decode(video=0)]
    assert len(frames) == 4 and {frame.shape for frame in frames} == {(90, 160, 3)}
    full = render_frame(Engine(path).doc, "Main", 0.0, scale=0.5).pixels[..., :3]
    assert np.abs(frames[0].astype(int) - full.astype(int)).mean() < 4  # the frame, halved
    refused = rendervisor("render", path, "--comp", "Main", "--output", tmp_path / "h.gif",
                          "--codec-option", "maxSide=0")
    assert refused.returncode == 2 and "maxSide" in refused.stderr
    assert not (tmp_path / "h.gif").exists()


def test_a_gif_takes_fps(tmp_path):
    path = small_project(tmp_path / "g.rvproj", frames=30, width=64, height=36)
    result = rendervisor("render", path, "--comp", "Main", "--output", tmp_path / "g.gif",
                         "--codec-option", "fps=10", "--quiet")
    assert result.returncode == 0, result.stderr
    with av.open(str(tmp_path / "g.gif")) as gif:
        frames = list(gif.decode(video=0))
    assert len(frames) == 10
    assert [round(float(frame.pts * frame.time_base), 2) for frame in frames] == [
        k / 10 for k in range(10)]
    doc = Engine(path).doc
    for k in (1, 7):  # GIF frame k shows comp frame 3k, drawn at its time
        drawn = render_frame(doc, "Main", 3 * k / 30).pixels[..., :3].astype(int)
        assert np.abs(frames[k].to_ndarray(format="rgb24").astype(int) - drawn).mean() < 4


def test_a_gif_dithers_a_gradient_its_palette_cannot_hold(tmp_path):
    # Black to a full colour over 512 px: more colours than its 256 entries hold.
    project = gradient_project(tmp_path / "g.rvproj", "#000000", "#ff8040")
    dithers = ("none", "bayer", "sierra2_4a", "floyd_steinberg")
    engine = Engine(project)  # one queue item per dither, rendered by one process
    for dither in dithers:
        engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / f"{dither}.gif"),
                                       "codecOptions": {"dither": dither}})
    engine.run("project.save", {})
    result = rendervisor("render", project, "--quiet")
    assert result.returncode == 0, result.stderr

    def seen_runs(dither):
        with av.open(str(tmp_path / f"{dither}.gif")) as gif:
            pixels = next(gif.decode(video=0)).to_ndarray(format="rgb24").astype(int)
        # Columns averaged over the rows, as the eye sees an ordered dither; the ends left
        # out, where the pattern is clipped at black and at full colour.
        return max(longest_flat_run(list(np.round(pixels[:, 16:-16, channel].mean(axis=0), 3)))
                   for channel in range(3))

    assert seen_runs("none") >= 8, "the undithered GIF shows bands"
    assert seen_runs("bayer") <= 6
    # Error diffusion spreads a level's remainder along the rows, so over these 16 rows its
    # column means step less evenly than an ordered pattern's (blue, stepping every 8 px in
    # the comp, keeps runs of 10), yet far from the bands of the issue (20 px and more).
    for dither in ("sierra2_4a", "floyd_steinberg"):
        assert seen_runs(dither) <= 12, dither


def decoded_luma(path) -> list[np.ndarray]:
    """Each frame's Y' plane as it was coded (ProRes: 10 bits, in 16-bit samples)."""
    with av.open(str(path)) as video:
        return [np.frombuffer(frame.planes[0], np.uint16 if frame.format.name.endswith("le")
                              else np.uint8).reshape(frame.height, -1)[:, :frame.width]
                .astype(int) for frame in video.decode(video=0)]


def test_a_dark_gradient_keeps_its_dither_through_a_lossy_encoder(tmp_path):
    # 15 levels of luma over 1024 px, at each format's default quality. Rounded to 8-bit Y'
    # by FFmpeg's conversion, this decoded in flat bands 63 to 128 px wide; ProRes, at 10
    # bits, keeps the compositor's dither as it is.
    project = gradient_project(tmp_path / "g.rvproj", width=1024, height=64)
    formats = {"h264": "mp4", "hevc": "mp4", "vp9": "webm", "prores": "mov"}
    engine = Engine(project)  # one queue item per format, rendered by one process
    for fmt, ext in formats.items():
        engine.run("renderQueue.add", {"comp": "Main", "format": fmt,
                                       "output": str(tmp_path / f"g-{fmt}.{ext}")})
    engine.run("project.save", {})
    result = rendervisor("render", project, "--quiet")
    assert result.returncode == 0, result.stderr
    for fmt, ext in formats.items():
        luma = decoded_luma(tmp_path / f"g-{fmt}.{ext}")[0]
        # Columns averaged over the rows, as the eye sees the pattern: no flat band.
        assert longest_flat_run(list(np.round(luma.mean(axis=0), 3))) <= 16, fmt
        means = luma.reshape(64, 16, 64).mean(axis=(0, 2))
        assert list(means) == sorted(means) and means[-1] - means[0] > 12, fmt


def test_a_dithered_video_is_the_same_bytes_whatever_the_worker_count(tmp_path):
    # The pattern is keyed by pixel position alone, never by frame, chunk or worker.
    project = gradient_project(tmp_path / "g.rvproj", width=1024, height=64, duration=2)
    videos = []
    for workers in ("1", "2", "3"):
        output = tmp_path / f"g{workers}.mp4"
        result = rendervisor("render", project, "--comp", "Main", "--output", output,
                             "--workers", workers, "--quiet")
        assert result.returncode == 0, result.stderr
        videos.append(output.read_bytes())
    assert videos[0] == videos[1] == videos[2]
    luma = decoded_luma(tmp_path / "g1.mp4")
    assert len(luma) == 60
    assert longest_flat_run(list(np.round(luma[45].mean(axis=0), 3))) <= 16


def test_dither_none_rounds_video_to_nearest(tmp_path):
    # For flat graphics, where a dither only costs bits: the bands are back.
    project = gradient_project(tmp_path / "g.rvproj", width=1024, height=64)
    result = rendervisor("render", project, "--comp", "Main", "--output", tmp_path / "g.mp4",
                         "--codec-option", "dither=none", "--quiet")
    assert result.returncode == 0, result.stderr
    luma = decoded_luma(tmp_path / "g.mp4")[0]
    assert longest_flat_run(list(np.round(luma.mean(axis=0), 3))) > 32


@pytest.mark.parametrize("pair", ["crf", "=20", " =20"])
def test_a_codec_option_that_is_not_key_value_is_one_line_and_nothing_is_written(project,
                                                                                 tmp_path, pair):
    assert_usage_error(rendervisor("render", project, "--codec-option", pair),
                       f"--codec-option {pair!r} is not KEY=VALUE",
                       "write it like --codec-option crf=20")
    assert not (tmp_path / "out").exists()
