"""Expressions through the real MCP server: set in a batch, tried with expression.check (on
the preview worker), shown by doc_inspect, drawn by render_preview where the expression puts
the layer, and a broken one answered with its sentence, never a traceback."""

import base64
import io
import json

import av
import numpy as np

STEPS = [
    {"id": "comp.new", "params": {"name": "Main", "width": 160, "height": 90, "duration": 2,
                                  "background": "#000000"}},
    {"id": "layer.add", "params": {"comp": "Main", "type": "solid", "name": "Dot",
                                   "color": "#ff0000", "width": 10, "height": 10}},
    {"id": "prop.setExpression", "params": {"comp": "Main", "layer": "Dot",
                                            "path": "transform.position",
                                            "expression": "[20 + time * 100, 45]"}},
]


def red_center_x(data: str) -> float:
    with av.open(io.BytesIO(base64.b64decode(data)), format="png_pipe") as container:
        pixels = next(container.decode(video=0)).to_ndarray(format="rgba")
    return float(np.flatnonzero(pixels[45, :, 0] > 200).mean())


def test_an_expression_set_checked_inspected_and_previewed_over_mcp(server):
    batch = server.run("command_batch", {"steps": STEPS})
    assert batch["structuredContent"]["failed"] == 0, batch
    checked = server.run("command_run", {"id": "expression.check", "params": {
        "comp": "Main", "layer": "Dot", "path": "transform.position"}})
    values = checked["structuredContent"]["values"]
    assert checked["structuredContent"]["ok"] is True and values[0] == {"time": 0,
                                                                      "value": [20, 45]}
    overview = server.run("doc_inspect", {})["structuredContent"]
    dot = overview["comps"][0]["layers"][0]
    assert dot["expressions"] == {"transform.position": "[20 + time * 100, 45]"}
    preview = server.run("render_preview", {"comp": "Main", "time": 0.5, "max_side": 0})
    assert preview["isError"] is False
    assert abs(red_center_x(preview["content"][0]["data"]) - 70) <= 1

    server.run("command_run", {"id": "prop.setExpression", "params": {
        "comp": "Main", "layer": "Dot", "path": "transform.position",
        "expression": "[nope, 45]"}})
    broken = server.run("render_preview", {"comp": "Main", "time": 0.5})
    text = broken["content"][0]["text"]
    assert broken["isError"] is True and "Traceback" not in text
    assert "The expression on transform.position of layer 'Dot' in comp 'Main' failed at " \
           "0.5 s (frame 15): ReferenceError: nope is not defined (line 1, column 2)" in text
    tried = server.run("command_run", {"id": "expression.check", "params": {
        "comp": "Main", "layer": "Dot", "path": "transform.position"}})
    assert tried["structuredContent"]["ok"] is False
    assert json.loads(tried["content"][0]["text"])["error"].startswith("The expression on")
