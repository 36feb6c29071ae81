"""Engine commands in a confined session: every path passes the session's roots first. Uses the
supervisor's real Confinement as the guard."""

import copy

import pytest

from supervisor.confinement.roots import Confinement
from supervisor.engine.engine import Engine
from supervisor.errors import CommandError
from tests.helpers.cube_luts import cube_table, write_cube


def confined_engine(read_root, write_root):
    confinement = Confinement([str(read_root)], [str(write_root)])

    def guard(path, mode):
        (confinement.check_read if mode == "read" else confinement.check_write)(path)

    engine = Engine(path_guard=guard)
    engine.run("comp.new", {"name": "Main"})
    return engine


@pytest.fixture
def roots(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "out").mkdir()
    return tmp_path / "in", tmp_path / "out"


def test_files_outside_the_roots_are_refused_before_the_command_runs(roots, tmp_path):
    engine = confined_engine(*roots)
    with pytest.raises(CommandError, match="outside the read roots"):
        engine.run("footage.import", {"path": str(tmp_path / "elsewhere.png")})
    with pytest.raises(CommandError, match="outside the write roots"):
        engine.run("project.save", {"path": str(roots[0] / "p.rvproj")})
    with pytest.raises(CommandError, match="outside the read roots"):
        engine.run("layer.add", {"comp": "Main", "type": "text", "text": "/etc/passwd"})
    assert engine.doc["footage"] == [] and engine.doc["comps"][0]["layers"] == []


def test_saving_inside_a_write_root_works_and_outputs_follow_the_project(roots):
    engine = confined_engine(*roots)
    engine.run("project.save", {"path": str(roots[1] / "p.rvproj")})
    assert engine.run("renderQueue.add", {"comp": "Main"})["output"] == str(roots[1] / "Main.mp4")
    with pytest.raises(CommandError, match="outside the write roots"):
        engine.run("renderQueue.add", {"comp": "Main", "output": "../in/x.mp4"})


def test_an_unsaved_confined_project_needs_an_absolute_output(roots):
    engine = confined_engine(*roots)
    with pytest.raises(CommandError, match="the project is unsaved; give an absolute output"):
        engine.run("renderQueue.add", {"comp": "Main"})
    assert engine.run("renderQueue.add", {"comp": "Main", "output": str(roots[1] / "a.mp4")})


def test_a_lut_outside_the_roots_is_refused_when_set_and_when_a_project_brings_one(roots,
                                                                                  tmp_path):
    outside = write_cube(tmp_path / "look.cube", cube_table(2))
    inside = write_cube(roots[0] / "look.cube", cube_table(2))
    engine = confined_engine(*roots)
    engine.run("layer.add", {"comp": "Main", "type": "solid", "name": "S", "color": "#808080"})
    add = {"comp": "Main", "layer": "S", "effect": "lut"}
    with pytest.raises(CommandError, match="outside the read roots"):
        engine.run("effect.add", {**add, "params": {"path": outside}})
    engine.run("effect.add", {**add, "params": {"path": inside}})
    engine.snapshot()
    # A project opened from a file can name any path; each drawing checks it again.
    opened = copy.deepcopy(engine.doc)
    opened["comps"][0]["layers"][0]["effects"][0]["params"]["path"] = outside
    engine.replace_document(opened, None)
    with pytest.raises(CommandError, match="layer 'S' of comp 'Main' cannot be drawn: its lut "
                                           "effect's file: .*outside the read roots"):
        engine.snapshot()


def test_a_colour_config_file_outside_the_roots_is_refused_when_set_and_when_drawn(roots,
                                                                                  tmp_path):
    outside = tmp_path / "show.ocio"
    outside.write_text("ocio_profile_version: 2\n")
    inside = roots[0] / "show.ocio"
    inside.write_text("ocio_profile_version: 2\n")
    engine = confined_engine(*roots)
    with pytest.raises(CommandError, match="outside the read roots"):
        engine.run("project.set", {"colorManagement": {"config": str(outside)}})
    engine.run("project.set", {"colorManagement": {"config": str(inside)}})
    engine.snapshot()
    opened = copy.deepcopy(engine.doc)
    opened["colorManagement"]["config"] = str(outside)
    engine.replace_document(opened, None)
    with pytest.raises(CommandError, match="the project's OpenColorIO config cannot be read: "
                                           ".*outside the read roots"):
        engine.snapshot()
