"""Parenting through the real server, as After Effects' parent setter does it: a child given a
parent stays where it is on screen (its transform is converted into the parent's space, keys
included), and `keepTransform: false` keeps the values and lets it jump."""

import base64
import io

import av
import numpy as np
import pytest


@pytest.fixture
def server(shared_server):
    """The module's one server on a new project (tests/conftest.py)."""
    return shared_server


BUILD = [
    {"id": "comp.new", "params": {"name": "Main", "width": 320, "height": 180,
                                  "background": "#000000", "duration": 2}},
    {"id": "layer.add", "params": {"comp": "Main", "type": "null", "name": "Rig",
                                   "position": [200, 60], "rotation": 30,
                                   "scale": [150, 150]}},
    {"id": "layer.add", "params": {"comp": "Main", "type": "solid", "name": "Box",
                                   "color": "#ff0000", "width": 40, "height": 20,
                                   "rotation": 10}},
    {"id": "prop.addKey", "params": {"comp": "Main", "layer": "Box",
                                     "path": "transform.position", "time": 0,
                                     "value": [60, 90]}},
    {"id": "prop.addKey", "params": {"comp": "Main", "layer": "Box",
                                     "path": "transform.position", "time": 2,
                                     "value": [260, 120]}},
]


def frame(server, time):
    result = server.run("render_preview", {"comp": "Main", "time": time, "max_side": 0})
    data = base64.b64decode(result["content"][0]["data"])
    with av.open(io.BytesIO(data), format="png_pipe") as container:
        return next(container.decode(video=0)).to_ndarray(format="rgba").astype(int)


def differing(a, b):
    """Pixels that differ by more than antialiasing's rounding at the box's edges."""
    return int((np.abs(a - b).max(axis=2) > 40).sum())


def test_a_child_given_a_parent_stays_where_it_is_on_screen(server):
    assert server.run("command_batch", {"steps": BUILD})["structuredContent"]["failed"] == 0
    before = [frame(server, time) for time in (0.0, 1.0, 1.9)]
    result = server.run("command_run", {"id": "layer.set", "params": {
        "comp": "Main", "layer": "Box", "parent": "Rig"}})
    assert not result["isError"], result
    after = [frame(server, time) for time in (0.0, 1.0, 1.9)]
    for shown, kept in zip(before, after):
        assert differing(shown, kept) <= 8, "the child moved on screen"
    unparented = server.run("command_run", {"id": "layer.set", "params": {
        "comp": "Main", "layer": "Box", "parent": None}})
    assert not unparented["isError"]
    assert differing(frame(server, 1.0), before[1]) <= 8, "unparenting keeps it too"


def test_keep_transform_false_keeps_the_values_and_the_child_jumps(server):
    assert server.run("command_batch", {"steps": BUILD})["structuredContent"]["failed"] == 0
    before = frame(server, 1.0)
    result = server.run("command_run", {"id": "layer.set", "params": {
        "comp": "Main", "layer": "Box", "parent": "Rig", "keepTransform": False}})
    assert not result["isError"], result
    got = server.run("command_run", {"id": "layer.get", "params": {
        "comp": "Main", "layer": "Box"}})["structuredContent"]
    keys = got["layer"]["transform"]["position"]["keys"] if "layer" in got else \
        got["transform"]["position"]["keys"]
    assert [key["value"] for key in keys] == [[60, 90], [260, 120]]
    assert differing(frame(server, 1.0), before) > 200, "the child should jump"
