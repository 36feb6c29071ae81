"""A saved project stores paths inside its own folder relative to it, so a project folder
moved or cloned elsewhere still finds its footage and writes its outputs beside itself."""

import json
import shutil

from supervisor.engine.engine import Engine
from tests.engine.test_commands_footage import write_png


def saved_project(folder, outside):
    folder.mkdir()
    (folder / "art").mkdir()
    write_png(folder / "art" / "logo.png", 40, 30)
    write_png(outside, 20, 10)
    engine = Engine()
    engine.run("comp.new", {"name": "Main", "width": 64, "height": 36})
    engine.run("project.save", {"path": str(folder / "show.rvproj")})
    engine.run("footage.import", {"path": str(folder / "art" / "logo.png")})
    engine.run("footage.import", {"path": str(outside)})
    engine.run("renderQueue.add", {"comp": "Main", "output": "renders/main.mp4"})
    engine.run("renderQueue.add", {"comp": "Main", "output": "/elsewhere/main.mov"})
    engine.run("project.save", {})
    return engine


def test_paths_inside_the_project_folder_are_saved_relative(tmp_path):
    engine = saved_project(tmp_path / "show", tmp_path / "shared.png")
    stored = json.loads((tmp_path / "show" / "show.rvproj").read_text())
    assert [f["path"] for f in stored["footage"]] == ["art/logo.png",
                                                      str(tmp_path / "shared.png")]
    assert [i["output"] for i in stored["renderQueue"]] == ["renders/main.mp4",
                                                            "/elsewhere/main.mov"]
    # In memory nothing changed: every path stays absolute.
    assert engine.doc["footage"][0]["path"] == str(tmp_path / "show" / "art" / "logo.png")


def test_a_moved_project_folder_finds_its_footage_and_writes_beside_itself(tmp_path):
    saved_project(tmp_path / "show", tmp_path / "shared.png")
    shutil.move(tmp_path / "show", tmp_path / "moved")
    engine = Engine(str(tmp_path / "moved" / "show.rvproj"))
    info = engine.run("project.info")
    assert info.get("missingFootage", []) == []
    assert engine.doc["footage"][0]["path"] == str(tmp_path / "moved" / "art" / "logo.png")
    assert engine.doc["footage"][1]["path"] == str(tmp_path / "shared.png")
    assert engine.doc["renderQueue"][0]["output"] == str(tmp_path / "moved" / "renders" /
                                                         "main.mp4")


def test_a_sibling_folder_with_a_common_prefix_is_not_inside(tmp_path):
    from supervisor.engine.project_paths import relative_inside
    assert relative_inside("/data2/clip.mp4", "/data") == "/data2/clip.mp4"
    assert relative_inside("/data/sub/clip.mp4", "/data") == "sub/clip.mp4"
