"""The MCP tools. Importing this package registers every tool in registry.TOOLS."""

from supervisor.mcp.tools import (  # noqa: F401  (registration)
    engine_tools, file_tools, preview_tool, filmstrip_tool, layout_tool, shell_tool)
