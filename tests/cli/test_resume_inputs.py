"""A resumed video takes a cached segment only when every file its frames were drawn from is
the same file still: a font replaced on disk between the interrupted render and the rerun
renders every segment again, so the video is never half one font and half the other
(docs/outputs.md, "Resuming a video"). Real processes, real files."""

import json
import os
import pathlib
import shutil
import signal

import rendercv_fonts

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import popen, rendervisor
from tests.helpers.render_midway import segments_cached, wait_midway

FONTS = os.path.dirname(rendercv_fonts.__file__)
FRAMES = 120


def branded(tmp_path) -> tuple[str, str]:
    """A comp whose title is drawn with brand.ttf (a copy of Lato), blurred so a render takes
    long enough to interrupt; the project and the font file."""
    font = str(tmp_path / "brand.ttf")
    shutil.copyfile(os.path.join(FONTS, "Lato", "Lato-Regular.ttf"), font)
    engine = Engine()
    engine.run("comp.new", {"name": "Main", "width": 320, "height": 180, "frameRate": 30,
                            "duration": FRAMES / 30})
    engine.run("layer.add", {"comp": "Main", "type": "solid", "color": "#203040"})
    engine.run("layer.add", {"comp": "Main", "type": "text", "name": "Title", "text": "Brand",
                             "fontFile": font, "size": 60, "fill": "#ffcc33"})
    for time, x in ((0, 100), (FRAMES / 30, 220)):
        engine.run("prop.addKey", {"comp": "Main", "layer": "Title",
                                   "path": "transform.position", "time": time,
                                   "value": [x, 90]})
    engine.run("effect.add", {"comp": "Main", "layer": "Title", "effect": "gaussianBlur",
                              "params": {"radius": 30}})
    engine.run("project.save", {"path": str(tmp_path / "v.rvproj")})
    engine.run("renderQueue.add", {"comp": "Main", "output": "v.mp4",
                                   "codecOptions": {"preset": "veryfast"}})
    engine.run("project.save", {})
    return str(tmp_path / "v.rvproj"), font


def interrupt_with_a_segment_cached(project) -> None:
    """Render on one worker, and SIGINT it once its first segment is cached. One worker renders
    the chunks in turn (of 30 frames, as on two): the first is cached with 90 frames left to
    interrupt, where two workers finish two at once and leave 60, and a progress event at 70
    frames done left 50 (some 0.2 s here; events come ten a second at most)."""
    process = popen("render", project, "--json", "--workers", "1")
    video = pathlib.Path(project).parent / "v.mp4"
    wait_midway(process, lambda: segments_cached(video) >= 1, "a cached segment")
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err


def test_a_font_replaced_on_disk_renders_every_segment_again(tmp_path):
    project, font = branded(tmp_path)
    interrupt_with_a_segment_cached(project)
    cache = tmp_path / ".v.mp4.segments"
    assert cache.is_dir() and os.listdir(cache), "the interrupted render kept no segment"
    before = os.stat(font)
    # Another font copied over the same name (the same inode), its time put back as it was.
    shutil.copyfile(os.path.join(FONTS, "Poppins", "Poppins-Bold.ttf"), font)
    os.utime(font, ns=(before.st_atime_ns, before.st_mtime_ns))

    resumed = rendervisor("render", project, "--skip-existing", "--json", "--workers", "2")
    assert resumed.returncode == 0, resumed.stderr
    progress = [json.loads(line) for line in resumed.stdout.splitlines()][-2]
    assert progress["total"] == FRAMES, progress  # no segment of the old font was taken
    whole = rendervisor("render", project, "--output", tmp_path / "whole.mp4", "--quiet")
    assert whole.returncode == 0, whole.stderr
    assert (tmp_path / "v.mp4").read_bytes() == (tmp_path / "whole.mp4").read_bytes()


def test_an_unchanged_font_resumes_from_its_segments(tmp_path):
    project, _font = branded(tmp_path)
    interrupt_with_a_segment_cached(project)
    cached = len(os.listdir(tmp_path / ".v.mp4.segments"))
    resumed = rendervisor("render", project, "--skip-existing", "--json", "--workers", "2")
    assert resumed.returncode == 0, resumed.stderr
    progress = [json.loads(line) for line in resumed.stdout.splitlines()][-2]
    assert progress["total"] < FRAMES and cached, (progress, cached)
