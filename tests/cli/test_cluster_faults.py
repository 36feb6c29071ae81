"""`rendervisor render --cluster` when the cluster misbehaves: a scheduler with no workers and a
port nobody listens on are one sentence and exit 2, and workers killed again and again (all of
them at once included) never fail a render while workers come back."""

import json
import os
import signal
import socket

import pytest

from tests.helpers.cli_projects import error_lines, popen, rendervisor, small_project

distributed = pytest.importorskip("distributed")


def files(folder):
    return {name: (folder / name).read_bytes() for name in sorted(os.listdir(folder))}


def test_a_scheduler_with_no_workers_is_one_sentence_and_exit_2(tmp_path):
    project = small_project(tmp_path / "show.rvproj", frames=3)
    with distributed.LocalCluster(n_workers=0, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        result = rendervisor("render", project, "--comp", "Main", "--output",
                             tmp_path / "out.mp4", "--cluster", cluster.scheduler_address,
                             env=dict(os.environ, RENDERVISOR_CLUSTER_WAIT="1"))
    assert result.returncode == 2, result.stderr
    assert error_lines(result.stderr) == [
        f"rendervisor render: the Dask scheduler at {cluster.scheduler_address} has no "
        "workers (no worker joined it within 1 s, RENDERVISOR_CLUSTER_WAIT); start one on "
        f"each node with dask worker {cluster.scheduler_address} --nthreads 1, then render "
        "again."]
    assert not (tmp_path / "out.mp4").exists()


def test_a_port_that_refuses_the_connection_says_so(tmp_path):
    project = small_project(tmp_path / "show.rvproj", frames=3)
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = rendervisor("render", project, "--comp", "Main", "--cluster",
                         f"tcp://127.0.0.1:{port}")
    assert result.returncode == 2
    assert error_lines(result.stderr) == [
        f"rendervisor render: cannot reach the Dask scheduler at tcp://127.0.0.1:{port} (the "
        "connection was refused: nothing listens on that port); start one with dask "
        "scheduler, or use --cluster local."]


@pytest.mark.timeout(600)  # each round waits for new worker processes to start
def test_killing_every_worker_again_and_again_never_fails_the_render(tmp_path):
    """When progress moves, every worker is killed, twice; the nannies start new ones. The document the chunks draw is computed again on the new workers, where
    scattered data would be lost with the last worker that held it."""
    project = small_project(tmp_path / "long.rvproj", frames=60, width=160, height=90,
                            blur=20)
    reference = rendervisor("render", project, "--comp", "Main", "--format", "png",
                            "--output", tmp_path / "local" / "f_[###].png", "--quiet")
    assert reference.returncode == 0, reference.stderr
    kills = 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        process = popen("render", project, "--comp", "Main", "--format", "png", "--output",
                        tmp_path / "cluster" / "f_[###].png", "--chunk-size", "2",
                        "--cluster", cluster.scheduler_address, "--json",
                        # a nanny's new worker may take long to start on a busy machine
                        env=dict(os.environ, RENDERVISOR_CLUSTER_WAIT="300"))
        last_done = 0
        for line in process.stdout:
            event = json.loads(line)
            if event["event"] != "progress" or event["done"] >= event["total"]:
                break
            if kills < 2 and event["done"] > last_done:
                last_done = event["done"]
                client.wait_for_workers(1, timeout=120)  # a restarted one has joined
                for pid in client.run(os.getpid, on_error="ignore").values():
                    if isinstance(pid, int):
                        os.kill(pid, signal.SIGKILL)
                kills += 1
        out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert kills == 2  # every worker was lost twice while the render ran
    done = json.loads(out.splitlines()[-1])
    assert done["event"] == "done" and done["completed"] == 1
    assert files(tmp_path / "cluster") == files(tmp_path / "local")
