"""The peer for scripts/bench_frontdoor.py: the official MCP Python SDK's MCPServer serving the
same two tools (read_file and shell) the way a straightforward SDK server would."""

import subprocess

from mcp.server.mcpserver import MCPServer

server = MCPServer("sdk-peer")


@server.tool()
def read_file(path: str) -> str:
    """Read a text file."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


@server.tool()
def shell(command: str, timeout: float = 120) -> dict:
    """Run a shell command."""
    try:
        done = subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True,
                              timeout=timeout)
        return {"exit_code": done.returncode, "stdout": done.stdout, "stderr": done.stderr,
                "timed_out": False}
    except subprocess.TimeoutExpired:
        return {"exit_code": None, "stdout": "", "stderr": "", "timed_out": True}


if __name__ == "__main__":
    server.run("stdio")
