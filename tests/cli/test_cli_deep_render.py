"""A deep comp renders to the same bytes whatever the worker count: EXR frames and 10-bit
HEVC from a float comp blending in linear light, with 1 and 3 render workers."""

import json

import pytest

from tests.helpers.cli_projects import rendervisor, small_project


@pytest.mark.parametrize("fmt,output,options", [
    ("exr", "f_[#].exr", []),
    ("hevc", "d.mp4", ["--codec-option", "pix_fmt=yuv420p10le"]),
    ("h264", "d.mp4", []),
])
def test_a_deep_comp_is_the_same_bytes_on_any_worker_count(tmp_path, fmt, output, options):
    path = small_project(tmp_path / "p.rvproj", frames=20)
    with open(path, encoding="utf-8") as file:
        project = json.load(file)
    project["comps"][0].update(bitDepth="float", linearBlending=True)
    with open(path, "w", encoding="utf-8") as file:
        json.dump(project, file)
    written = []
    for workers in (1, 3):
        folder = tmp_path / f"w{workers}"
        result = rendervisor("render", path, "--comp", "Main", "--format", fmt, "--output",
                             folder / output, "--workers", str(workers), "--quiet", *options)
        assert result.returncode == 0, result.stderr
        written.append({file.name: file.read_bytes() for file in sorted(folder.iterdir())})
    assert written[0] == written[1] and len(written[0]) == (20 if fmt == "exr" else 1)
