"""A temporary folder too long for the worker pool's socket (a Unix socket's path holds 107
bytes, and the forkserver's is made inside TMPDIR) is one sentence naming TMPDIR and exit 2,
from `render` and from `mcp`, not a report of a bug in rendervisor."""

import os
import subprocess
import sys

from tests.helpers.cli_projects import ROOT, error_lines, rendervisor


def long_folder(short_tmp_path) -> str:
    folder = os.path.join(str(short_tmp_path), "t" * (100 - len(str(short_tmp_path))))
    os.makedirs(folder)
    return folder


def assert_one_sentence_naming_tmpdir(stderr: str, folder: str) -> None:
    lines = error_lines(stderr)
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    assert "TMPDIR" in lines[0] and folder in lines[0] and "bug" not in lines[0], lines[0]


def test_render_with_a_temporary_folder_too_long_for_a_socket(short_tmp_path):
    folder = long_folder(short_tmp_path)
    result = rendervisor("render", os.path.join(ROOT, "examples", "title_card.rvproj"),
                         "--output", str(short_tmp_path / "t.mp4"),
                         env={**os.environ, "TMPDIR": folder})
    assert result.returncode == 2, result.stderr
    assert_one_sentence_naming_tmpdir(result.stderr, folder)
    assert not (short_tmp_path / "t.mp4").exists()


def test_mcp_with_a_temporary_folder_too_long_for_a_socket(short_tmp_path):
    folder = long_folder(short_tmp_path)
    result = subprocess.run([sys.executable, "-m", "supervisor.cli", "mcp"], input="",
                            cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "TMPDIR": folder})
    assert result.returncode == 2, result.stderr
    assert_one_sentence_naming_tmpdir(result.stderr, folder)
