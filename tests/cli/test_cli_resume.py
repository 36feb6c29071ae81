"""Picking a render up where it stopped: `--skip-existing` writes only the frames that are
missing or incomplete, and a failed item keeps what finished. Real processes, real files."""

import json
import os

import pytest

from tests.helpers.cli_projects import rendervisor, small_project


def events(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize("fmt, ext", [("png", "png"), ("jpeg", "jpg")])
def test_skip_existing_renders_again_a_frame_that_is_empty_or_cut_short(tmp_path, fmt, ext):
    project = small_project(tmp_path / "s.rvproj",
                            queue=[{"output": f"f_[##].{ext}", "format": fmt}])
    assert rendervisor("render", project, "--quiet").returncode == 0
    frame = {n: tmp_path / f"f_{n:02d}.{ext}" for n in range(6)}
    good = {n: path.read_bytes() for n, path in frame.items()}
    frame[2].write_bytes(b"")
    frame[4].write_bytes(good[4][:len(good[4]) // 2])
    untouched = {n: frame[n].stat().st_ino for n in (0, 1, 3, 5)}
    result = rendervisor("render", project, "--skip-existing", "--json")
    assert result.returncode == 0, result.stderr
    assert events(result)[-2]["total"] == 2  # the last progress event: two frames to write
    assert {n: path.read_bytes() for n, path in frame.items()} == good
    assert {n: frame[n].stat().st_ino for n in untouched} == untouched
