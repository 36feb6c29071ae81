"""Fixtures shared by the reliability tests: one long-lived server per module, and the checks
that nothing was left behind (processes, descriptors, temporary files)."""

from __future__ import annotations

import pytest

from tests.helpers.mcp_process import McpProcess


@pytest.fixture(scope="module")
def confined_root(tmp_path_factory):
    """A folder the fuzzed server may read and write; nothing outside it is reachable."""
    root = tmp_path_factory.mktemp("fuzz-root")
    (root / "a.txt").write_text("alpha\nbeta\n")
    return root


@pytest.fixture(scope="module")
def long_lived_server(confined_root):
    """One `rendervisor mcp` for a whole module: spawning one per hypothesis example would cost
    more than the examples themselves. Confined to `confined_root`, so fuzzed tool calls can
    neither run a shell (--shell off) nor write outside it."""
    server = McpProcess("--read-root", str(confined_root), "--write-root", str(confined_root),
                        "--shell", "off")
    server.initialize()
    yield server
    server.stop()
