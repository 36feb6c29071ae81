"""What the supervisor of a `rendervisor render` imports in its own process. Skia, PyAV, numpy,
HarfBuzz and OpenColorIO are the workers' (the forkserver imports them for every worker): the
supervisor reads no user's file and draws nothing, and importing them there competed for the
cores with the forkserver's own imports at every render's start (docs/performance.md, "A
render's start-up on a timeline"). A video's join uses PyAV, once its segments are in."""

import json
import subprocess
import sys

from tests.helpers.cli_projects import ROOT, small_project

# The libraries a render's drawing and encoding need, none of them the supervisor's.
WORKERS_LIBRARIES = ("skia", "numpy", "av", "uharfbuzz", "PyOpenColorIO")

# Runs `rendervisor render ARGS...` as main() does, in a process of its own, and prints which
# of the workers' libraries the process had loaded when its render workers were started and
# when the render ended.
RENDER_AND_REPORT = """
import json, sys
import supervisor.cli.render as render
LIBRARIES = %r
loaded = lambda: sorted(name for name in LIBRARIES if name in sys.modules)
seen = {}
start_pool = render.start_pool
def start_and_note(*args, **options):
    seen["workers started"] = loaded()
    return start_pool(*args, **options)
render.start_pool = start_and_note
from supervisor.cli.main import main
seen["exit"] = main(["render", *sys.argv[1:], "--quiet"])
seen["render ended"] = loaded()
print(json.dumps(seen))
""" % (WORKERS_LIBRARIES,)


def python(code: str, *args) -> str:
    result = subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()[-1]


def render_and_report(*args) -> dict:
    return json.loads(python(RENDER_AND_REPORT, *args))


def test_importing_the_render_command_loads_none_of_the_workers_libraries():
    loaded = python("import sys, supervisor.cli.render; "
                    f"print([name for name in {WORKERS_LIBRARIES!r} if name in sys.modules])")
    assert loaded == "[]"


def test_a_png_render_never_loads_the_workers_libraries_in_the_supervisor(tmp_path):
    project = small_project(tmp_path / "show.rvproj")
    seen = render_and_report(project, "--output", tmp_path / "out" / "f_[##].png")
    assert seen == {"workers started": [], "exit": 0, "render ended": []}
    assert len(list((tmp_path / "out").iterdir())) == 6


def test_a_video_render_loads_none_of_them_before_its_workers_are_started(tmp_path):
    project = small_project(tmp_path / "show.rvproj")
    seen = render_and_report(project, "--output", tmp_path / "show.mp4")
    assert seen["exit"] == 0
    assert seen["workers started"] == []
    assert (tmp_path / "show.mp4").stat().st_size > 0
