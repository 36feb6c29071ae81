"""A render stopped by SIGTERM (a farm manager preempting its task) or Ctrl-C keeps what it
finished: an image sequence its whole frames, each complete or absent, a video its finished
segments; the message says how to pick it up, and `--skip-existing` renders only the rest
(docs/outputs.md, "Cancel and failure"). Real processes, real files."""

import json
import os
import signal

import pytest

from tests.helpers.cli_projects import popen, rendervisor, small_project
from tests.helpers.render_midway import count_named, wait_midway
from workers.exporter.complete_frames import is_complete_frame

FRAMES = 90
KEPT = 4  # frames written when the signal is sent


def events(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def interrupted(project, signum, folder, *args) -> tuple[dict, str]:
    """Render with --json, send `signum` once KEPT frames are in `folder`; the interrupted event
    and stderr."""
    process = popen("render", project, "--json", "--workers", "2", *args)
    # 4 frames of 90 (some 0.6 s of rendering here): the other 86 are left to interrupt.
    wait_midway(process, lambda: count_named(folder, "b_", ".png") >= KEPT, f"{KEPT} frames")
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    return events(out)[-1], err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_an_interrupted_sequence_keeps_its_whole_frames_and_resumes(tmp_path, signum):
    project = small_project(tmp_path / "s.rvproj", frames=FRAMES, width=320, height=180,
                            blur=30)
    out = tmp_path / "out"
    pattern = str(out / "b_[####].png")
    last, err = interrupted(project, signum, out, "--output", pattern)
    kept = sorted(os.listdir(out)) if out.exists() else []
    assert KEPT <= len(kept) < FRAMES, kept
    assert last["event"] == "interrupted" and "--skip-existing" in last["message"], last
    assert all(name.startswith("b_") and name.endswith(".png") for name in kept), kept
    assert all(is_complete_frame(str(out / name), "png") for name in kept)
    inodes = {name: (out / name).stat().st_ino for name in kept}

    resumed = rendervisor("render", project, "--output", pattern, "--skip-existing", "--json",
                          "--workers", "2")
    assert resumed.returncode == 0, resumed.stderr
    done = events(resumed.stdout)[-1]
    assert done["items"][0]["framesSkipped"] == len(kept)
    assert done["items"][0]["framesWritten"] == FRAMES - len(kept)
    assert sorted(os.listdir(out)) == [f"b_{n:04d}.png" for n in range(FRAMES)]
    assert {name: (out / name).stat().st_ino for name in kept} == inodes

    whole = rendervisor("render", project, "--output", str(tmp_path / "w" / "b_[####].png"),
                        "--quiet")
    assert whole.returncode == 0, whole.stderr
    for number in range(FRAMES):
        name = f"b_{number:04d}.png"
        assert (out / name).read_bytes() == (tmp_path / "w" / name).read_bytes(), name


def test_the_plain_message_says_how_to_resume(tmp_path):
    project = small_project(tmp_path / "v.rvproj", frames=FRAMES, width=320, height=180,
                            blur=30)
    process = popen("render", project, "--output", tmp_path / "v.mp4", "--workers", "2",
                    "--json")
    # The first progress event comes with the first frame written: 89 are left to interrupt
    # (a later one could come with the render's end on a fast machine).
    first = json.loads(process.stdout.readline())
    assert first["event"] == "progress" and first["done"] < first["total"], first
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    message = events(out)[-1]["message"]
    assert "--skip-existing" in message and "segments" in message, message
