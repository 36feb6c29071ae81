"""The MCP tools. Importing this package registers every tool in registry.TOOLS."""

from supervisor.mcp.tools import (  # noqa: F401  (registration)
    audio_levels_tool, engine_tools, file_tools, filmstrip_tool, layout_tool, preview_tool,
    render_tools, shell_tool)
