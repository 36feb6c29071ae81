"""The official MCP Python SDK, as an independent client, drives `rendervisor mcp` over stdio:
the legacy initialize handshake and the 2026-07-28 server/discover era alike."""

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
                tools = await client.list_tools()
                assert any(tool.name == "list_dir" for tool in tools.tools)
                listed = await client.call_tool("list_dir", {"path": "/"})
                assert not listed.is_error
                return True

    assert run(session)
