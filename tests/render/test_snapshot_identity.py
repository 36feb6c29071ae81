"""Two documents at one revision are two snapshots: a worker that drew one of them never draws
it for the other, whether it previews, saves a still or renders the queue.

Two engines share one pool the way `rendervisor watch` opens one project after another on the
same workers; both are built by the same commands, so both stand at the same revision."""

import base64
import io

import av
import pytest

from supervisor.runtime.pool import Pool
from supervisor.mcp.session import Options, Session
from supervisor.mcp.tools.preview_tool import render_preview
from supervisor.mcp.tools.registry import CallContext
from tests.helpers.render_sessions import read_png
from tests.helpers.worker_pools import pool_context

COLOURS = {"red": (255, 0, 0), "blue": (0, 0, 255)}


@pytest.fixture
def sessions():
    """One engine per colour, on one pool with a single render worker (and its preview one)."""
    context, preload = pool_context()
    pool = Pool(context, 1, teardown_grace=0.5, preload=preload)
    made = {name: Session(Options(workers=1), pool) for name in COLOURS}
    try:
        for name, rgb in COLOURS.items():
            made[name].engine.run("comp.new", {"name": "Main", "width": 32, "height": 18,
                                               "duration": 0.1, "frameRate": 10})
            made[name].engine.run("layer.add", {"comp": "Main", "type": "solid",
                                                "color": "#%02x%02x%02x" % rgb})
        assert len({session.engine.revision for session in made.values()}) == 1
        yield made
    finally:
        for session in made.values():
            session.close()
        pool.close()


def corner(pixels):
    return tuple(int(value) for value in pixels[0, 0, :3])


def test_previews_of_two_documents_at_one_revision_show_each_its_own(sessions):
    for name, session in sessions.items():
        result = render_preview({"comp": "Main"}, CallContext(session=session))
        png = base64.b64decode(result.content[0]["data"])
        with av.open(io.BytesIO(png), format="png_pipe") as container:
            pixels = next(container.decode(video=0)).to_ndarray(format="rgba")
        assert corner(pixels) == COLOURS[name], name


def test_stills_of_two_documents_at_one_revision_show_each_its_own(sessions, tmp_path):
    for name, session in sessions.items():
        path = str(tmp_path / f"{name}.png")
        session.engine.run("comp.saveFrameAs", {"comp": "Main", "path": path})
        assert corner(read_png(path)) == COLOURS[name], name


def test_renders_of_two_documents_at_one_revision_show_each_its_own(sessions, tmp_path):
    for name, session in sessions.items():
        session.engine.run("renderQueue.add", {"comp": "Main", "format": "png",
                                               "output": str(tmp_path / f"{name}_[#].png")})
    revisions = {session.engine.revision for session in sessions.values()}
    assert len(revisions) == 1
    for name, session in sessions.items():
        report = session.engine.run("renderQueue.render", {}, CallContext(session=session))
        assert report["completed"] == 1, report
        assert corner(read_png(str(tmp_path / f"{name}_0.png"))) == COLOURS[name], name
