"""project.save and project.open: round trips, one-sentence errors, and saves that survive
SIGKILL at any moment."""

import json
import os
import random
import signal
import subprocess
import sys
import textwrap

import pytest

from protocol.model.document import dumps, load_document
from supervisor.engine.engine import Engine
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_layers
from tests.helpers.cli_projects import ROOT


def rich_engine():
    engine = engine_with_layers()
    engine.run("prop.addKey", {"comp": "Main", "layer": "Box", "path": "transform.position",
                               "time": 0, "value": [0, 0], "interpolation": {"bezier": [
                                   0.1, 0.7, 0.3, 1.0]}})
    engine.run("prop.addKey", {"comp": "Main", "layer": "Box", "path": "transform.position",
                               "time": 1.5, "value": [100.25, 3]})
    engine.run("effect.add", {"comp": "Main", "layer": "Red", "effect": "tint",
                              "params": {"white": "#ffeeddcc"}})
    engine.run("layer.set", {"comp": "Main", "layer": "Title", "parent": "Box",
                             "text": "Ünïcode ✓\nline 2"})
    engine.run("renderQueue.add", {"comp": "Main", "output": "/out/a_[####].png",
                                   "frames": "0-9", "codecOptions": {"compression_level": "9"}})
    return engine


def test_save_then_open_gives_an_identical_document(tmp_path):
    engine = rich_engine()
    path = tmp_path / "show.rvproj"
    result = engine.run("project.save", {"path": str(path)})
    assert result["path"] == str(path) and result["bytes"] == path.stat().st_size
    assert engine.modified is False
    reopened = Engine(str(path))
    assert reopened.doc == engine.doc
    assert dumps(reopened.doc) == path.read_text(encoding="utf-8")
    assert reopened.project_path == str(path) and reopened.modified is False


def test_save_without_a_path_saves_where_it_was_opened(tmp_path):
    path = tmp_path / "show.rvproj"
    engine = rich_engine()
    engine.run("project.save", {"path": str(path)})
    engine.run("comp.set", {"comp": "Main", "name": "Renamed"})
    assert engine.modified is True
    engine.run("project.save", {})
    assert json.loads(path.read_text())["comps"][0]["name"] == "Renamed"


def test_saving_an_unsaved_project_needs_a_path():
    with pytest.raises(CommandError, match="has never been saved, so project.save needs a path"):
        Engine().run("project.save", {})


def test_save_into_a_missing_folder_is_one_sentence(tmp_path):
    with pytest.raises(CommandError, match=r"cannot save .*/nowhere/p.rvproj: the folder "
                                           r".*nowhere does not exist"):
        Engine().run("project.save", {"path": str(tmp_path / "nowhere" / "p.rvproj")})


@pytest.mark.parametrize("content,message", [
    (None, "there is no such file; check the path"),
    ("{broken", r"it is not a valid rendervisor project \(not a JSON document \(line 1"),
    ('{"version": 1, "name": "x", "nextId": 1, "footage": [], "renderQueue": [], '
     '"comps": [{"id": "comp1"}]}', r"comps\[0\]: missing name"),
    ('{"version": 99}', "newer than this rendervisor reads"),
    (b"\xff\xfe\x00binary", "it is not a text file"),
])
def test_open_errors_are_one_sentence_naming_the_file(tmp_path, content, message):
    path = tmp_path / "p.rvproj"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    engine = rich_engine()
    before = engine.doc
    with pytest.raises(CommandError, match=message) as caught:
        engine.run("project.open", {"path": str(path)})
    assert str(caught.value).startswith(f"cannot open {path}:")
    assert "\n" not in str(caught.value) and "Traceback" not in str(caught.value)
    assert engine.doc is before  # a failed open leaves the current project alone


def test_opening_a_folder_says_so(tmp_path):
    with pytest.raises(CommandError, match="it is a folder, not a project file"):
        Engine().run("project.open", {"path": str(tmp_path)})


def test_the_constructor_opens_a_project_and_reports_errors_as_command_errors(tmp_path):
    with pytest.raises(CommandError, match="there is no such file"):
        Engine(str(tmp_path / "missing.rvproj"))


def test_project_info_and_new(tmp_path):
    engine = rich_engine()
    info = engine.run("project.info", {})
    assert (info["name"], info["path"], info["comps"], info["renderQueue"], info["modified"]) \
        == ("Untitled", None, 1, 1, True)
    assert engine.run("project.new", {"name": "Next"})["name"] == "Next"
    with pytest.raises(CommandError, match="project.info does not take 'verbose'"):
        engine.run("project.info", {"verbose": True})


# A parent that imports the saving code once and, for each line on its stdin, forks a child
# that saves the two documents in turn for ever (after one whole save, "ready PID") until the
# test SIGKILLs it; the parent reaps it and says "gone". Fifty kills then cost fifty forks
# rather than fifty interpreters each importing the engine.
SAVER = textwrap.dedent("""
    import os, sys
    from supervisor.engine.project_file import write_atomically
    path, first, second = sys.argv[1], open(sys.argv[2]).read(), open(sys.argv[3]).read()
    for _ in sys.stdin:
        pid = os.fork()
        if pid == 0:
            write_atomically(path, first)
            os.write(1, b"ready %d\\n" % os.getpid())
            while True:
                write_atomically(path, second)
                write_atomically(path, first)
        os.waitpid(pid, 0)
        print("gone", flush=True)
""")


def test_a_save_killed_at_random_points_leaves_the_old_or_the_new_file(tmp_path):
    first = rich_engine()
    second = rich_engine()
    # Big enough that a kill often lands inside a write (about a megabyte of layers).
    second.run("layer.add", {"comp": "Main", "type": "text", "text": "line " * 40})
    layers = second.doc["comps"][0]["layers"]
    for index in range(400):
        layers.append({**json.loads(json.dumps(layers[0])), "id": f"layer{1000 + index}"})
    second.doc["nextId"] = 2000
    texts = {dumps(first.doc), dumps(second.doc)}
    (tmp_path / "first").write_text(dumps(first.doc))
    (tmp_path / "second").write_text(dumps(second.doc))
    folder = tmp_path / "project"
    folder.mkdir()
    path = folder / "show.rvproj"
    rng = random.Random(1234)
    interrupted = 0
    saver = subprocess.Popen([sys.executable, "-c", SAVER, str(path), str(tmp_path / "first"),
                              str(tmp_path / "second")], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, cwd=ROOT)
    try:
        for _ in range(50):
            saver.stdin.write(b"save\n")
            saver.stdin.flush()
            word, pid = saver.stdout.readline().split()
            assert word == b"ready"
            try:
                os.sched_yield()
                deadline = rng.uniform(0, 0.03)
                saver.wait(timeout=deadline) if deadline else None
            except subprocess.TimeoutExpired:
                pass
            os.kill(int(pid), signal.SIGKILL)
            assert saver.stdout.readline() == b"gone\n"
            text = path.read_text(encoding="utf-8")
            assert text in texts, \
                "a killed save left a file that is neither the old nor the new one"
            load_document(json.loads(text))
            assert len(os.listdir(folder)) <= 2  # the project, and at most one leftover temp file
            interrupted += len(os.listdir(folder)) == 2
    finally:
        saver.kill()
        saver.wait()
        saver.stdin.close()
        saver.stdout.close()
    assert interrupted > 0, "no kill landed inside a save; the test proved nothing"
    # The next save sweeps a leftover temporary file away.
    Engine(str(path)).run("project.save", {})
    assert os.listdir(folder) == ["show.rvproj"]
