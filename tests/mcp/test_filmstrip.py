"""render_filmstrip through the real server: one labelled contact sheet whose cells show a
moving layer where its keys put it, drawn beside idle render workers but never in a running
render's way, bounded by the preview deadline."""

import base64
import io
import json
import re
import time

import av
import numpy as np
import psutil
import pytest

from protocol.model.sheet_grid import LABEL_HEIGHT, PADDING
from tests.helpers.conditions import wait_until
from tests.helpers.mcp_process import McpProcess

# A 40x40 red square moving from x 20 to x 620 (its center) over a 2 s comp, linearly: at comp
# time t its center is at 20 + 600 t / LAST.
LAST = 59 / 30
MOVING = [
    {"id": "comp.new", "params": {"name": "Main", "width": 640, "height": 360, "duration": 2,
                                  "background": "#000000"}},
    {"id": "layer.add", "params": {"comp": "$0.comp", "type": "solid", "name": "Square",
                                   "color": "#ff0000", "width": 40, "height": 40}},
    {"id": "prop.addKey", "params": {"comp": "$0.comp", "layer": 1, "path": "transform.position",
                                     "time": 0, "value": [20, 180]}},
    {"id": "prop.addKey", "params": {"comp": "$0.comp", "layer": 1, "path": "transform.position",
                                     "time": LAST, "value": [620, 180]}},
]


def decode_png(data: str) -> np.ndarray:
    """Decoded by FFmpeg (PyAV), independent of the Skia that encoded it."""
    with av.open(io.BytesIO(base64.b64decode(data)), format="png_pipe") as container:
        return next(container.decode(video=0)).to_ndarray(format="rgba")


def build(server, steps=MOVING):
    result = server.run("command_batch", {"steps": steps})
    assert result["structuredContent"]["failed"] == 0, result


def cell(sheet: np.ndarray, info: dict, entry: dict) -> tuple[np.ndarray, np.ndarray]:
    """(the frame, its label strip) of one cell of the sheet."""
    width, height = info["cellWidth"], info["cellHeight"]
    left = PADDING + entry["column"] * (width + PADDING)
    top = PADDING + entry["row"] * (height + LABEL_HEIGHT + PADDING)
    return (sheet[top:top + height, left:left + width],
            sheet[top + height:top + height + LABEL_HEIGHT, left:left + width])


def test_a_filmstrip_of_six_frames_is_one_sheet_showing_the_layer_where_its_keys_put_it(server):
    build(server)
    result = server.run("render_filmstrip", {"comp": "Main", "count": 6})
    assert result["isError"] is False
    image, text = result["content"]
    assert image["type"] == "image" and image["mimeType"] == "image/png"
    info = json.loads(text["text"])
    assert info == result["structuredContent"]
    assert [entry["frame"] for entry in info["frames"]] == [0, 12, 24, 35, 47, 59]
    assert [entry["time"] for entry in info["frames"]] == pytest.approx(
        [frame / 30 for frame in (0, 12, 24, 35, 47, 59)])
    assert (info["columns"], info["rows"]) == (3, 2)
    sheet = decode_png(image["data"])
    assert sheet.shape == (info["height"], info["width"], 4)
    scale = info["cellWidth"] / 640
    labels = []
    for entry in info["frames"]:
        frame, label = cell(sheet, info, entry)
        red = (frame[..., 0] > 200) & (frame[..., 1] < 60)
        ys, xs = np.nonzero(red)
        expected = 20 + 600 * entry["time"] / LAST
        visible = np.clip([expected - 20, expected + 20], 0, 640)  # the square's part in view
        assert xs.min() / scale == pytest.approx(visible[0], abs=3)
        assert (xs.max() + 1) / scale == pytest.approx(visible[1], abs=3)
        assert (ys.min() / scale, (ys.max() + 1) / scale) == (pytest.approx(160, abs=3),
                                                              pytest.approx(200, abs=3))
        # Light text on the sheet's dark ground under every cell.
        ink = label[..., :3].max(axis=2) > 128
        assert ink.sum() > 100
        labels.append(ink)
    assert all(not np.array_equal(a, b) for a, b in zip(labels, labels[1:]))


def test_given_times_are_shown_at_their_frames_in_the_columns_asked(server):
    build(server)
    result = server.run("render_filmstrip", {"comp": "Main", "times": [1.0, 0.1, 1.99],
                                             "columns": 1, "max_side": 600})
    info = result["structuredContent"]
    # 0.1 s is frame 3 (0.1 x 30 is 3.0000000000000004), 1.99 s frame 59: floored.
    assert [(e["frame"], e["row"], e["column"]) for e in info["frames"]] == [
        (30, 0, 0), (3, 1, 0), (59, 2, 0)]
    assert max(info["width"], info["height"]) <= 600


@pytest.mark.parametrize("arguments, message", [
    ({"comp": "Main", "times": [2.5]}, "time 2.5 is outside comp 'Main'"),
    ({"comp": "Main", "count": 4, "times": [0]}, "give count or times, not both."),
    ({"comp": "Nope"}, "Main"),
])
def test_bad_filmstrip_arguments_are_one_sentence(server, arguments, message):
    build(server)
    result = server.run("render_filmstrip", arguments)
    assert result["isError"] is True
    assert message in result["content"][0]["text"]


def test_a_count_past_the_limit_is_refused_before_any_work(server):
    build(server)
    """The tool's schema bounds count, and the front door enforces it (-32602, one sentence)."""
    answer = server.wait_for(server.call("render_filmstrip", {"comp": "Main", "count": 37}))
    assert answer["error"] == {"code": -32602, "message": (
        "Argument 'count' of tool render_filmstrip must be at most 36, got 37.")}


def worker_cpu(server) -> dict[int, float]:
    """CPU seconds of each worker process (the forkserver's children)."""
    seconds = {}
    for child in psutil.Process(server.process.pid).children():
        for worker in child.children():
            try:
                seconds[worker.pid] = sum(worker.cpu_times()[:2])
            except psutil.NoSuchProcess:
                pass
    return seconds


HEAVY_FRAMES = [
    {"id": "comp.new", "params": {"name": "Blurry", "width": 1280, "height": 720,
                                  "duration": 1}},
    {"id": "layer.add", "params": {"comp": "$0.comp", "type": "solid", "color": "#3366ff",
                                   "width": 600, "height": 300}},
    {"id": "effect.add", "params": {"comp": "$0.comp", "layer": 1, "effect": "gaussianBlur",
                                    "params": {"radius": 120}}},
    {"id": "prop.addKey", "params": {"comp": "$0.comp", "layer": 1, "path": "transform.rotation",
                                     "time": 0, "value": 0}},
    {"id": "prop.addKey", "params": {"comp": "$0.comp", "layer": 1, "path": "transform.rotation",
                                     "time": 1, "value": 90}},
]


@pytest.mark.server_args("--workers", "2")
def test_frames_are_drawn_on_idle_render_workers_beside_the_preview_worker(server, tmp_path):
    build(server, HEAVY_FRAMES)
    # The preview worker is started in the background at start: be sure it is up (and so
    # known) before the render starts the render workers, the processes new after it.
    server.run("render_preview", {"comp": "Blurry", "max_side": 64})
    before_render = set(worker_cpu(server))
    server.run("command_run", {"id": "renderQueue.add", "params": {
        "comp": "Blurry", "format": "png", "frames": "0-1",
        "output": str(tmp_path / "b_[####].png")}})
    rendered = server.run("command_run", {"id": "renderQueue.render"}, timeout=120)
    assert rendered["structuredContent"]["completed"] == 1
    render_workers = set(worker_cpu(server)) - before_render
    assert render_workers, "the render started its workers"
    time.sleep(0.5)
    idle = worker_cpu(server)
    result = server.run("render_filmstrip", {"comp": "Blurry", "count": 12, "max_side": 4096},
                        timeout=120)
    assert result["isError"] is False
    after = worker_cpu(server)
    spent = {pid: after[pid] - idle.get(pid, 0) for pid in after}
    # A share of the strip's CPU, not seconds: a faster machine draws it in less (here the
    # busiest render worker spent 1.35 s of 2 s, and 0.3 s of it was the bound, which a machine
    # five times faster would not reach); a worker left idle spends next to nothing.
    drew = [pid for pid in render_workers if spent.get(pid, 0) > 0.1 * sum(spent.values())]
    assert drew, (spent, render_workers)


def test_a_running_render_never_delays_a_filmstrip(server, tmp_path):
    steps = [
        {"id": "comp.new", "params": {"name": "Long", "width": 640, "height": 360,
                                      "duration": 60, "frameRate": 30}},
        {"id": "layer.add", "params": {"comp": "$0.comp", "type": "solid", "color": "#3366ff"}},
        {"id": "effect.add", "params": {"comp": "$0.comp", "layer": 1,
                                        "effect": "gaussianBlur", "params": {"radius": 40}}},
        {"id": "renderQueue.add", "params": {"comp": "$0.comp", "format": "png",
                                             "output": str(tmp_path / "long_[#####].png")}},
    ]
    build(server, steps)
    started = server.run("command_run", {"id": "renderQueue.render", "params": {"wait": False}})
    assert started["isError"] is False
    # The render workers are busy now.
    wait_until(lambda: any(tmp_path.glob("long_*.png")), 120, "the render wrote no frame")
    began = time.monotonic()
    result = server.run("render_filmstrip", {"comp": "Long", "count": 4, "max_side": 512},
                        timeout=60)
    # Four small frames on the preview worker: a second or two idle, where waiting for the
    # render's workers would take the render's whole length (still rendering, below).
    assert time.monotonic() - began < 30.0
    assert result["isError"] is False and len(result["structuredContent"]["frames"]) == 4
    listing = server.run("command_run", {"id": "renderQueue.list"})["structuredContent"]
    assert any(item.get("status") == "rendering" for item in listing["items"]), listing
    server.run("command_run", {"id": "renderQueue.stop"})


def test_frames_past_the_preview_deadline_fail_the_filmstrip_in_one_sentence(tmp_path):
    """The preview deadline (5 s here) holds every filmstrip frame, on the preview worker and on
    a borrowed render worker alike; this 4096x4096 frame with a 64-sample motion blur of a huge
    blur takes most of a minute. A render first starts the one render worker, idle after it.
    The same frame at max_side 256 takes a fraction of a second idle: 5 s leave it room on a
    busy machine."""
    server = McpProcess("--workers", "1", env={"RENDERVISOR_PREVIEW_DEADLINE": "5"})
    try:
        server.initialize()
        build(server, MOVING + [{"id": "renderQueue.add", "params": {
            "comp": "Main", "format": "png", "frames": "0",
            "output": str(tmp_path / "m_[####].png")}}])
        rendered = server.run("command_run", {"id": "renderQueue.render"}, timeout=120)
        assert rendered["structuredContent"]["completed"] == 1
        build(server, [
            {"id": "comp.new", "params": {"name": "Heavy", "width": 4096, "height": 4096,
                                          "duration": 1}},
            {"id": "comp.set", "params": {"comp": "Heavy", "motionBlur": {
                "enabled": True, "samples": 64, "shutterAngle": 360}}},
            {"id": "layer.add", "params": {"comp": "Heavy", "type": "solid",
                                           "color": "#3366ff"}},
            {"id": "effect.add", "params": {"comp": "Heavy", "layer": 1,
                                            "effect": "gaussianBlur",
                                            "params": {"radius": 400}}},
            {"id": "prop.addKey", "params": {"comp": "Heavy", "layer": 1,
                                             "path": "transform.rotation", "time": 0,
                                             "value": 0}},
            {"id": "prop.addKey", "params": {"comp": "Heavy", "layer": 1,
                                             "path": "transform.rotation", "time": 1,
                                             "value": 360}}])
        began = time.monotonic()
        result = server.run("render_filmstrip", {"comp": "Heavy", "times": [0.5, 0.8],
                                                 "columns": 1, "max_side": 4096}, timeout=90)
        # Deadline and teardown: 6 s idle; the frame itself: most of a minute idle, and then it
        # would be no error.
        assert time.monotonic() - began < 60
        assert result["isError"] is True
        text = result["content"][0]["text"]
        assert re.fullmatch(r"Drawing comp 'Heavy' at 0\.[58] s took longer than the 5 s "
                            r"preview deadline, so the (preview|render) worker was stopped and "
                            r"replaced; simplify the comp .* or lower max_side or count, then "
                            r"try again\.", text), text
        # As the sentence says: a lower max_side draws the same comp within the deadline.
        smaller = server.run("render_filmstrip", {"comp": "Heavy", "times": [0.5],
                                                  "max_side": 256}, timeout=60)
        assert smaller["isError"] is False, smaller["content"][0]["text"]
    finally:
        server.stop()
