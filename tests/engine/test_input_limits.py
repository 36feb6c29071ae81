"""Each input limit (protocol/model/limits.py) through a real `rendervisor mcp`: an input at the
limit is accepted, one past it is refused with one sentence naming the limit, and the session goes
on serving its project. A project file past a limit is refused at open the same way.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from protocol.model.limits import (MAX_COMP_FRAMES, MAX_CORNERS, MAX_DOCUMENT_BYTES, MAX_KEYS,
                             MAX_PATH_POINTS, MAX_TEXT_LENGTH)


def run(server, command: str, params: dict, timeout: float = 60.0) -> tuple[bool, str]:
    answer = server.wait_for(server.call("command_run", {"id": command, "params": params}),
                             timeout)
    result = answer["result"]
    return result["isError"], result["content"][0]["text"]


def assert_refused(server, command: str, params: dict, *words: str) -> str:
    is_error, text = run(server, command, params)
    assert is_error, f"{command} was accepted: {text[:200]}"
    for word in words:
        assert word in text, text
    assert "unexpectedly" not in text and "Traceback" not in text, text
    assert text.endswith(".") and not re.search(r"\.\s+[A-Z]", text), text
    return text


def assert_accepted(server, command: str, params: dict, timeout: float = 60.0) -> dict:
    is_error, text = run(server, command, params, timeout)
    assert not is_error, text[:300]
    return json.loads(text)


def assert_still_serving(server, tmp_path) -> None:
    for command, params in (("project.save", {"path": str(tmp_path / "p.rvproj")}),
                            ("comp.list", {})):
        assert_accepted(server, command, params)
    assert server.run("doc_inspect", {})["isError"] is False


@pytest.fixture
def main(server):
    assert_accepted(server, "comp.new", {"name": "Main", "width": 64, "height": 36,
                                         "duration": 1})
    return server


def test_a_comp_past_the_frame_limit_is_refused_and_one_at_it_accepted(main, tmp_path):
    assert_refused(main, "comp.new", {"name": "Huge", "duration": 1e9, "frameRate": 1e6},
                   "frames", f"{MAX_COMP_FRAMES:,}")
    assert_accepted(main, "comp.new", {"name": "Long", "frameRate": 50,
                                       "duration": MAX_COMP_FRAMES / 50})
    listed = {c["name"]: c["frames"] for c in assert_accepted(main, "comp.list", {})["comps"]}
    assert listed["Long"] == MAX_COMP_FRAMES
    assert_refused(main, "comp.set", {"comp": "Long", "frameRate": 51}, "frames")
    assert_refused(main, "comp.set", {"comp": "Main", "duration": MAX_COMP_FRAMES},
                   "frames")
    assert_still_serving(main, tmp_path)


def test_queueing_every_frame_of_the_longest_comp_answers_quickly(main, tmp_path):
    # The case: this comp was accepted, and queueing "0-" of it then built a set of
    # 10**15 frame numbers (no answer in a minute, gigabytes). Now the comp is refused, and
    # queueing every frame of the longest comp a project may have is a range, not a set.
    assert_refused(main, "comp.new", {"name": "Huge", "duration": 1e9, "frameRate": 1e6},
                   "frames")
    assert_accepted(main, "comp.new", {"name": "Long", "frameRate": 50,
                                       "duration": MAX_COMP_FRAMES / 50})
    started = time.monotonic()
    added = assert_accepted(main, "renderQueue.add", {"comp": "Long", "frames": "0-",
                                                      "output": str(tmp_path / "long.mp4")})
    changed = assert_accepted(main, "renderQueue.set", {"item": added["item"],
                                                        "frames": "0-10,20-,5-"})
    # Generous for a loaded 2-core machine: it protects against expanding the frames at all,
    # which at this size takes seconds and hundreds of megabytes per call.
    assert time.monotonic() - started < 10
    assert changed["frames"] == "0-10,20-,5-"
    assert_refused(main, "renderQueue.set", {"item": added["item"],
                                             "frames": f"0-{MAX_COMP_FRAMES}"},
                   f"frame {MAX_COMP_FRAMES}")
    assert_still_serving(main, tmp_path)


@pytest.mark.parametrize("shape", ["polygon", "star"])
def test_corners_past_the_limit_are_refused_and_at_it_accepted(main, tmp_path, shape):
    layer = assert_accepted(main, "layer.add", {"comp": "Main", "type": "shape",
                                                "shape": shape, "size": [30, 30],
                                                "points": MAX_CORNERS})["layer"]
    for corners in (MAX_CORNERS + 1, 10 ** 9):
        assert_refused(main, "layer.add", {"comp": "Main", "type": "shape", "shape": shape,
                                           "size": [30, 30], "points": corners},
                       "points", f"{MAX_CORNERS:,}")
    assert_refused(main, "layer.set", {"comp": "Main", "layer": layer,
                                       "points": MAX_CORNERS + 1}, "points")
    assert main.run("render_preview", {"comp": "Main"})["isError"] is False
    assert_still_serving(main, tmp_path)


def test_path_points_past_the_limit_are_refused_and_at_it_accepted(main, tmp_path):
    points = [[i % 30, (i * 7) % 30] for i in range(MAX_PATH_POINTS)]
    assert_accepted(main, "layer.add", {"comp": "Main", "type": "shape", "shape": "path",
                                        "size": [30, 30], "points": points})
    assert_refused(main, "layer.add", {"comp": "Main", "type": "shape", "shape": "path",
                                       "size": [30, 30], "points": points + [[0, 0]]},
                   "points", f"{MAX_PATH_POINTS:,}")
    assert_still_serving(main, tmp_path)


def test_text_past_the_limit_is_refused_quickly_and_at_it_accepted(main, tmp_path):
    layer = assert_accepted(main, "layer.add", {"comp": "Main", "type": "text",
                                                "text": "x" * MAX_TEXT_LENGTH})["layer"]
    assert_refused(main, "layer.set", {"comp": "Main", "layer": layer,
                                       "text": "x" * (MAX_TEXT_LENGTH + 1)},
                   "text", f"{MAX_TEXT_LENGTH:,}")
    started = time.monotonic()
    assert_refused(main, "layer.add", {"comp": "Main", "type": "text",
                                       "text": "y" * 10_000_000}, "text")
    assert time.monotonic() - started < 10  # generous; a 10 MB text was drawn for minutes
    assert_refused(main, "comp.set", {"comp": "Main", "name": "n" * (MAX_TEXT_LENGTH + 1)},
                   "name")
    assert main.run("render_preview", {"comp": "Main"})["isError"] is False
    assert_still_serving(main, tmp_path)


def keys(count: int, value=lambda i: i) -> dict:
    return {"keys": [{"time": i / 30, "value": value(i)} for i in range(count)]}


def test_keys_past_the_limit_are_refused_and_at_it_accepted(main, tmp_path):
    assert_accepted(main, "layer.add", {"comp": "Main", "type": "null", "name": "N"})
    assert_refused(main, "prop.set", {"comp": "Main", "layer": "N",
                                      "path": "transform.rotation",
                                      "value": keys(MAX_KEYS + 1)}, "keys", f"{MAX_KEYS:,}")
    assert_accepted(main, "prop.set", {"comp": "Main", "layer": "N",
                                       "path": "transform.rotation", "value": keys(MAX_KEYS)})
    assert_refused(main, "prop.addKey", {"comp": "Main", "layer": "N",
                                         "path": "transform.rotation",
                                         "time": MAX_KEYS, "value": 1}, "keys")
    # replacing a key that exists adds none, so it is still allowed at the limit
    assert_accepted(main, "prop.addKey", {"comp": "Main", "layer": "N",
                                          "path": "transform.rotation", "time": 0,
                                          "value": 1})
    assert_still_serving(main, tmp_path)


def test_an_edit_past_the_document_size_is_refused_and_changes_nothing(main, tmp_path):
    # Text keys make bulk cheaply, and in the form the project stores them their size is
    # known here: 52,000 keys of 300 characters are about 16 MB of compact JSON.
    def text_keys(count: int) -> dict:
        return {"keys": [{"time": i, "value": f"{i:07d}" + "t" * 293,
                          "interpolation": "linear"} for i in range(count)]}

    assert_accepted(main, "layer.add", {"comp": "Main", "type": "text", "text": "a",
                                        "name": "A"})
    assert_accepted(main, "layer.add", {"comp": "Main", "type": "text", "text": "b",
                                        "name": "B"})
    # Just under the limit, leaving 200 kB for the rest of the project (a few kB):
    per_key = len(json.dumps(text_keys(60_000), separators=(",", ":"))) / 60_000
    bulk = text_keys(int((MAX_DOCUMENT_BYTES - 200_000) / per_key))
    assert_accepted(main, "prop.set", {"comp": "Main", "layer": "A", "path": "text",
                                       "value": bulk}, timeout=120)
    revision = assert_accepted(main, "project.info", {})["revision"]
    assert_refused(main, "prop.set", {"comp": "Main", "layer": "B", "path": "text",
                                      "value": text_keys(1000)},
                   "MB", f"{MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB")
    assert assert_accepted(main, "project.info", {})["revision"] == revision
    got = assert_accepted(main, "prop.get", {"comp": "Main", "layer": "B", "path": "text"})
    assert got["value"] == "b" and got["animated"] is False
    assert_still_serving(main, tmp_path)
    # what was saved at the limit opens again
    assert_accepted(main, "project.open", {"path": str(tmp_path / "p.rvproj")}, timeout=120)


@pytest.mark.parametrize("poison,words", [
    (lambda doc: doc["comps"][0].update(duration=1e9, frameRate=1e6), ["comps[0]", "frames"]),
    (lambda doc: doc["comps"][0]["layers"][0]["content"].update(points=10 ** 9),
     ["comps[0].layers[0].content.points", f"{MAX_CORNERS:,}"]),
    (lambda doc: doc["comps"][0]["layers"][0].update(name="n" * (MAX_TEXT_LENGTH + 1)),
     ["comps[0].layers[0].name", f"{MAX_TEXT_LENGTH:,}"]),
])
def test_a_project_file_past_a_limit_is_refused_at_open(main, tmp_path, poison, words):
    assert_accepted(main, "layer.add", {"comp": "Main", "type": "shape", "shape": "polygon",
                                        "size": [30, 30]})
    assert_accepted(main, "renderQueue.add", {"comp": "Main", "frames": "0-",
                                              "output": str(tmp_path / "m.mp4")})
    assert_accepted(main, "project.save", {"path": str(tmp_path / "good.rvproj")})
    doc = json.loads((tmp_path / "good.rvproj").read_text())
    poison(doc)
    (tmp_path / "bad.rvproj").write_text(json.dumps(doc, indent=2))
    assert_refused(main, "project.open", {"path": str(tmp_path / "bad.rvproj")},
                   "bad.rvproj", *words)
    assert_still_serving(main, tmp_path)
