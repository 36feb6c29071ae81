"""The MCP tools. Importing this package registers every tool in registry.TOOLS."""

from supervisor.tools import file_tools, shell_tool  # noqa: F401  (registration)

try:  # the engine tools arrive with the engine; the file and shell tools stand without them
    from supervisor.tools import engine_tools  # noqa: F401
except ImportError:  # pragma: no cover
    pass
