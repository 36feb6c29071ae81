"""A call's cancel scope keeps nothing of the jobs it ran: each job's own scope (a child of the
call's) lets go of it when the job ends, through every path a render command takes to a
worker. A child left linked is a callback on the caller's scope for as long as it lives (a
session's, a watch's)."""

import pytest

from supervisor.work import Work
from tests.helpers.render_sessions import build_comp, render_session


@pytest.fixture(scope="module")
def engine():
    with render_session(workers=1) as session:
        build_comp(session.engine, frames=4)
        yield session.engine


@pytest.mark.parametrize("command, params", [
    ("lottie.export", {"comp": "Main", "path": "{tmp}/main.json"}),
    ("timeline.export", {"comp": "Main", "path": "{tmp}/main.otio"}),
    ("comp.saveFrameAs", {"comp": "Main", "time": 0, "path": "{tmp}/still.png"}),
])
def test_a_render_command_leaves_nothing_on_its_callers_scope(engine, tmp_path, command, params):
    work = Work()
    params = {key: value.format(tmp=tmp_path) if isinstance(value, str) else value
              for key, value in params.items()}
    engine.run(command, params, work)
    assert work.cancel._callbacks == {}


def test_a_spread_of_frame_jobs_that_breaks_leaves_nothing_on_its_callers_scope(
        engine, monkeypatch):
    """run_spread (filmstrips, layout checks) lets go of the caller's scope even when a job
    breaks in a way no worker reported (a bug): nothing of it lingers on a session's scope."""
    from supervisor.render import frame_jobs

    def broken(pool, worker, task, payload, *args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(frame_jobs, "run_with_snapshot", broken)
    work = Work()
    snapshot_id, document = engine.snapshot()
    with pytest.raises(RuntimeError):
        frame_jobs.run_spread(engine.render_service.pool, "preview",
                              [{"time": t / 10} for t in range(8)], snapshot_id, document,
                              work.cancel)
    assert work.cancel._callbacks == {}
