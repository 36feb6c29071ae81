import pytest

from tests.mcp_process import McpProcess


@pytest.fixture(scope="session")
def worker_context():
    """(context, preload) for an in-process Pool: this test process becomes a subreaper and
    starts the forkserver once, as `rendervisor mcp` does before its first thread."""
    from supervisor import teardown
    from supervisor.pool import make_context, worker_preload
    teardown.become_subreaper()
    preload = worker_preload()
    return make_context(preload), preload


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
