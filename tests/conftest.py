import shutil
import tempfile
from pathlib import Path

import pytest

from tests.helpers.mcp_process import McpProcess
from tests.helpers.worker_pools import pool_context


@pytest.fixture(scope="session")
def worker_context():
    """(context, preload) for an in-process Pool (tests/helpers/worker_pools.py)."""
    return pool_context()


@pytest.fixture
def short_tmp_path():
    """A fresh folder with a short path, for a server whose TMPDIR it is: the forkserver's socket
    is made there, and a socket's path may not pass 107 bytes, which tmp_path under pytest-xdist
    (`.../popen-gw0/test_a_long_name0/tmp/pymp-.../listener-...`) does."""
    path = Path(tempfile.mkdtemp(prefix="rv-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def server(request):
    """A fresh `rendervisor mcp`; extra arguments via @pytest.mark.server_args(...)."""
    marker = request.node.get_closest_marker("server_args")
    args = marker.args if marker else ()
    process = McpProcess(*args)
    process.initialize()
    yield process
    process.stop()


def pytest_configure(config):
    config.addinivalue_line("markers", "server_args(*args): arguments for `rendervisor mcp`")
