"""Temporaries a render killed outright leaves (`kill -9`, a node losing power: the record that
would remove them dies with it): the next render of that output removes those of the files it
writes, and `rendervisor clean` those beside the project's outputs or an `--output` pattern,
never a name that is not shaped like one of ours, nor another task's frames
(docs/outputs.md, "Cancel and failure"). Real processes, real files."""

import os
import signal
import subprocess
import sys
import time

import psutil

from tests.helpers.cli_projects import ROOT, rendervisor, small_project
from tests.helpers.render_midway import count_named, wait_midway

TOKEN = "0123456789ab"


def plant(folder, *names) -> None:
    for name in names:
        (folder / name).write_bytes(b"left by a render that was killed")


def killed_midway(project, video) -> None:
    """Render the project's `video`, and kill the whole process group with SIGKILL once its
    segments are being written: no cleanup of any kind runs."""
    process = subprocess.Popen([sys.executable, "-m", "supervisor.cli", "render", project,
                                "--json", "--workers", "2"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               start_new_session=True)
    # Killed once the first segments are being encoded, the files looked at every few
    # milliseconds: the 90 frames are ahead (some 0.6 s here). A progress event at 20 frames
    # done left 70, and events come ten a second at most: a fast machine could end the render
    # first, leaving the video whole and nothing for the next render to remove.
    wait_midway(process, lambda: count_named(video.parent, f".{video.name}.seg", ".part") >= 1,
                "a segment being written")
    group = [process.pid] + [child.pid for child in psutil.Process(process.pid).children(True)]
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(30)
    deadline = time.monotonic() + 30
    while any(psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
              for pid in group):
        assert time.monotonic() < deadline, "the killed render's processes lived on"
        time.sleep(0.05)


def ours(folder) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".part"))


def test_the_next_render_removes_what_a_killed_one_left_for_its_files(tmp_path):
    project = small_project(tmp_path / "v.rvproj", frames=90, width=320, height=180, blur=30,
                            queue=[{"output": "v.mp4", "codecOptions": {"preset": "veryfast"}}])
    killed_midway(project, tmp_path / "v.mp4")
    # Left by earlier kills at other moments: a segment, a sound track, a join's temporary;
    # and names that only look alike, which are someone else's.
    plant(tmp_path, f".v.mp4.seg000030.{TOKEN}.part", f".v.mp4.audio.{TOKEN}.part",
          f".v.mp4.{TOKEN}.part", ".v.mp4.notes.part", f".w.mp4.{TOKEN}.part")
    result = rendervisor("render", project, "--skip-existing", "--quiet")
    assert result.returncode == 0, result.stderr
    assert ours(tmp_path) == [".v.mp4.notes.part", f".w.mp4.{TOKEN}.part"]
    assert not (tmp_path / ".v.mp4.segments").exists()


def test_a_sequence_removes_only_the_temporaries_of_frames_it_writes(tmp_path):
    project = small_project(tmp_path / "s.rvproj", frames=12,
                            queue=[{"output": "out/f_[##].png"}])
    out = tmp_path / "out"
    out.mkdir()
    # Frames 3 and 4 are this task's; frame 10 is another task's, still being written.
    plant(out, f".f_03.png.{TOKEN}.part", f".f_04.png.aaaaaaaaaaaa.part",
          f".f_10.png.{TOKEN}.part")
    result = rendervisor("render", project, "--frames", "0-5", "--quiet")
    assert result.returncode == 0, result.stderr
    assert ours(out) == [f".f_10.png.{TOKEN}.part"]
    assert sorted(name for name in os.listdir(out) if name.endswith(".png")) == [
        f"f_{n:02d}.png" for n in range(6)]


def test_clean_removes_leftovers_beside_the_queue_and_an_output_pattern(tmp_path):
    project = small_project(tmp_path / "c.rvproj", frames=12,
                            queue=[{"output": "v.mp4"}, {"output": "seq/f_[##].png"}])
    (tmp_path / "seq").mkdir()
    (tmp_path / "custom").mkdir()
    (tmp_path / "custom" / ".b.mp4.segments").mkdir()
    plant(tmp_path, f".v.mp4.seg000000.{TOKEN}.part", "keep.part")
    plant(tmp_path / "seq", f".f_07.png.{TOKEN}.part", "f_07.png")
    plant(tmp_path / "custom", f".b_0003.png.{TOKEN}.part", f".b.mp4.{TOKEN}.part",
          f".c_0003.png.{TOKEN}.part")
    plant(tmp_path / "custom" / ".b.mp4.segments", "a" * 64 + ".seg")

    result = rendervisor("clean", project)
    assert result.returncode == 0, result.stderr
    assert ours(tmp_path) == ["keep.part"]
    assert os.listdir(tmp_path / "seq") == ["f_07.png"]
    assert len(ours(tmp_path / "custom")) == 3  # not the project's outputs: left alone

    for pattern in ("custom/b_[####].png", "custom/b.mp4"):
        result = rendervisor("clean", project, "--output", tmp_path / pattern)
        assert result.returncode == 0, result.stderr
        assert "custom" in result.stdout, result.stdout
    assert ours(tmp_path / "custom") == [f".c_0003.png.{TOKEN}.part"]
    assert not (tmp_path / "custom" / ".b.mp4.segments").exists()
