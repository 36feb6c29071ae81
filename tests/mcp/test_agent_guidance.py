"""What teaches an agent through the real server: value formats in tools/list and the command
catalog, the rendervisor://guide resource, the prompts (whose recipes build clean comps), and
instructions that say what this session's roots allow."""

import json
import re

import av
import numpy as np
import pytest
import skia

from tests.helpers.mcp_process import McpProcess

COLOR = '"#rrggbb[aa]"'
GRADIENT = '{"type": "linear", "start": [x, y], "end": [x, y], "stops": [[0, COLOR], [1, COLOR]]}'
GRADIENT_EXAMPLE = '"stops": [[0, "#ff5f6d"], [1, "#ffc371"]]'
# Params that take a color in some command (text.addAnimator's properties and captions'
# style hold colors among others, and say so too).
COLOR_PARAMS = {"color", "fill", "stroke", "background", "properties", "style", "params"}


@pytest.fixture
def server(shared_server):
    """The module's one server on a new project (tests/conftest.py): the tests read what every
    session shows, and each recipe builds its own comp."""
    return shared_server


def catalog(server) -> dict:
    listed = server.run("command_list", {"schemas": True})["structuredContent"]
    return {entry["id"]: entry for entry in listed["commands"]}


def test_tools_list_carries_the_color_gradient_and_easing_formats(server):
    tools = {tool["name"]: tool for tool in
             server.wait_for(server.request("tools/list"))["result"]["tools"]}
    assert {"render_filmstrip", "layout_check"} <= set(tools)
    run = tools["command_run"]["description"]
    assert COLOR in run and GRADIENT in run and GRADIENT_EXAMPLE in run
    assert all(name in run for name in ("easeOut", "easyEase", '{"bezier": [x1, y1, x2, y2]}',
                                        '{"spring": {"stiffness"'))
    assert '"$0.comp"' in tools["command_batch"]["description"]
    for tool in tools.values():
        assert len(tool["description"]) > 60, tool["name"]
    assert "absolute path" in tools["read_file"]["inputSchema"]["properties"]["path"][
        "description"]


def test_every_color_fill_easing_and_path_param_in_the_catalog_says_its_format(server):
    commands = catalog(server)
    checked = 0
    for command in commands.values():
        for name, spec in command["schema"]["properties"].items():
            described = spec.get("description", "")
            if name in COLOR_PARAMS and ("color" in described or name in ("color", "fill",
                                                                            "stroke",
                                                                            "background")):
                assert COLOR in described or "[r, g, b]" in described, (command["id"], name)
                checked += 1
            if name == "interpolation":
                assert '{"bezier"' in described and "spring" in described, command["id"]
                checked += 1
    assert checked >= 12
    fill = commands["layer.add"]["schema"]["properties"]["fill"]["description"]
    assert GRADIENT in fill and GRADIENT_EXAMPLE in fill and COLOR in fill
    assert '"type": "radial", "center": [x, y], "radius": r' in fill
    points = commands["mask.add"]["schema"]["properties"]["points"]["description"]
    assert '"inTangents"' in points and 'e.g. a triangle {"points":' in points
    value = commands["prop.addKey"]["schema"]["properties"]["value"]["description"]
    assert COLOR in value and GRADIENT in value and '"points"' in value
    font = commands["layer.add"]["schema"]["properties"]["font"]["description"]
    assert "Roboto" in font and "Poppins" in font and "font.list" in font
    add = commands["layer.add"]["description"]
    assert "image sequence, which plays on a video layer" in add
    assert "alignment point" in add
    effect = commands["effect.add"]["schema"]["properties"]["params"]["description"]
    assert "dropShadow: color ([0, 0, 0, 0.75])" in effect and COLOR in effect


def test_every_file_param_in_the_catalog_says_how_its_path_is_written(server):
    paths = [(command["id"], name, spec.get("description", ""))
             for command in catalog(server).values()
             for name, spec in command["schema"]["properties"].items() if "x-path" in spec]
    assert len(paths) >= 8
    for command, name, described in paths:
        assert "absolute" in described, (command, name, described)
    assert ("captions.import", "path", "the caption file; an absolute file path") in paths


def test_the_guide_resource_is_a_short_how_to(server):
    resources = server.wait_for(server.request("resources/list"))["result"]["resources"]
    guide = next(r for r in resources if r["uri"] == "rendervisor://guide")
    assert guide["mimeType"] == "text/markdown"
    read = server.wait_for(server.request("resources/read", {"uri": "rendervisor://guide"}))
    (content,) = read["result"]["contents"]
    text = content["text"]
    assert content["mimeType"] == "text/markdown"
    assert len(text) < 5000  # it costs the agent's context
    for needed in ("(0, 0) top-left", "alignment point", "index 1 is the top",
                   "To fade a whole comp", "render_filmstrip", "layout_check",
                   "title-safe", GRADIENT, "preset.apply", "video layer"):
        assert needed in text, needed


def test_prompts_list_the_recipes_and_get_refuses_what_is_missing(server):
    listed = server.wait_for(server.request("prompts/list"))["result"]["prompts"]
    assert [prompt["name"] for prompt in listed] == [
        "title-card", "lower-third", "captioned-clip", "product-card", "animate-layer"]
    title = listed[0]
    assert {"name": "title", "description": "the title", "required": True} in \
        title["arguments"]
    missing = server.wait_for(server.request("prompts/get", {"name": "title-card",
                                                              "arguments": {}}))
    assert missing["error"]["code"] == -32602
    assert missing["error"]["message"] == "Prompt title-card needs 'title'."
    unknown = server.wait_for(server.request("prompts/get", {"name": "poster"}))
    assert unknown["error"]["code"] == -32602 and "title-card" in unknown["error"]["message"]


def write_clip(path, seconds=2, rate=10):
    """A bright 1920x1080 clip: captions over it must be readable by their outline."""
    with av.open(str(path), "w") as container:
        stream = container.add_stream("mpeg4", rate=rate)
        stream.width, stream.height, stream.pix_fmt = 1920, 1080, "yuv420p"
        for index in range(seconds * rate):
            pixels = np.full((1080, 1920, 3), 230 - index, dtype=np.uint8)
            for packet in stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def write_product(path):
    surface = skia.Surface(700, 700)
    canvas = surface.getCanvas()
    canvas.clear(skia.Color4f(0.95, 0.94, 0.92, 1))
    canvas.drawCircle(350, 350, 250, skia.Paint(AntiAlias=True, Color=skia.ColorSetRGB(200, 60,
                                                                                      40)))
    surface.makeImageSnapshot().save(str(path), skia.kPNG)


def recipe_batch(server, name, arguments) -> dict:
    got = server.wait_for(server.request("prompts/get", {"name": name,
                                                         "arguments": arguments}))
    (message,) = got["result"]["messages"]
    assert message["role"] == "user"
    text = message["content"]["text"]
    assert "layout_check" in text and "render_filmstrip" in text
    return json.loads(re.search(r"```json\n(.*?)\n```", text, re.S).group(1))


@pytest.mark.parametrize("name, arguments", [
    ("title-card", {"title": "Making Light Work", "subtitle": "A short explainer"}),
    ("lower-third", {"name": "Ada Lovelace", "role": "Analyst of engines"}),
    ("captioned-clip", {"video": "{clip}", "captions": "{srt}"}),
    ("product-card", {"product": "Trail Lamp", "price": "$49", "image": "{image}"}),
])
def test_every_recipe_builds_a_comp_that_layout_check_finds_clean(server, tmp_path, name,
                                                                  arguments):
    write_clip(tmp_path / "clip.mp4")
    (tmp_path / "clip.srt").write_text("1\n00:00:00,200 --> 00:00:01,800\nEvery picture "
                                       "tells a story\n")
    write_product(tmp_path / "lamp.png")
    files = {"clip": str(tmp_path / "clip.mp4"), "srt": str(tmp_path / "clip.srt"),
             "image": str(tmp_path / "lamp.png")}
    arguments = {key: value.format(**files) for key, value in arguments.items()}
    batch = recipe_batch(server, name, arguments)
    assert batch["atomic"] is True
    built = server.run("command_batch", batch, timeout=60)
    assert built["structuredContent"]["failed"] == 0, built
    comp = built["structuredContent"]["results"][0]["result"].get("comp") or \
        built["structuredContent"]["results"][1]["result"]["comp"]
    checked = server.run("layout_check", {"comp": comp}, timeout=120)
    assert checked["structuredContent"]["findings"] == [], checked
    strip = server.run("render_filmstrip", {"comp": comp, "count": 4}, timeout=120)
    assert strip["isError"] is False


def test_instructions_say_what_an_unconfined_session_allows(server):
    instructions = initialize_result(server)["instructions"]
    assert "rendervisor://guide" in instructions
    assert "not confined" in instructions
    assert "Commands run on the machine as the server's user" in instructions


def initialize_result(server) -> dict:
    return server.wait_for(server.request("initialize", {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "tests", "version": "1"}}))["result"]


def test_a_confined_sessions_instructions_name_its_roots_and_its_sandboxed_shell(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "out").mkdir()
    server = McpProcess("--read-root", str(tmp_path / "in"), "--write-root",
                        str(tmp_path / "out"))
    try:
        result = initialize_result(server)
        instructions = result["instructions"]
        assert "This session is confined: every path must be absolute" in instructions
        assert f"read only under {tmp_path / 'in'}, {tmp_path / 'out'}" in instructions
        assert f"written only under {tmp_path / 'out'}" in instructions
        assert "The shell tool: Commands run in a bubblewrap sandbox" in instructions
        assert result["capabilities"]["prompts"] == {"listChanged": False}
        tools = server.wait_for(server.request("tools/list"))["result"]["tools"]
        shell = next(tool for tool in tools if tool["name"] == "shell")
        assert "The server's instructions say what this session allows" in shell["description"]
        assert "bubblewrap sandbox" in shell["description"]
    finally:
        server.stop()
