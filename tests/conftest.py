import shutil
import tempfile
from pathlib import Path

import pytest

from tests.helpers.compiled_sources import compile_sources
from tests.helpers.mcp_process import mcp_server
from tests.helpers.worker_pools import pool_context

# Nearly every room starts rendervisor processes (servers, renders, forkservers): its modules
# are compiled to bytecode once first, so those processes do not each compile them again
# (tests/helpers/compiled_sources.py).
compile_sources()


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
    with mcp_server(*(marker.args if marker else ())) as process:
        yield process


@pytest.fixture(scope="module")
def module_server():
    """One `rendervisor mcp` for a module's tests, for modules whose tests keep nothing in the
    session that another could see (file tools on their own tmp_path; a document each test
    builds in a new project, shared_server): a server's start (its imports, the forkserver, the
    first workers) costs more than most such tests. A module opts in by defining its `server`
    fixture as this one or shared_server."""
    with mcp_server() as process:
        yield process


def pytest_configure(config):
    config.addinivalue_line("markers", "server_args(*args): arguments for `rendervisor mcp`")


@pytest.fixture(scope="module")
def module_confined_server(tmp_path_factory):
    """One `rendervisor mcp` confined to a folder (its only read and write root), for a module's
    tests that each work in a folder of their own inside it (confined_folder)."""
    root = tmp_path_factory.mktemp("confined")
    with mcp_server("--read-root", str(root), "--write-root", str(root)) as process:
        process.root = root
        yield process


@pytest.fixture
def confined_folder(module_confined_server):
    """A new folder inside module_confined_server's root, and a new project in it: the test
    sees nothing of the one before."""
    module_confined_server.run("command_run", {"id": "project.new"})
    return Path(tempfile.mkdtemp(dir=module_confined_server.root))


@pytest.fixture
def shared_server(module_server):
    """module_server on a new project, for a test that builds its own document and needs
    nothing else of a fresh session."""
    module_server.run("command_run", {"id": "project.new"})
    return module_server
