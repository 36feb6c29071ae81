"""Which lane a render call runs in: a blocking render in the long lane (let finish on stdin
EOF, never filling the quick lane), everything else in the quick lane."""

import pytest

from supervisor.mcp.tools.engine_tools import command_batch_lane, command_run_lane


@pytest.mark.parametrize("command,params,lane", [
    ("renderQueue.render", {}, "render"),
    ("renderQueue.render", {"wait": True}, "render"),
    ("renderQueue.render", {"wait": False}, "quick"),
    ("comp.saveFrameAs", {"time": 1}, "render"),
    ("comp.saveFrameAs", {"queue": True}, "quick"),
    ("render.preRender", {"comp": "Main"}, "render"),
    ("file.createProxy", {"comp": "Main"}, "render"),
    ("renderQueue.stop", {}, "quick"),
    ("renderQueue.list", {}, "quick"),
    ("layer.add", {"comp": "Main"}, "quick"),
])
def test_command_run_lane(command, params, lane):
    assert command_run_lane({"id": command, "params": params}) == lane


def test_a_batch_holding_a_blocking_render_runs_in_the_render_lane():
    steps = [{"id": "comp.new"}, {"id": "renderQueue.add", "params": {"comp": "$0.comp"}}]
    assert command_batch_lane({"steps": steps}) == "quick"
    assert command_batch_lane({"steps": steps + [{"id": "renderQueue.render"}]}) == "render"
    assert command_batch_lane({"steps": steps + [{"id": "renderQueue.render",
                                                  "params": {"wait": False}}]}) == "quick"
    assert command_batch_lane({"steps": "not a list"}) == "quick"
