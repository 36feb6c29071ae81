"""The inline player, ui://rendervisor/player: listed on render_filmstrip, served as an MCP App,
and played in a real browser by a small host page that speaks the MCP Apps protocol to it in a
sandboxed iframe, as hosts do."""

from __future__ import annotations

import numpy as np

from protocol.model.sheet_grid import LABEL_HEIGHT, PADDING
from tests.helpers.browser import shown_pixels
from tests.helpers.mcp_images import decode_png

PLAYER = "ui://rendervisor/player"

# A host's side of the MCP Apps protocol, enough for one tool call: answers ui/initialize,
# then sends the call's arguments and its result.
HOST = """
<iframe id="app" sandbox="allow-scripts" style="width: 600px; height: 400px"></iframe>
<script>
  window.heard = [];
  window.host = (player, args, result) => {
    const frame = document.getElementById("app");
    window.addEventListener("message", (event) => {
      if (event.source !== frame.contentWindow) return;
      const message = event.data;
      window.heard.push(message.method || "answer");
      const send = (value) => frame.contentWindow.postMessage(value, "*");
      if (message.method === "ui/initialize") {
        send({jsonrpc: "2.0", id: message.id, result: {
          protocolVersion: "2026-01-26", hostInfo: {name: "test host", version: "1"},
          hostCapabilities: {}, hostContext: {displayMode: "inline", theme: "dark"}}});
      } else if (message.method === "ui/notifications/initialized") {
        send({jsonrpc: "2.0", method: "ui/notifications/tool-input", params: {arguments: args}});
        send({jsonrpc: "2.0", method: "ui/notifications/tool-result", params: result});
      }
    });
    frame.srcdoc = player;
  };
</script>
"""

CANVAS = """(canvas) => canvas.toDataURL("image/png").split(",")[1]"""

def test_filmstrips_and_renders_are_tied_to_the_player_which_is_an_mcp_app(server):
    tools = server.wait_for(server.request("tools/list"))["result"]["tools"]
    by_name = {tool["name"]: tool for tool in tools}
    assert by_name["render_filmstrip"]["_meta"] == {"ui": {"resourceUri": PLAYER}}
    assert by_name["render_status"]["_meta"] == {"ui": {"resourceUri": PLAYER}}
    assert "_meta" not in by_name["shell"]  # other tools are shown as before
    read = server.wait_for(server.request("resources/read", {"uri": PLAYER}))["result"]
    content = read["contents"][0]
    assert content["uri"] == PLAYER and content["mimeType"] == "text/html;profile=mcp-app"
    assert content["text"].lstrip().lower().startswith("<!doctype html>")
    listed = server.wait_for(server.request("resources/list"))["result"]["resources"]
    assert PLAYER in [resource["uri"] for resource in listed]


def played(page, server, arguments: dict, result: dict):
    """The player in a host page, handed this call's arguments and result; its frame."""
    player = server.wait_for(server.request("resources/read", {"uri": PLAYER}))
    page.set_content(HOST)
    page.evaluate("([player, args, result]) => window.host(player, args, result)",
                  [player["result"]["contents"][0]["text"], arguments, result])
    return page.frame_locator("#app")


def test_the_player_plays_a_filmstrip_its_host_hands_it(server, page):
    server.run("command_batch", {"steps": [
        {"id": "comp.new", "params": {"name": "Main", "width": 96, "height": 54,
                                      "duration": 1}},
        {"id": "layer.add", "params": {"comp": "Main", "type": "solid", "color": "#102030"}},
        {"id": "layer.add", "params": {"comp": "Main", "type": "shape", "shape": "rect",
                                       "name": "Box", "size": [20, 20], "fill": "#ffcc33"}},
        {"id": "prop.addKey", "params": {"comp": "Main", "layer": "Box",
                                         "path": "transform.position", "time": 0,
                                         "value": [10, 27]}},
        {"id": "prop.addKey", "params": {"comp": "Main", "layer": "Box",
                                         "path": "transform.position", "time": 1,
                                         "value": [86, 27]}}]})
    arguments = {"comp": "Main", "count": 6, "columns": 3}  # two rows of three
    result = server.run("render_filmstrip", arguments)
    info = result["structuredContent"]
    sheet = decode_png(next(block["data"] for block in result["content"]
                            if block["type"] == "image"))
    app = played(page, server, arguments, result)
    screen = app.locator("#screen")
    screen.wait_for(timeout=30_000)
    assert page.evaluate("window.heard")[:2] == ["ui/initialize", "ui/notifications/initialized"]

    def shown() -> np.ndarray:
        return decode_png(screen.evaluate(CANVAS))

    def cell(index: int) -> np.ndarray:  # the sheet's own layout (sheet_grid.py)
        row, column = divmod(index, info["columns"])
        left = PADDING + column * (info["cellWidth"] + PADDING)
        top = PADDING + row * (info["cellHeight"] + LABEL_HEIGHT + PADDING)
        return sheet[top:top + info["cellHeight"], left:left + info["cellWidth"]]

    assert np.array_equal(shown(), cell(0))
    assert not np.array_equal(cell(0), cell(5))  # the box moves: the frames differ
    assert app.locator("#label").inner_text() == "Main · 0.00 s · frame 0"
    app.locator("button").click()  # play: frame by frame to the last
    last = info["frames"][-1]["frame"]
    app.locator(f"#screen[data-frame='{last}']").wait_for(timeout=30_000)
    assert np.array_equal(shown(), cell(5))
    assert "ui/notifications/size-changed" in page.evaluate("window.heard")
    assert app.locator("#label").inner_text().endswith(f"frame {last}")


def test_the_player_shows_a_finished_renders_picture_and_file(server, page, tmp_path):
    server.run("command_batch", {"steps": [
        {"id": "comp.new", "params": {"name": "Main", "width": 64, "height": 36,
                                      "duration": 0.2}},
        {"id": "layer.add", "params": {"comp": "Main", "type": "solid", "color": "#d04020"}},
        {"id": "renderQueue.add", "params": {"comp": "Main",
                                             "output": str(tmp_path / "out.mp4")}}]})
    job = server.run("render_start", {})["structuredContent"]["job"]
    arguments = {"job": job, "wait": 30}
    result = server.run("render_status", arguments, timeout=120)
    while result["structuredContent"]["state"] == "rendering":
        result = server.run("render_status", arguments, timeout=120)
    assert result["structuredContent"]["state"] == "done"
    app = played(page, server, arguments, result)
    picture = app.locator(".pictures img")
    picture.wait_for(timeout=30_000)
    assert app.locator(".links li").inner_text().startswith("out.mp4 (")
    assert app.locator("#stage").inner_text().startswith("done · 6 of 6 frames")
    # The thumbnail shown is the render's: the solid's orange-red.
    pixels = shown_pixels(picture)
    assert abs(int(pixels[..., 0].mean()) - 0xd0) < 24 and pixels[..., 2].mean() < 80
