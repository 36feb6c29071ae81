"""Picking a render up where it stopped: `--skip-existing` writes only the frames that are
missing or incomplete, and a failed item keeps what finished. Real processes, real files."""

import json
import os
import signal

from tests.helpers.cli_projects import plate_project, popen, rendervisor, small_project
from tests.helpers.render_midway import segments_cached, wait_midway


def events(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_skip_existing_renders_again_a_frame_that_is_empty_or_cut_short(tmp_path):
    # A PNG and a JPEG sequence, queued in one project: frame 2 of each emptied, frame 4 cut.
    kinds = (("png", "png"), ("jpeg", "jpg"))
    project = small_project(tmp_path / "s.rvproj",
                            queue=[{"output": f"f_[##].{ext}", "format": fmt}
                                   for fmt, ext in kinds])
    assert rendervisor("render", project, "--quiet").returncode == 0
    frame = {(ext, n): tmp_path / f"f_{n:02d}.{ext}" for _, ext in kinds for n in range(6)}
    good = {key: path.read_bytes() for key, path in frame.items()}
    untouched = {}
    for _, ext in kinds:
        frame[ext, 2].write_bytes(b"")
        frame[ext, 4].write_bytes(good[ext, 4][:len(good[ext, 4]) // 2])
        untouched.update({(ext, n): frame[ext, n].stat().st_ino for n in (0, 1, 3, 5)})
    result = rendervisor("render", project, "--skip-existing", "--json")
    assert result.returncode == 0, result.stderr
    assert events(result)[-2]["total"] == 4  # the last progress event: two frames of each
    assert {key: path.read_bytes() for key, path in frame.items()} == good
    assert {key: frame[key].stat().st_ino for key in untouched} == untouched


def test_a_failed_sequence_keeps_the_frames_of_finished_chunks_and_a_rerun_writes_the_rest(
        tmp_path):
    project, plates = plate_project(tmp_path)
    good_plate = plates[20].read_bytes()
    plates[20].write_bytes(b"not a png")  # one unreadable footage frame
    result = rendervisor("render", project, "--chunk-size", "10", "--workers", "2")
    assert result.returncode == 1, result.stderr
    out = tmp_path / "out"
    assert sorted(os.listdir(out)) == [f"f_{n:02d}.png" for n in range(20)]
    kept = {name: (out / name).stat().st_ino for name in os.listdir(out)}
    plates[20].write_bytes(good_plate)
    result = rendervisor("render", project, "--skip-existing", "--json", "--chunk-size", "10")
    assert result.returncode == 0, result.stderr
    assert events(result)[-2]["total"] == 10
    assert sorted(os.listdir(out)) == [f"f_{n:02d}.png" for n in range(30)]
    assert {name: (out / name).stat().st_ino for name in kept} == kept


def cached_segments(output) -> list[str]:
    folder = output.parent / f".{output.name}.segments"
    return sorted(os.listdir(folder)) if folder.exists() else []


def test_a_video_interrupted_halfway_resumes_byte_identical_encoding_only_missing_segments(
        tmp_path):
    project = small_project(tmp_path / "v.rvproj", frames=300, width=320, height=180, blur=30,
                            queue=[{"output": "v.mp4", "codecOptions": {"preset": "veryfast"}}])
    video = tmp_path / "v.mp4"
    process = popen("render", project, "--json", "--workers", "2")
    # Interrupted once two segments are cached, the files looked at every few milliseconds: 240
    # frames are left (some 0.8 s here). A progress event at 150 frames done left 150 (0.4 s),
    # and events come ten a second at most.
    wait_midway(process, lambda: segments_cached(video) >= 2, "two cached segments")
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert not video.exists()
    cached = cached_segments(video)
    assert 2 <= len(cached) < 10  # 300 frames: ten segments of 30
    assert [name for name in os.listdir(tmp_path) if name.endswith(".part")] == []

    resumed = rendervisor("render", project, "--skip-existing", "--json", "--workers", "2")
    assert resumed.returncode == 0, resumed.stderr
    assert events(resumed)[-2]["total"] == 300 - 30 * len(cached)
    assert cached_segments(video) == [] and not (tmp_path / ".v.mp4.segments").exists()

    whole = rendervisor("render", project, "--output", tmp_path / "whole.mp4", "--quiet")
    assert whole.returncode == 0, whole.stderr
    assert video.read_bytes() == (tmp_path / "whole.mp4").read_bytes()


def test_clean_removes_the_segments_an_interrupted_video_left(tmp_path):
    project = small_project(tmp_path / "c.rvproj", frames=60, queue=[{"output": "c.mp4"}])
    folder = tmp_path / ".c.mp4.segments"
    folder.mkdir()
    (folder / ("ab" * 32 + ".seg")).write_bytes(b"a finished segment")
    (tmp_path / "c_notes.txt").write_text("mine")
    result = rendervisor("clean", project)
    assert result.returncode == 0, result.stderr
    assert str(folder) in result.stdout and "1 segment" in result.stdout
    assert not folder.exists() and (tmp_path / "c_notes.txt").exists()
    again = rendervisor("clean", project)
    assert again.returncode == 0 and "nothing to clean" in again.stdout
