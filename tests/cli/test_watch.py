"""`rendervisor watch`: nodes sharing one folder render each dropped project exactly once, claim
files are taken over only from nodes that are gone, and status files say what happened."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import re

import psutil

from supervisor.cli import claims
from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import popen, rendervisor, small_project
from tests.helpers.conditions import wait_until
from workers.exporter.complete_frames import is_complete_frame


def drop_projects(folder, count, frames=12):
    paths = []
    for index in range(count):
        where = folder / f"shot{index}" if index % 2 else folder  # some one level down
        where.mkdir(exist_ok=True)
        paths.append(small_project(where / f"p{index}.rvproj", frames=frames,
                                   queue=[{"output": f"p{index}_[##].png", "format": "png"}]))
    return paths


ISO_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d ")


def untimed(line):
    """A node's line without the ISO time it begins with (which every line must have)."""
    assert ISO_TIME.match(line), line
    return ISO_TIME.sub("", line)


def lines(stdout):
    return [untimed(line) for line in stdout.splitlines()]


def work_lines(stdout):
    """What a node did, without its line saying it found nothing to do."""
    return [line for line in lines(stdout) if not line.startswith("idle: ")]


def frames_of(project):
    folder, name = os.path.split(project)
    stem = name.split(".")[0]
    return [os.path.join(folder, f) for f in os.listdir(folder) if f.startswith(stem + "_")]


def test_two_nodes_on_one_folder_render_each_of_five_projects_exactly_once(tmp_path):
    projects = drop_projects(tmp_path, 5)
    nodes = [popen("watch", tmp_path, "--once", "--workers", "2") for _ in range(2)]
    outputs = [node.communicate(timeout=120)[0] for node in nodes]
    assert [node.returncode for node in nodes] == [0, 0]
    rendered = [line.split(" ", 1)[1] for out in outputs for line in lines(out)
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
    assert again.returncode == 0 and work_lines(again.stdout) == []


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
    assert result.returncode == 0 and work_lines(result.stdout) == []
    assert frames_of(project) == [] and json.loads(open(claims.claim_path(project)).read())[
        "token"] == "x"


def test_another_hosts_claim_is_taken_over_only_past_the_stale_limit(tmp_path):
    [project] = drop_projects(tmp_path, 1, frames=3)
    owner = {"host": "another-node", "pid": 1, "pidStarted": 1.0, "token": "x"}
    write_claim(project, owner, age=claims.STALE_AFTER / 2)
    assert work_lines(rendervisor("watch", tmp_path, "--once").stdout) == []
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
    assert untimed(node.stdout.readline()).startswith("idle: ")  # its first pass is over
    [project] = drop_projects(tmp_path, 1, frames=3)  # dropped while it watches
    wait_until(lambda: state_of(project) == "done", 120, "the dropped project was not rendered")
    started = time.monotonic()
    node.send_signal(signal.SIGTERM)
    out, err = node.communicate(timeout=30)
    assert node.returncode == 130 and "Traceback" not in err
    assert time.monotonic() - started < 20  # under a second idle


def test_sigint_mid_render_stops_it_keeps_its_whole_frames_and_releases_the_claim(tmp_path):
    project = small_project(tmp_path / "long.rvproj", frames=900, width=640, height=360,
                            blur=40, queue=[{"output": "frames/f_[####].png", "format": "png"}])
    node = popen("watch", tmp_path, "--once", "--workers", "2")
    assert untimed(node.stdout.readline()) == f"rendering {project}\n"
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
    # A farm node keeps the frames it finished (each whole) for a rerun; nothing half-written.
    names = os.listdir(tmp_path / "frames")
    assert names and all(name.startswith("f_") and
                         is_complete_frame(str(tmp_path / "frames" / name), "png")
                         for name in names), names
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


COLOURS = {"red": (255, 0, 0), "blue": (0, 0, 255), "green": (0, 255, 0)}


def test_each_project_renders_its_own_content_on_one_shared_worker(tmp_path):
    """Every project opens at the same revision; one worker must not keep the first one's."""
    from tests.helpers.render_sessions import read_png
    for name, rgb in COLOURS.items():
        small_project(tmp_path / f"{name}.rvproj", frames=2, color="#%02x%02x%02x" % rgb,
                      queue=[{"output": f"{name}_[##].png", "format": "png"}])
    result = rendervisor("watch", tmp_path, "--once", "--workers", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    for name, rgb in COLOURS.items():
        for number in (0, 1):
            pixels = read_png(str(tmp_path / f"{name}_{number:02d}.png"))
            # The corner is the solid's; the star moves across the middle.
            assert tuple(pixels[0, 0, :3]) == rgb, f"{name}_{number:02d}.png"


def make_fifo(path):
    os.mkfifo(path)
    return str(path)


def test_a_fifo_named_like_a_project_is_reported_and_the_real_project_renders(tmp_path):
    fifo = make_fifo(tmp_path / "a_pipe.rvproj")  # sorted first: it must not hold up the rest
    project = small_project(tmp_path / "b_real.rvproj", frames=3,
                            queue=[{"output": "b_real_[##].png", "format": "png"}])
    node = popen("watch", tmp_path, "--once", "--workers", "1")
    try:
        out, err = node.communicate(timeout=90)
    finally:
        node.kill()
    assert node.returncode == 1 and "Traceback" not in err, out + err
    [report] = [line for line in lines(out) if fifo in line]
    assert report.startswith(f"failed {fifo}: ") and "FIFO" in report
    assert f"done {project}" in out
    assert len(frames_of(project)) == 3
    assert json.loads(open(fifo + ".status.json").read())["state"] == "failed"
    # Reported once: this version of the odd file is not looked at again.
    again = rendervisor("watch", tmp_path, "--once", timeout=90)
    assert again.returncode == 0 and work_lines(again.stdout) == [], again.stdout + again.stderr


def state_of(project):
    path = project + ".status.json"
    if not os.path.isfile(path):  # missing, or still the FIFO the test put there
        return None
    try:
        return json.loads(open(path).read())["state"]
    except (OSError, ValueError, KeyError):
        return None


def test_sigterm_stops_a_watch_node_promptly_with_a_fifo_in_the_folder(tmp_path):
    make_fifo(tmp_path / "pipe.rvproj")
    project = small_project(tmp_path / "shot.rvproj", frames=3,
                            queue=[{"output": "s_[##].png", "format": "png"}])
    make_fifo(project + ".status.json")  # an odd status file too
    node = popen("watch", tmp_path, "--workers", "1")
    try:
        deadline = time.monotonic() + 120
        while state_of(project) != "done" and time.monotonic() < deadline:
            time.sleep(0.2)
        started = time.monotonic()
        node.send_signal(signal.SIGTERM)
        out, err = node.communicate(timeout=30)
    finally:
        node.kill()
    assert node.returncode == 130 and "Traceback" not in err
    assert time.monotonic() - started < 20  # under a second idle
    assert state_of(project) == "done", out + err


def test_a_fifo_in_place_of_a_claim_file_does_not_hang_the_node(tmp_path):
    project = small_project(tmp_path / "p.rvproj", frames=3,
                            queue=[{"output": "p_[##].png", "format": "png"}])
    make_fifo(claims.claim_path(project))
    result = rendervisor("watch", tmp_path, "--once", timeout=90)
    # A claim that cannot be read is judged by its age alone: a fresh one is left alone.
    assert result.returncode == 0 and work_lines(result.stdout) == [], \
        result.stdout + result.stderr
    assert frames_of(project) == []


def test_two_projects_naming_one_output_are_refused_and_nothing_is_clobbered(tmp_path):
    shared = {"output": "out_[##].png", "format": "png"}  # both in one folder: the same files
    first = small_project(tmp_path / "first.rvproj", frames=2, color="#ff0000", queue=[shared])
    second = small_project(tmp_path / "second.rvproj", frames=2, color="#0000ff",
                           queue=[shared])
    other = small_project(tmp_path / "other.rvproj", frames=2,
                          queue=[{"output": "other_[##].png", "format": "png"}])
    (tmp_path / "out_00.png").write_bytes(b"an earlier render, kept")
    result = rendervisor("watch", tmp_path, "--once", "--workers", "1")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stdout
    assert "rendering " + first not in result.stdout
    assert "rendering " + second not in result.stdout
    assert f"done {other}" in result.stdout
    clashed = str(tmp_path / "out_00.png")
    for project in (first, second):
        [line] = [line for line in lines(result.stdout) if line.startswith(
            f"failed {project}: ")]
        status = json.loads(open(project + ".status.json").read())
        assert status["state"] == "failed" and status["error"] in line
        for named in (first, second, clashed):
            assert named in status["error"]
    assert (tmp_path / "out_00.png").read_bytes() == b"an earlier render, kept"
    assert not (tmp_path / "out_01.png").exists()
    # Reported once, not at every pass; once one project names another output, both render.
    assert work_lines(rendervisor("watch", tmp_path, "--once").stdout) == []
    engine = Engine(second)
    engine.run("renderQueue.set", {"item": engine.doc["renderQueue"][0]["id"],
                                   "output": "second_[##].png"})
    engine.run("project.save", {})
    rerun = rendervisor("watch", tmp_path, "--once", "--workers", "1")
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert f"done {first}" in rerun.stdout and f"done {second}" in rerun.stdout
    assert len(frames_of(str(tmp_path / "second.rvproj"))) == 2


def test_a_node_with_nothing_to_do_says_so_in_one_line(tmp_path):
    result = rendervisor("watch", tmp_path, "--once")
    assert result.returncode == 0
    assert lines(result.stdout) == [f"idle: nothing to render in {tmp_path}"]
    node = popen("watch", tmp_path, "--workers", "1", "--poll", "0.2")
    try:
        first = node.stdout.readline()  # its first pass is over
        time.sleep(2)  # some ten passes more, all idle: said once, not once a pass
    finally:
        node.send_signal(signal.SIGTERM)
    out, err = node.communicate(timeout=30)
    assert lines(first + out) == [
        f"idle: nothing to render in {tmp_path}; looking again every 0.2 s"], err


def test_poll_sets_how_soon_a_dropped_project_is_seen(tmp_path):
    """A node looking every 60 s has not seen a project 6 s after it was dropped; one looking
    every 0.2 s sees it (bounds a busy machine can only make truer: slowness delays both)."""
    for poll, seen in (("60", False), ("0.2", True)):
        folder = tmp_path / poll
        folder.mkdir()
        node = popen("watch", folder, "--workers", "1", "--poll", poll, "--settle", "0")
        try:
            assert untimed(node.stdout.readline()).startswith("idle: ")  # first pass over
            [project] = drop_projects(folder, 1, frames=3)
            if seen:
                assert untimed(node.stdout.readline()) == f"rendering {project}\n"
            else:
                time.sleep(6)
        finally:
            node.send_signal(signal.SIGTERM)
            out, _ = node.communicate(timeout=30)
        assert seen or work_lines(out) == []


def test_stale_sets_when_another_hosts_claim_is_taken_over(tmp_path):
    [project] = drop_projects(tmp_path, 1, frames=3)
    write_claim(project, {"host": "another-node", "pid": 1, "pidStarted": 1.0, "token": "x"},
                age=20)
    assert work_lines(rendervisor("watch", tmp_path, "--once", "--stale", "60").stdout) == []
    result = rendervisor("watch", tmp_path, "--once", "--stale", "10")
    assert f"done {project}" in result.stdout, result.stdout + result.stderr


def test_poll_and_stale_refuse_what_is_not_a_positive_number_of_seconds(tmp_path):
    for flag in ("--poll", "--stale"):
        result = rendervisor("watch", tmp_path, "--once", flag, "0")
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
