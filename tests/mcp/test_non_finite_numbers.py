"""Numbers a project cannot hold (NaN, Infinity, JSON's 1e999, integers past a double's range)
are refused where they enter, with one sentence naming the parameter, through a real
`rendervisor mcp`; the session's project.save, comp.list and doc_inspect keep working after
each, and a project file holding one is refused at open.

The lines are written by hand: `NaN`, `Infinity` and `1e999` are what a careless client's JSON
encoder (or an attacker) sends, and a dict could not carry the last one to the server.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers.confinement_world import png_bytes

# Marker strings in params, replaced by these literals in the line sent.
LITERALS = {"__NaN__": "NaN", "__Inf__": "Infinity", "__-Inf__": "-Infinity",
            "__1e999__": "1e999", "__big__": "1" + "0" * 400}

# (command, params, the parameter the sentence must name). Every route a number takes into
# the project: comp settings, layer attributes and transforms, content, colors, gradients,
# animations and their key times and eases, effect params, footage, render queue items; and
# the read commands whose answer would echo the number back.
CASES = [
    ("comp.new", {"name": "X", "duration": "__1e999__"}, "duration"),
    ("comp.new", {"name": "X", "frameRate": "__NaN__"}, "frameRate"),
    ("comp.set", {"comp": "Main", "duration": "__-Inf__"}, "duration"),
    ("comp.set", {"comp": "Main", "background": [0, "__NaN__", 0]}, "background"),
    ("comp.set", {"comp": "Main", "motionBlur": {"shutterAngle": "__Inf__"}}, "motionBlur"),
    ("layer.add", {"comp": "Main", "type": "solid", "color": [1, "__NaN__", 0]}, "color"),
    ("layer.add", {"comp": "Main", "type": "null", "inPoint": "__1e999__"}, "inPoint"),
    ("layer.add", {"comp": "Main", "type": "text", "text": "t", "size": "__1e999__"}, "size"),
    ("layer.add", {"comp": "Main", "type": "shape", "shape": "rect", "size": [10, 10],
                   "fill": {"type": "linear", "start": [0, 0], "end": [1, 1],
                            "stops": [["__NaN__", "#ffffff"], [1, "#000000"]]}}, "fill"),
    ("layer.set", {"comp": "Main", "layer": "Red", "outPoint": "__NaN__"}, "outPoint"),
    ("layer.set", {"comp": "Main", "layer": "Red", "startTime": "__Inf__"}, "startTime"),
    ("layer.set", {"comp": "Main", "layer": "Red", "position": ["__NaN__", 0]}, "position"),
    ("layer.set", {"comp": "Main", "layer": "Red", "rotation": "__big__"}, "rotation"),
    ("prop.set", {"comp": "Main", "layer": "Red", "path": "transform.rotation",
                  "value": "__NaN__"}, "value"),
    ("prop.set", {"comp": "Main", "layer": "Red", "path": "transform.opacity",
                  "value": {"keys": [{"time": 0, "value": 50},
                                     {"time": "__1e999__", "value": 100}]}}, "value"),
    ("prop.addKey", {"comp": "Main", "layer": "Red", "path": "transform.rotation",
                     "time": "__1e999__", "value": 3}, "time"),
    ("prop.addKey", {"comp": "Main", "layer": "Red", "path": "transform.position",
                     "time": 1, "value": ["__-Inf__", 0]}, "value"),
    ("prop.addKey", {"comp": "Main", "layer": "Red", "path": "transform.rotation", "time": 1,
                     "value": 3, "interpolation": {"bezier": [0.2, "__NaN__", 0.5, 1]}},
     "interpolation"),
    ("prop.get", {"comp": "Main", "layer": "Red", "path": "transform.rotation",
                  "time": "__NaN__"}, "time"),
    ("prop.removeKey", {"comp": "Main", "layer": "Red", "path": "transform.rotation",
                        "time": "__Inf__"}, "time"),
    ("effect.add", {"comp": "Main", "layer": "Red", "effect": "gaussianBlur",
                    "params": {"radius": "__NaN__"}}, "params"),
    ("effect.set", {"comp": "Main", "layer": "Red", "effect": 1,
                    "params": {"black": [0, 0, "__Inf__"]}}, "params"),
    ("footage.import", {"path": "__PNG__", "frameRate": "__NaN__"}, "frameRate"),
    ("renderQueue.add", {"comp": "Main", "output": "__OUT__",
                         "codecOptions": {"crf": "__NaN__"}}, "codecOptions"),
    ("renderQueue.add", {"comp": "Main", "output": "__OUT__",
                         "codecOptions": {"b": "__1e999__"}}, "codecOptions"),
    ("comp.saveFrameAs", {"comp": "Main", "time": "__Inf__", "path": "__STILL__"}, "time"),
]


def line(request_id: int, tool: str, arguments: dict, paths: dict) -> str:
    text = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}})
    for marker, literal in LITERALS.items():
        text = text.replace(json.dumps(marker), literal)
    for marker, path in paths.items():
        text = text.replace(marker, path)
    return text


def text_of(answer: dict) -> str:
    return answer["result"]["content"][0]["text"]


def assert_one_sentence_naming(text: str, name: str) -> None:
    assert name in text, text
    assert "finite" in text, text
    assert "unexpectedly" not in text and "Traceback" not in text, text
    assert text.endswith(".") and not re.search(r"\.\s+[A-Z]", text), text


@pytest.fixture
def project(server, tmp_path):
    server.run("command_batch", {"steps": [
        {"id": "comp.new", "params": {"name": "Main", "width": 64, "height": 36,
                                      "duration": 1}},
        {"id": "layer.add", "params": {"comp": "Main", "type": "solid", "color": [1, 0, 0],
                                       "name": "Red"}},
        {"id": "effect.add", "params": {"comp": "Main", "layer": "Red", "effect": "tint"}},
        {"id": "prop.addKey", "params": {"comp": "Main", "layer": "Red",
                                         "path": "transform.rotation", "time": 0,
                                         "value": 0}},
    ]})
    (tmp_path / "still.png").write_bytes(png_bytes())
    paths = {"__PNG__": str(tmp_path / "still.png"), "__OUT__": str(tmp_path / "out.mp4"),
             "__STILL__": str(tmp_path / "frame.png")}
    return server, paths


def test_the_session_still_saves_lists_and_inspects_after_each_refusal(project, tmp_path):
    server, paths = project
    for number, (command, params, name) in enumerate(CASES):
        server.send(line(number + 1, "command_run", {"id": command, "params": params}, paths))
        answer = server.wait_for(number + 1)
        assert "result" in answer, (command, answer)
        assert answer["result"]["isError"] is True, (command, text_of(answer))
        assert_one_sentence_naming(text_of(answer), name)
        saved = server.run("command_run", {"id": "project.save",
                                           "params": {"path": str(tmp_path / "p.rvproj")}})
        assert saved["isError"] is False, (command, saved["content"][0]["text"])
        listed = server.run("command_run", {"id": "comp.list"})
        assert listed["isError"] is False, (command, listed["content"][0]["text"])
        inspected = server.run("doc_inspect", {})
        assert inspected["isError"] is False, (command, inspected["content"][0]["text"])
    # What was saved is a project rendervisor reads back, unchanged by the refusals.
    opened = server.run("command_run", {"id": "project.open",
                                        "params": {"path": str(tmp_path / "p.rvproj")}})
    assert opened["isError"] is False
    overview = server.run("doc_inspect", {})["structuredContent"]
    assert [c["name"] for c in overview["comps"]] == ["Main"]
    assert [layer["name"] for layer in overview["comps"][0]["layers"]] == ["Red"]


def test_a_tool_argument_that_is_not_finite_is_refused_naming_it(project):
    server, paths = project
    server.send(line(7, "render_preview", {"comp": "Main", "time": "__NaN__"}, paths))
    answer = server.wait_for(7)
    message = answer["error"]["message"] if "error" in answer else text_of(answer)
    assert_one_sentence_naming(message, "time")
    assert server.run("render_preview", {"comp": "Main", "time": 0.5})["isError"] is False


def _layer(doc):
    return doc["comps"][0]["layers"][0]


@pytest.mark.parametrize("poison,place", [
    (lambda doc: doc["comps"][0].update(duration=float("nan")), "comps[0].duration"),
    (lambda doc: _layer(doc)["transform"]["rotation"]["keys"][0].update(time="__1e999__"),
     "comps[0].layers[0].transform.rotation.keys[0].time"),
    (lambda doc: _layer(doc)["transform"].update(scale=[100, float("-inf")]),
     "comps[0].layers[0].transform.scale"),
    (lambda doc: _layer(doc)["effects"][0]["params"].update(radius=float("nan")),
     "comps[0].layers[0].effects[0].params.radius"),
    (lambda doc: doc["renderQueue"][0]["codecOptions"].update(crf=float("inf")),
     "renderQueue[0].codecOptions"),
])
def test_a_project_file_holding_one_is_refused_at_open_with_one_sentence(
        shared_server, tmp_path, poison, place):
    server = shared_server  # the module's one server, on a new project (tests/conftest.py)
    server.run("command_batch", {"steps": [
        {"id": "comp.new", "params": {"name": "Main", "width": 64, "height": 36,
                                      "duration": 1}},
        {"id": "layer.add", "params": {"comp": "Main", "type": "solid", "color": [1, 0, 0]}},
        {"id": "effect.add", "params": {"comp": "Main", "layer": 1, "effect": "gaussianBlur"}},
        {"id": "prop.addKey", "params": {"comp": "Main", "layer": 1,
                                         "path": "transform.rotation", "time": 0,
                                         "value": 0}},
        {"id": "renderQueue.add", "params": {"comp": "Main", "output": "out.mp4"}},
        {"id": "project.save", "params": {"path": str(tmp_path / "good.rvproj")}},
    ]})
    doc = json.loads((tmp_path / "good.rvproj").read_text())
    poison(doc)
    # json writes NaN and Infinity as those literals; 1e999 is put in by hand.
    text = json.dumps(doc, indent=2).replace(json.dumps("__1e999__"), "1e999")
    (tmp_path / "bad.rvproj").write_text(text)
    answer = server.run("command_run", {"id": "project.open",
                                        "params": {"path": str(tmp_path / "bad.rvproj")}})
    assert answer["isError"] is True
    message = answer["content"][0]["text"]
    assert place in message and "bad.rvproj" in message, message
    assert_one_sentence_naming(message, place)
    # The session kept its project and still serves it.
    assert server.run("command_run", {"id": "project.save", "params": {}})["isError"] is False
    assert server.run("command_run", {"id": "comp.list"})["isError"] is False
    assert server.run("doc_inspect", {})["isError"] is False


def test_nan_and_infinity_literals_at_the_front_door_never_break_the_session(server):
    """The JSON-RPC layer parses these literals; an id holding one is no usable id, and one in
    params reaches the tool's own check. Either way an answer, and the next ping works."""
    server.send('{"jsonrpc": "2.0", "id": NaN, "method": "ping"}')
    server.send('{"jsonrpc": "2.0", "id": 1e999, "method": "ping"}')
    server.send('{"jsonrpc": "2.0", "id": 5, "method": "ping", "params": {"x": -Infinity,'
                ' "_meta": {"progressToken": NaN}}}')
    server.send('{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": '
                '"nope", "arguments": {"a": NaN}}}')
    assert server.wait_for(5)["result"] == {}
    assert server.wait_for(6)["error"]["code"] == -32602
    assert server.wait_for(server.request("ping"))["result"] == {}
    refusals = [m for m in server.messages if m.get("id") is None and "error" in m]
    assert [m["error"]["code"] for m in refusals] == [-32600, -32600]
    assert not server.bad_lines
