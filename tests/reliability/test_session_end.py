"""A session leaves nothing behind when it ends, however it ends: no temporary file or folder
(multiprocessing's forkserver keeps its socket in one), no process."""

from __future__ import annotations

import os

import pytest

from tests.helpers.mcp_process import McpProcess
from tests.helpers.process_tree import tree_of


@pytest.mark.parametrize("ending", ["stdin closed", "SIGTERM"])
def test_a_session_that_ends_leaves_no_temporary_file_and_no_process(short_tmp_path, ending):
    private_tmp = short_tmp_path / "tmp"
    private_tmp.mkdir()
    server = McpProcess(env={"TMPDIR": str(private_tmp)})
    try:
        server.initialize()
        assert not server.run("shell", {"command": "echo warm"})["isError"]
        tree = tree_of(server.process.pid)
        workers = [tree.forkserver] + tree.workers
        if ending == "SIGTERM":
            server.process.terminate()
        else:
            server.close_stdin()
        # JOIN_GRACE and TEARDOWN_GRACE are not needed here (nothing is in flight); the bound
        # absorbs a loaded machine.
        assert server.process.wait(20) == 0
    finally:
        server.stop()
    leftovers = [os.path.join(root, name) for root, dirs, files in os.walk(private_tmp)
                 for name in dirs + files]
    assert leftovers == []
    for process in workers:
        process.wait(5) if process.is_running() else None
        assert not process.is_running() or process.status() == "zombie"
