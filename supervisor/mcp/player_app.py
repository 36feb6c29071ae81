"""The inline player, an MCP App (the io.modelcontextprotocol/ui extension): the resource
ui://rendervisor/player, a page the host shows beside a tool's result, and the `_meta` that
ties a tool to it.

Hosts that show MCP Apps read the resource when they list the tools (or when a tool tied to it
is called), and hand the page the call's arguments and result over postMessage; the page plays
a filmstrip, or shows a render's pictures and output links. Hosts that do not know MCP Apps
ignore `_meta` and see the same result as before.
"""

from __future__ import annotations

import functools
from importlib.resources import files

PLAYER_URI = "ui://rendervisor/player"
PLAYER_MIME = "text/html;profile=mcp-app"
# A tool's `_meta` that shows its results in the player.
SHOWN_IN_PLAYER = {"ui": {"resourceUri": PLAYER_URI}}


@functools.cache
def player_html() -> str:
    return (files("supervisor.mcp") / "apps" / "player.html").read_text(encoding="utf-8")
