"""`rendervisor watch`: nodes sharing one folder render each dropped project exactly once, claim
files are taken over only from nodes that are gone, and status files say what happened."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import psutil

from supervisor import claims
from tests.cli_projects import popen, rendervisor, small_project


def drop_projects(folder, count, frames=12):
    paths = []
    for index in range(count):
        where = folder / f"shot{index}" if index % 2 else folder  # some one level down
        where.mkdir(exist_ok=True)
        paths.append(small_project(where / f"p{index}.rvproj", frames=frames,
                                   queue=[{"output": f"p{index}_[##].png", "format": "png"}]))
    return paths


def frames_of(project):
    folder, name = os.path.split(project)
    stem = name.split(".")[0]
    return [os.path.join(folder, f) for f in os.listdir(folder) if f.startswith(stem + "_")]


def test_two_nodes_on_one_folder_render_each_of_five_projects_exactly_once(tmp_path):
    projects = drop_projects(tmp_path, 5)
    nodes = [popen("watch", tmp_path, "--once", "--workers", "2") for _ in range(2)]
    outputs = [node.communicate(timeout=120)[0] for node in nodes]
    assert [node.returncode for node in nodes] == [0, 0]
    rendered = [line.split(" ", 1)[1] for out in outputs for line in out.splitlines()
                if line.startswith("rendering ")]
    assert sorted(rendered) == sorted(projects), outputs  # each once, none twice, none missed
    pids = {node.pid for node in nodes}
    for project in projects:
        status = json.loads(open(claims.claim_path(project)[:-len(".claim")]
                                 + ".status.json").read())
        assert status["state"] == "done" and status["pid"] in pids
        assert [item["status"] for item in status["items"]] == ["done"]
        # Every frame was written once, inside the one render the status file records.
        frames = frames_of(project)
        assert len(frames) == 12
        for frame in frames:
            assert status["started"] <= os.stat(frame).st_mtime <= status["finished"]
        assert not os.path.exists(claims.claim_path(project))  # released


def test_a_done_project_is_rendered_again_only_when_it_changes(tmp_path):
    [project] = drop_projects(tmp_path, 1, frames=3)
    assert rendervisor("watch", tmp_path, "--once").stdout.count("rendering") == 1
    assert rendervisor("watch", tmp_path, "--once").stdout.count("rendering") == 0
    os.utime(project, ns=(time.time_ns(), time.time_ns() + 10**9))
    assert rendervisor("watch", tmp_path, "--once").stdout.count("rendering") == 1


def test_a_broken_project_is_reported_failed_once_and_the_node_exits_1(tmp_path):
    (tmp_path / "broken.rvproj").write_text("{not json")
    result = rendervisor("watch", tmp_path, "--once")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    status = json.loads((tmp_path / "broken.rvproj.status.json").read_text())
    assert status["state"] == "failed" and "not a valid rendervisor project" in status["error"]
    again = rendervisor("watch", tmp_path, "--once")
    assert again.returncode == 0 and again.stdout == ""


def write_claim(project, owner, age=0.0):
    path = claims.claim_path(project)
    with open(path, "w") as handle:
        json.dump(owner, handle)
    if age:
        past = time.time() - age
        os.utime(path, (past, past))


def test_a_claim_whose_process_is_gone_on_this_host_is_taken_over(tmp_path):
    [project] = drop_projects(tmp_path, 1, frames=3)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    write_claim(project, {"host": socket.gethostname(), "pid": gone.pid,
                          "pidStarted": 1.0, "token": "x"})
    result = rendervisor("watch", tmp_path, "--once")
    assert f"done {project}" in result.stdout, result.stderr


def test_a_live_claim_is_left_alone(tmp_path):
    [project] = drop_projects(tmp_path, 1, frames=3)
    me = psutil.Process()
    write_claim(project, {"host": socket.gethostname(), "pid": me.pid,
                          "pidStarted": me.create_time(), "token": "x"})
    result = rendervisor("watch", tmp_path, "--once")
    assert result.returncode == 0 and result.stdout == ""
    assert frames_of(project) == [] and json.loads(open(claims.claim_path(project)).read())[
        "token"] == "x"


def test_another_hosts_claim_is_taken_over_only_past_the_stale_limit(tmp_path):
    [project] = drop_projects(tmp_path, 1, frames=3)
    owner = {"host": "another-node", "pid": 1, "pidStarted": 1.0, "token": "x"}
    write_claim(project, owner, age=claims.STALE_AFTER / 2)
    assert rendervisor("watch", tmp_path, "--once").stdout == ""
    write_claim(project, owner, age=claims.STALE_AFTER + 5)
    assert f"done {project}" in rendervisor("watch", tmp_path, "--once").stdout


def test_of_two_claims_on_one_project_one_wins(tmp_path):
    project = str(tmp_path / "p.rvproj")
    first = claims.try_claim(project)
    assert first is not None and claims.try_claim(project) is None
    first.release()
    assert claims.try_claim(project) is not None


def test_watch_polls_until_sigterm_then_exits_promptly(tmp_path):
    node = popen("watch", tmp_path, "--workers", "1")
    time.sleep(1.5)
    [project] = drop_projects(tmp_path, 1, frames=3)  # dropped while it watches
    deadline = time.monotonic() + 60
    while not os.path.exists(project + ".status.json") or \
            json.loads(open(project + ".status.json").read())["state"] != "done":
        assert time.monotonic() < deadline, "the dropped project was never rendered"
        time.sleep(0.2)
    started = time.monotonic()
    node.send_signal(signal.SIGTERM)
    out, err = node.communicate(timeout=30)
    assert node.returncode == 130 and "Traceback" not in err
    assert time.monotonic() - started < 10


def test_sigint_mid_render_stops_it_removes_its_frames_and_releases_the_claim(tmp_path):
    project = small_project(tmp_path / "long.rvproj", frames=900, width=640, height=360,
                            blur=40, queue=[{"output": "frames/f_[####].png", "format": "png"}])
    node = popen("watch", tmp_path, "--once", "--workers", "2")
    assert node.stdout.readline() == f"rendering {project}\n"
    deadline = time.monotonic() + 60
    while not os.path.isdir(tmp_path / "frames") or not os.listdir(tmp_path / "frames"):
        assert time.monotonic() < deadline, "no frame was ever written"
        time.sleep(0.05)
    node.send_signal(signal.SIGINT)
    out, err = node.communicate(timeout=60)
    assert node.returncode == 130 and "Traceback" not in err
    assert f"stopped {project}" in out
    status = json.loads(open(project + ".status.json").read())
    assert status["state"] == "stopped"
    assert not (tmp_path / "frames").exists()
    assert not os.path.exists(claims.claim_path(project))


def test_many_nodes_taking_over_one_stale_claim_at_once_leave_exactly_one_winner(tmp_path):
    import threading
    for round_ in range(20):
        project = str(tmp_path / f"p{round_}.rvproj")
        write_claim(project, {"host": "crashed-node", "pid": 1, "token": "old"},
                    age=claims.STALE_AFTER + 60)
        start = threading.Barrier(8)
        won = []

        def contend():
            start.wait()
            claim = claims.try_claim(project)
            if claim is not None:
                won.append(claim.owner["token"])

        threads = [threading.Thread(target=contend) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(won) == 1, f"round {round_}: {len(won)} nodes took the claim over"
        assert json.loads(open(claims.claim_path(project)).read())["token"] == won[0]
