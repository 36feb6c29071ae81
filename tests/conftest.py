import pytest

from tests.helpers.mcp_process import McpProcess
from tests.helpers.worker_pools import pool_context


@pytest.fixture(scope="session")
def worker_context():
    """(context, preload) for an in-process Pool (tests/helpers/worker_pools.py)."""
    return pool_context()


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
