"""The resume key of a video's segments covers every file its frames are drawn from: a lut
effect's .cube and a project's OpenColorIO config as well as footage and fonts, so a LUT or
config replaced on disk between an interrupted render and `--skip-existing` draws every segment
again (docs/outputs.md, "Resuming a video"). Real files; the key is computed as the render does."""

import os

from supervisor.render.segment_cache import content_key, drawn_files

CUBE = "LUT_3D_SIZE 2\n" + "".join(f"{r} {g} {b}\n" for b in (0, 1) for g in (0, 1)
                                   for r in (0, 1))


def graded(tmp_path, config: str) -> dict:
    cube = tmp_path / "look.cube"
    cube.write_text(CUBE)
    layer = {"name": "Plate", "type": "solid",
             "effects": [{"effect": "lut", "params": {"path": str(cube), "amount": 100}}]}
    return {"comps": [{"name": "Main", "layers": [layer]}], "footage": [],
            "colorManagement": {"config": config, "workingSpace": "ACEScg"}}


def replaced(path) -> None:
    """Other bytes of the same size at the same name, its times put back as they were."""
    before = os.stat(path)
    data = open(path, "rb").read()
    open(path, "wb").write(data.swapcase())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_a_lut_and_a_config_file_are_files_the_frames_are_drawn_from(tmp_path):
    config = tmp_path / "studio.ocio"
    config.write_text("ocio_profile_version: 2\n")
    document = graded(tmp_path, str(config))
    assert drawn_files(document) == [str(tmp_path / "look.cube"), str(config)]


def test_a_built_in_config_names_no_file(tmp_path):
    document = graded(tmp_path, "ocio://studio-config-latest")
    assert drawn_files(document) == [str(tmp_path / "look.cube")]


def test_a_lut_replaced_on_disk_makes_a_new_key(tmp_path):
    document = graded(tmp_path, "ocio://studio-config-latest")
    before = content_key(document)
    replaced(tmp_path / "look.cube")
    assert content_key(document) != before


def test_a_config_replaced_on_disk_makes_a_new_key(tmp_path):
    config = tmp_path / "studio.ocio"
    config.write_text("ocio_profile_version: 2\n")
    document = graded(tmp_path, str(config))
    before = content_key(document)
    replaced(config)
    assert content_key(document) != before
