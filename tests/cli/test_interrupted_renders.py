"""A render stopped by SIGTERM (a farm manager preempting its task) or Ctrl-C keeps what it
finished: an image sequence its whole frames, each complete or absent, a video its finished
segments; the message says how to pick it up, and `--skip-existing` renders only the rest
(docs/outputs.md, "Cancel and failure"). Real processes, real files."""

import json
import os
import signal

import pytest

from tests.helpers.cli_projects import popen, rendervisor, small_project
from workers.exporter.complete_frames import is_complete_frame

FRAMES = 90


def events(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def interrupted(project, signum, *args) -> tuple[dict, str]:
    """Render with --json, send `signum` once some frames are written; the interrupted
    event and stderr."""
    process = popen("render", project, "--json", "--workers", "2", *args)
    for line in process.stdout:
        event = json.loads(line)
        if event.get("event") == "progress" and event["done"] >= 12:
            break
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
    last, err = interrupted(project, signum, "--output", pattern)
    kept = sorted(os.listdir(out)) if out.exists() else []
    assert 12 <= len(kept) < FRAMES, kept
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
    for line in process.stdout:
        if json.loads(line).get("done", 0) >= 12:
            break
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    message = events(out)[-1]["message"]
    assert "--skip-existing" in message and "segments" in message, message
