"""render_preview through the real server: PNG content, scaling, the cache, and independence
from the render workers."""

import json
import signal
import time

import psutil

from tests.helpers.conditions import wait_until
from tests.helpers.mcp_images import decode_png
from tests.helpers.render_sessions import read_png

BUILD = [
    {"id": "comp.new", "params": {"name": "Main", "width": 320, "height": 180,
                                  "background": "#000000", "duration": 2}},
    {"id": "layer.add", "params": {"comp": "$0.comp", "type": "solid", "color": "#ff0000",
                                   "width": 160, "height": 90}},
]


def build(server):
    result = server.run("command_batch", {"steps": BUILD})
    assert result["structuredContent"]["failed"] == 0


def test_preview_returns_a_png_of_the_frame_and_its_json(shared_server):
    build(shared_server)
    result = shared_server.run("render_preview", {"comp": "Main", "time": 0.5, "max_side": 0})
    image, text = result["content"]
    assert image["type"] == "image" and image["mimeType"] == "image/png"
    info = json.loads(text["text"])
    assert info == {"comp": "Main", "time": 0.5, "frame": 15, "width": 320, "height": 180}
    pixels = decode_png(image["data"])
    assert pixels.shape == (180, 320, 4)
    # The centered 160x90 red solid covers exactly x 80..239, y 45..134.
    assert (pixels[45:135, 80:240, :3] == [255, 0, 0]).all()
    assert (pixels[:45, :, :3] == 0).all() and (pixels[:, :80, :3] == 0).all()


def test_max_side_scales_the_longer_side(shared_server):
    build(shared_server)
    result = shared_server.run("render_preview", {"max_side": 160})
    info = result["structuredContent"]
    assert (info["width"], info["height"]) == (160, 90)
    assert decode_png(result["content"][0]["data"]).shape == (90, 160, 4)


def test_a_repeated_preview_is_served_from_the_cache_without_the_worker(server):
    build(server)
    first = server.run("render_preview", {"time": 1.0})
    preview_workers = [p for p in psutil.Process(server.process.pid).children(recursive=True)
                       if "python" in p.name()]
    # Freeze every worker: only the cache can answer now.
    for process in preview_workers:
        process.send_signal(signal.SIGSTOP)
    try:
        again = server.run("render_preview", {"time": 1.0}, timeout=10)
        assert again["content"][0]["data"] == first["content"][0]["data"]
    finally:
        for process in preview_workers:
            process.send_signal(signal.SIGCONT)


def test_an_edit_makes_a_new_preview(shared_server):
    build(shared_server)
    before = shared_server.run("render_preview", {"max_side": 0})
    shared_server.run("command_run", {"id": "layer.set", "params": {
        "comp": "Main", "layer": 1, "color": "#00ff00"}})
    after = shared_server.run("render_preview", {"max_side": 0})
    assert decode_png(before["content"][0]["data"])[90, 160, 1] == 0
    assert decode_png(after["content"][0]["data"])[90, 160, 1] == 255


def test_a_new_or_opened_project_is_never_served_the_previous_ones_preview(server, tmp_path):
    """The same comp at the same time in another document: the worker's snapshot and the
    preview cache must both tell the documents apart."""
    def centre(result):
        return tuple(decode_png(result["content"][0]["data"])[90, 160, :3])

    build(server)
    saved = str(tmp_path / "red.rvproj")
    server.run("command_run", {"id": "project.save", "params": {"path": saved}})
    assert centre(server.run("render_preview", {"max_side": 0})) == (255, 0, 0)
    server.run("command_run", {"id": "project.new"})
    blue = [dict(step) for step in BUILD]
    blue[1] = {**BUILD[1], "params": {**BUILD[1]["params"], "color": "#0000ff"}}
    assert server.run("command_batch", {"steps": blue})["structuredContent"]["failed"] == 0
    assert centre(server.run("render_preview", {"max_side": 0})) == (0, 0, 255)
    server.run("command_run", {"id": "project.open", "params": {"path": saved}})
    assert centre(server.run("render_preview", {"max_side": 0})) == (255, 0, 0)


def test_a_preview_of_an_unknown_comp_is_an_error_naming_the_comps(shared_server):
    build(shared_server)
    result = shared_server.run("render_preview", {"comp": "Nope"})
    assert result["isError"] is True
    assert "Main" in result["content"][0]["text"]


def test_a_running_render_never_delays_a_preview(server, tmp_path):
    """Previews are drawn on their own worker: with every render worker busy on a long render,
    a preview still answers at once (the bound is generous for a loaded 2-core machine; a
    preview queued behind the render would take its whole length, tens of seconds)."""
    steps = [
        {"id": "comp.new", "params": {"name": "Long", "width": 640, "height": 360,
                                      "duration": 60, "frameRate": 30}},
        {"id": "layer.add", "params": {"comp": "$0.comp", "type": "solid", "color": "#3366ff"}},
        {"id": "effect.add", "params": {"comp": "$0.comp", "layer": 1,
                                        "effect": "gaussianBlur", "params": {"radius": 40}}},
        {"id": "renderQueue.add", "params": {"comp": "$0.comp", "format": "png",
                                             "output": str(tmp_path / "long_[#####].png")}},
    ]
    assert server.run("command_batch", {"steps": steps})["structuredContent"]["failed"] == 0
    started = server.run("command_run", {"id": "renderQueue.render",
                                         "params": {"wait": False}})
    assert started["isError"] is False
    # The render workers are busy now.
    wait_until(lambda: any(tmp_path.glob("long_*.png")), 120, "the render wrote no frame")
    began = time.monotonic()
    preview = server.run("render_preview", {"comp": "Long", "time": 30.0}, timeout=60)
    # Under a second idle; the render is still under way below.
    assert time.monotonic() - began < 30.0
    assert preview["structuredContent"]["frame"] == 900
    listing = server.run("command_run", {"id": "renderQueue.list"})["structuredContent"]
    assert any(item.get("status") == "rendering" for item in listing["items"]), listing
    server.run("command_run", {"id": "renderQueue.stop"})


def animated(server, tmp_path):
    """A 6 s comp at 30 fps whose box moves 10 px a frame, so each frame looks different."""
    result = server.run("command_batch", {"steps": [
        {"id": "comp.new", "params": {"name": "Move", "width": 320, "height": 180,
                                      "background": "#000000", "duration": 6}},
        {"id": "layer.add", "params": {"comp": "$0.comp", "type": "solid", "color": "#ffffff",
                                       "width": 10, "height": 180, "name": "Bar"}},
        {"id": "prop.addKey", "params": {"comp": "Move", "layer": "Bar", "time": 0,
                                         "path": "transform.position", "value": [5, 90]}},
        {"id": "prop.addKey", "params": {"comp": "Move", "layer": "Bar", "time": 1,
                                         "path": "transform.position", "value": [305, 90]}}]})
    assert result["structuredContent"]["failed"] == 0


def test_a_preview_shows_the_frame_a_render_writes_at_a_time_inside_it(server, tmp_path):
    animated(server, tmp_path)
    result = server.run("render_preview", {"comp": "Move", "time": 0.99, "max_side": 0})
    assert result["structuredContent"]["frame"] == 29
    still = tmp_path / "still.png"
    saved = server.run("command_run", {"id": "comp.saveFrameAs", "params": {
        "comp": "Move", "time": 0.99, "path": str(still)}})["structuredContent"]
    assert saved["frame"] == 29
    written = read_png(str(still))
    assert (decode_png(result["content"][0]["data"]) == written).all()
    by_frame = server.run("render_preview", {"comp": "Move", "frame": 29, "max_side": 0})
    assert by_frame["content"][0]["data"] == result["content"][0]["data"]
    assert by_frame["structuredContent"]["time"] == result["structuredContent"]["time"]


def test_a_preview_outside_the_comp_is_refused_in_one_sentence(shared_server, tmp_path):
    animated(shared_server, tmp_path)
    for arguments in ({"time": 6}, {"time": 7}, {"frame": 180}):
        answer = shared_server.wait_for(shared_server.call("render_preview",
                                                           {"comp": "Move", **arguments}))
        result = answer["result"]
        assert result["isError"], arguments
        text = result["content"][0]["text"]
        assert "outside comp 'Move'" in text and "0-179" in text, text
        assert "Traceback" not in text
    both = shared_server.wait_for(shared_server.call("render_preview", {"time": 1, "frame": 30}))
    assert both["result"]["isError"] and "a time or a frame" in both["result"]["content"][0]["text"]


def test_previews_after_prop_set_show_the_edit(shared_server):
    """The preview worker keeps one render plan per snapshot and comp (its layers' values
    resolved, their matrices evaluated, the still strip below kept as pixels): an edit makes a
    new snapshot, whose previews must show it, not the plan or the pixels kept before it."""
    steps = [
        *BUILD[:1],
        {"id": "layer.add", "params": {"comp": "$0.comp", "type": "solid", "name": "Strip",
                                       "color": "#0000ff", "width": 320, "height": 20}},
        {"id": "prop.set", "params": {"comp": "$0.comp", "layer": "Strip",
                                      "path": "transform.position", "value": [160, 170]}},
        {"id": "layer.add", "params": {"comp": "$0.comp", "type": "solid", "name": "Box",
                                       "color": "#ff0000", "width": 40, "height": 40}},
        {"id": "prop.set", "params": {"comp": "$0.comp", "layer": "Box",
                                      "path": "transform.position", "value": {"keys": [
                                          {"time": 0, "value": [40, 90]},
                                          {"time": 2, "value": [280, 90]}]}}},
    ]
    assert shared_server.run("command_batch", {"steps": steps})["structuredContent"]["failed"] == 0

    def preview(time):
        return decode_png(shared_server.run("render_preview", {"time": time, "max_side": 0})
                          ["content"][0]["data"])[..., :3].tolist()

    for time in (0.5, 1.5, 1.0):  # the plan compiled, the still strip drawn, timed and kept
        before = preview(time)
    assert before[90][160] == [255, 0, 0] and before[170][10] == [0, 0, 255]

    shared_server.run("command_run", {"id": "prop.set", "params": {
        "comp": "Main", "layer": "Box", "path": "transform.position", "value": [60, 40]}})
    moved = preview(1.0)
    assert moved[40][60] == [255, 0, 0] and moved[90][160] == [0, 0, 0]

    shared_server.run("command_run", {"id": "prop.set", "params": {
        "comp": "Main", "layer": "Strip", "path": "color", "value": "#00ff00"}})
    for time in (0.5, 1.5):
        recolored = preview(time)
        assert recolored[170][10] == [0, 255, 0] and recolored[40][60] == [255, 0, 0]
