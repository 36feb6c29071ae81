"""The official MCP Python SDK, as an independent client, drives `rendervisor mcp` over stdio:
the legacy initialize handshake and the 2026-07-28 server/discover era alike."""

import base64
import sys

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

SERVER = StdioServerParameters(command=sys.executable, args=["-m", "supervisor.cli", "mcp"])


def run(coroutine_function):
    return anyio.run(coroutine_function)


def test_sdk_client_initializes_lists_tools_and_calls_read_file_and_shell(tmp_path):
    (tmp_path / "note.txt").write_text("from a file\n")

    async def session():
        async with stdio_client(SERVER) as (read, write):
            async with ClientSession(read, write) as client:
                initialized = await client.initialize()
                assert initialized.server_info.name == "rendervisor"
                tools = await client.list_tools()
                names = {tool.name for tool in tools.tools}
                assert {"read_file", "shell", "command_run", "render_preview"} <= names
                read = await client.call_tool("read_file", {"path": str(tmp_path / "note.txt")})
                assert not read.is_error
                assert read.content[0].text == "from a file\n"
                seen = []

                async def on_progress(progress, total, message):
                    seen.append((progress, message))

                shell = await client.call_tool(
                    "shell", {"command": "for i in 1 2 3; do echo n$i; sleep 0.15; done"},
                    progress_callback=on_progress)
                assert not shell.is_error
                assert shell.structured_content["stdout"] == "n1\nn2\nn3\n"
                assert shell.structured_content["exit_code"] == 0
                assert seen and all(message.startswith("n") for _, message in seen)
                return True

    assert run(session)


def test_sdk_client_speaks_the_stateless_2026_era_through_server_discover():
    async def session():
        async with stdio_client(SERVER) as (read, write):
            async with ClientSession(read, write) as client:
                discovered = await client.discover()
                assert "2026-07-28" in discovered.supported_versions
                # 2026-07-28 names the server in _meta, where the SDK reads it
                assert client.server_info.name == "rendervisor"
                tools = await client.list_tools()
                assert any(tool.name == "list_dir" for tool in tools.tools)
                listed = await client.call_tool("list_dir", {"path": "/"})
                assert not listed.is_error
                return True

    assert run(session)


def test_sdk_client_sees_a_filmstrip_checks_the_layout_and_reads_the_guide_and_prompts():
    steps = [
        {"id": "comp.new", "params": {"name": "Main", "width": 640, "height": 360,
                                      "duration": 2, "background": "#000000"}},
        {"id": "layer.add", "params": {"comp": "$0.comp", "type": "text", "name": "Title",
                                       "text": "A TITLE TOO WIDE FOR ITS FRAME", "size": 60}},
        {"id": "preset.apply", "params": {"comp": "$0.comp", "layer": "$1.layer",
                                          "preset": "fadeIn"}},
    ]

    async def session():
        async with stdio_client(SERVER) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                built = await client.call_tool("command_batch", {"steps": steps})
                assert not built.is_error and built.structured_content["failed"] == 0
                strip = await client.call_tool("render_filmstrip",
                                               {"comp": "Main", "count": 4})
                assert not strip.is_error
                image = strip.content[0]
                assert image.type == "image" and image.mime_type == "image/png"
                assert base64.b64decode(image.data)[:8] == b"\x89PNG\r\n\x1a\n"
                assert [cell["frame"] for cell in strip.structured_content["frames"]] == [
                    0, 20, 39, 59]
                checked = await client.call_tool("layout_check", {"comp": "Main"})
                assert not checked.is_error
                (found,) = checked.structured_content["findings"]
                assert (found["layer"], found["kind"]) == ("Title", "offCanvas")
                guide = await client.read_resource("rendervisor://guide")
                assert "layout_check" in guide.contents[0].text
                prompts = await client.list_prompts()
                assert "title-card" in {prompt.name for prompt in prompts.prompts}
                recipe = await client.get_prompt("title-card", {"title": "Hello"})
                assert "command_batch" in recipe.messages[0].content.text
                return True

    assert run(session)
