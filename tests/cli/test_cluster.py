"""`rendervisor render --cluster`: chunks rendered as Dask tasks on a real cluster on loopback
give the same files a local render gives, even when a Dask worker is killed mid-render."""

import json
import os
import signal

import pytest

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import popen, rendervisor, small_project

distributed = pytest.importorskip("distributed")


def files(folder):
    return {name: (folder / name).read_bytes() for name in sorted(os.listdir(folder))}


@pytest.fixture
def project(tmp_path):
    return small_project(tmp_path / "show.rvproj", frames=20)


def test_cluster_local_gives_byte_identical_frames_and_video(tmp_path):
    # The same project in two folders, its queue a PNG sequence, an H.264 and an AV1 video
    # (outputs beside it), rendered by one process on this machine's workers and by one on a
    # local Dask cluster; chunks of 3 frames, so the videos are joined from segments.
    queue = [{"output": "frames/f_[###].png", "format": "png"},
             {"output": "h264.mp4", "format": "h264"}, {"output": "av1.mp4", "format": "av1"}]
    for where, extra in (("local", ()), ("cluster", ("--cluster", "local"))):
        (tmp_path / where).mkdir()
        project = small_project(tmp_path / where / "show.rvproj", frames=20, queue=queue)
        result = rendervisor("render", project, "--workers", "2", "--chunk-size", "3", *extra)
        assert result.returncode == 0, result.stderr
    local, cluster = files(tmp_path / "local" / "frames"), files(tmp_path / "cluster" / "frames")
    assert len(local) == 20 and local == cluster
    for name in ("h264.mp4", "av1.mp4"):
        assert (tmp_path / "local" / name).read_bytes() == \
            (tmp_path / "cluster" / name).read_bytes()


def test_a_dask_worker_killed_mid_render_still_gives_the_complete_identical_output(tmp_path):
    project = small_project(tmp_path / "long.rvproj", frames=120, width=320, height=180,
                            blur=30)
    reference = rendervisor("render", project, "--comp", "Main", "--format", "png",
                            "--output", tmp_path / "local" / "f_[###].png", "--quiet")
    assert reference.returncode == 0, reference.stderr
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        process = popen("render", project, "--comp", "Main", "--format", "png", "--output",
                        tmp_path / "cluster" / "f_[###].png", "--chunk-size", "2",
                        "--cluster", cluster.scheduler_address, "--json")
        first = json.loads(process.stdout.readline())
        assert first["event"] == "progress" and first["done"] < first["total"]
        victim = sorted(client.run(os.getpid).values())[0]
        os.kill(victim, signal.SIGKILL)
        out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    done = json.loads(out.splitlines()[-1])
    assert done["event"] == "done" and done["completed"] == 1
    assert files(tmp_path / "cluster") == files(tmp_path / "local")


def test_without_dask_cluster_says_how_to_install_it(project, tmp_path):
    # A `distributed` that cannot be imported, as on an install without the extra.
    (tmp_path / "nodask").mkdir()
    (tmp_path / "nodask" / "distributed.py").write_text("raise ImportError('not installed')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "nodask"))
    result = rendervisor("render", project, "--comp", "Main", "--cluster", "local", env=env)
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if not line.startswith("Fontconfig")]
    assert lines == ["rendervisor render: --cluster needs Dask distributed, which is not "
                     "installed; install it with pip install 'rendervisor[cluster]'."]


def test_a_malformed_scheduler_address_is_one_line(project):
    result = rendervisor("render", project, "--comp", "Main", "--cluster", "nonsense")
    lines = [line for line in result.stderr.splitlines() if not line.startswith("Fontconfig")]
    assert result.returncode == 2 and len(lines) == 1
    assert "cannot reach the Dask scheduler at nonsense" in lines[0]


def test_sound_is_mixed_once_and_the_file_is_the_same_bytes_at_any_worker_count_or_on_dask(
        tmp_path):
    """The mix is one job (here, on the node that joins): 1, 2 or 3 workers, or a local Dask
    cluster, draw the pictures in different chunks and make the same file."""
    import numpy as np
    from supervisor.engine.engine import Engine
    from tests.helpers.sound_files import decode_sound, onset, tone, write_wav
    project = small_project(tmp_path / "sound.rvproj", frames=48)
    engine = Engine(project)
    engine.run("layer.add", {"comp": "Main", "type": "audio", "startTime": 0.5, "inPoint": 0.5,
                             "path": write_wav(tmp_path / "tone.wav",
                                               np.stack([tone(1.0)] * 2))})
    engine.run("project.save", {})
    made = []
    for name, extra in (("one", ("--workers", "1")), ("two", ("--workers", "2")),
                        ("three", ("--workers", "3")),
                        ("dask", ("--workers", "2", "--cluster", "local"))):
        output = tmp_path / f"{name}.mp4"
        result = rendervisor("render", project, "--comp", "Main", "--output", output,
                             "--chunk-size", "8", "--quiet", *extra)
        assert result.returncode == 0, result.stderr
        made.append(output.read_bytes())
    assert all(other == made[0] for other in made[1:])
    sound, rate = decode_sound(tmp_path / "one.mp4")
    assert abs(onset(sound) - rate // 2) <= 1024
    assert sorted(os.listdir(tmp_path)) == ["dask.mp4", "one.mp4", "sound.rvproj", "three.mp4",
                                            "tone.wav", "two.mp4"]


def test_expressions_give_the_same_bytes_on_one_or_three_workers_and_on_dask(tmp_path):
    # Seeded randomness and wiggle, keyed by layer, property and time: the chunks a Dask
    # worker evaluates give what a local worker's do.
    engine = Engine()
    engine.run("comp.new", {"name": "Main", "width": 48, "height": 32, "frameRate": 24,
                            "duration": 0.5})
    engine.run("layer.add", {"comp": "Main", "type": "solid", "name": "Dot", "color": "#ffcc33",
                             "width": 8, "height": 8})
    engine.run("prop.setExpression", {"comp": "Main", "layer": "Dot",
                                      "path": "transform.position",
                                      "expression": "wiggle(5, 10)"})
    engine.run("prop.setExpression", {"comp": "Main", "layer": "Dot",
                                      "path": "transform.rotation",
                                      "expression": "random(0, 90)"})
    project = str(tmp_path / "wiggle.rvproj")
    engine.run("project.save", {"path": project})
    for where, extra in (("one", ("--workers", "1")), ("three", ("--workers", "3")),
                         ("dask", ("--cluster", "local", "--workers", "2"))):
        result = rendervisor("render", project, "--comp", "Main", "--format", "png",
                             "--output", tmp_path / where / "f_[##].png", "--chunk-size", "2",
                             *extra)
        assert result.returncode == 0, result.stderr
    one = files(tmp_path / "one")
    assert len(one) == 12 and len(set(one.values())) == 12
    assert files(tmp_path / "three") == one and files(tmp_path / "dask") == one
