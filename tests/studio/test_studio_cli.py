"""The studio's command-line doors refuse bad input with one line and exit 2."""

from __future__ import annotations

import socket

from tests.helpers.cli_projects import error_lines, rendervisor, small_project


def test_a_project_that_cannot_be_opened_is_one_line(tmp_path):
    done = rendervisor("studio", tmp_path / "missing.rvproj", timeout=60)
    assert done.returncode == 2
    [line] = error_lines(done.stderr)
    assert line.startswith("rendervisor studio: ") and "missing.rvproj" in line


def test_a_port_in_use_is_one_line(tmp_path):
    project = small_project(tmp_path / "p.rvproj")
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = rendervisor("studio", project, "--port", port, timeout=60)
    assert done.returncode == 2
    [line] = error_lines(done.stderr)
    assert line.startswith(f"rendervisor studio: the studio cannot listen on 127.0.0.1:{port}")


def test_a_studio_address_that_is_not_host_and_port_is_one_line():
    for bad in ("8123", "localhost:", "127.0.0.1:99999", "[::1]"):
        done = rendervisor("mcp", "--studio", bad, timeout=60)
        assert done.returncode == 2, bad
        [line] = error_lines(done.stderr)
        assert "is not HOST:PORT" in line, line
