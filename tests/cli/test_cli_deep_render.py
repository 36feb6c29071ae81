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


def test_a_deep_managed_graded_comp_is_the_same_bytes_on_a_dask_cluster(tmp_path):
    """EXR frames and 10-bit HEVC of a float comp in ACEScg with a grade, rendered by local
    workers in one chunk and by a Dask LocalCluster in chunks of two key frame intervals."""
    path = small_project(tmp_path / "p.rvproj", frames=24, queue=[
        {"format": "exr", "output": "[compName]/f_[##].exr"},
        {"format": "hevc", "output": "[compName].mp4",
         "codecOptions": {"pix_fmt": "yuv420p10le"}}])
    with open(path, encoding="utf-8") as file:
        project = json.load(file)
    project["comps"][0]["bitDepth"] = "float"
    project["comps"][0]["layers"][0]["effects"].append(
        {"id": f"fx{project['nextId']}", "effect": "grade", "enabled": True,
         "params": {"exposure": 0.5, "gamma": [1.1, 1.0, 0.9]}})
    project["nextId"] += 1
    project["colorManagement"] = {"config": "cg-config", "workingSpace": "ACEScg"}
    written = []
    for where, extra in (("local", ("--workers", "1")),
                         ("dask", ("--workers", "2", "--cluster", "local", "--chunk-size", "12"))):
        folder = tmp_path / where
        folder.mkdir()
        copy = folder / "p.rvproj"
        copy.write_text(json.dumps(project), encoding="utf-8")
        result = rendervisor("render", copy, "--quiet", *extra)
        assert result.returncode == 0, result.stderr
        written.append({file.relative_to(folder).as_posix(): file.read_bytes()
                        for file in sorted(folder.rglob("*")) if file.is_file()
                        and file.name != "p.rvproj"})
    assert written[0] == written[1]
    assert len([name for name in written[0] if name.endswith(".exr")]) == 24
    assert "Main.mp4" in written[0]
