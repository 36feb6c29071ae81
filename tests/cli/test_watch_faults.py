"""A watch node an operator can leave running: a project folder it may not write, a project still
being copied in, footage taken away and put back; none of them stops the node serving the other
projects, each is said once with its reason, and each renders once what stood in its way is gone.
The node runs as a real subprocess, told apart by its JSON events (`watch --json`)."""

import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import threading
import time

import pytest
import skia

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import ROOT, popen, small_project

EVENT_WAIT = 120  # seconds a node may take to get to an event on a busy machine


class Node:
    """A `rendervisor watch --json` process and the events it has written so far."""

    def __init__(self, folder, *flags, wrapper=()):
        import sys
        self.process = subprocess.Popen(
            [*wrapper, sys.executable, "-m", "supervisor.cli", "watch", str(folder), "--json",
             "--workers", "1", "--poll", "0.2", *map(str, flags)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.events = []
        self._lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self._lines.put(json.loads(line))
        self._lines.put(None)

    def wait_for(self, event, project):
        """The first event `event` of `project` (after those already taken)."""
        deadline = time.monotonic() + EVENT_WAIT
        while True:
            for seen in self.events:
                if seen.get("event") == event and seen.get("project") == str(project) and \
                        not seen.get("_taken"):
                    seen["_taken"] = True
                    return seen
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no {event} event for {project}: {self.events}"
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                continue
            assert line is not None, f"the node ended: {self.process.stderr.read()}"
            assert "time" in line and line["time"][4] == "-" and "T" in line["time"]
            self.events.append(line)

    def of(self, project):
        return [event["event"] for event in self.events if event.get("project") == str(project)]

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        out, err = self.process.communicate(timeout=60)
        assert self.process.returncode == 130 and "Traceback" not in err, err


@pytest.fixture
def node_of():
    nodes = []

    def start(*args, **options):
        nodes.append(Node(*args, **options))
        return nodes[-1]

    yield start
    for node in nodes:
        if node.process.poll() is None:
            node.process.kill()
            node.process.wait()


def png_project(folder, name, frames=2):
    folder.mkdir(exist_ok=True)
    return small_project(folder / f"{name}.rvproj", frames=frames,
                         queue=[{"output": f"{name}_[##].png", "format": "png"}])


@contextlib.contextmanager
def unwritable(folder):
    """`folder` made so that even root cannot create a file in it: immutable (chattr +i) on a
    file system that has the flag, else a read-only bind mount of it over itself."""
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
    if made.returncode == 0:
        try:
            yield "chattr"
        finally:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        return
    subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
        yield "read-only bind"
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_project_folder_nobody_may_write_is_skipped_once_and_rendered_once_writable(
        tmp_path, node_of):
    locked = png_project(tmp_path / "locked", "locked")
    free = png_project(tmp_path / "free", "free")
    with unwritable(tmp_path / "locked"):
        node = node_of(tmp_path, "--settle", "0")
        assert node.wait_for("done", free)
        skipped = node.wait_for("skipped", locked)
        assert skipped["message"].startswith(
            f"cannot claim it: cannot create {locked}.claim (")
        assert skipped["message"].endswith("); it is tried again every pass")
        time.sleep(1)  # five passes more: said once while it stands
    rendered = node.wait_for("done", locked)
    assert node.of(locked) == ["skipped", "rendering", "done"]
    assert [entry["framesWritten"] for entry in rendered["items"]] == [2]
    assert {"locked_00.png", "locked_01.png"} <= set(os.listdir(tmp_path / "locked"))
    node.stop()


def test_a_folder_denied_to_the_node_is_said_and_the_others_render(tmp_path, node_of):
    """The node runs without root's power over permissions (CAP_DAC_OVERRIDE dropped), as a
    render account on a shared folder would."""
    hidden = png_project(tmp_path / "hidden", "hidden")
    free = png_project(tmp_path / "free", "free")
    os.chmod(tmp_path / "hidden", 0o000)
    caps = "-dac_override,-dac_read_search"
    try:
        node = node_of(tmp_path, "--settle", "0",
                       wrapper=("setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}"))
        assert node.wait_for("done", free)
        skipped = node.wait_for("skipped", tmp_path / "hidden")
        assert skipped["message"] == ("cannot list it (Permission denied); it is tried again "
                                      "every pass")
        os.chmod(tmp_path / "hidden", 0o755)
        assert node.wait_for("done", hidden)
    finally:
        os.chmod(tmp_path / "hidden", 0o755)
    node.stop()


def test_a_project_copied_in_slowly_is_left_until_it_settles_then_rendered(tmp_path, node_of):
    source = png_project(tmp_path / "source", "slow", frames=3)
    data = open(source, "rb").read()
    (tmp_path / "drop").mkdir()
    node = node_of(tmp_path / "drop", "--settle", "3")
    target = tmp_path / "drop" / "slow.rvproj"
    with open(target, "wb") as handle:  # a copy that writes a fifth every 0.3 s
        for part in range(5):
            handle.write(data[part * len(data) // 5:(part + 1) * len(data) // 5])
            handle.flush()
            time.sleep(0.3)
    assert node.wait_for("done", target)
    assert node.of(target) == ["rendering", "done"]  # never "failed" on a half-copied file
    node.stop()


def write_png(path, color):
    surface = skia.Surface(16, 16)
    surface.getCanvas().clear(color)
    surface.makeImageSnapshot().save(str(path), skia.kPNG)


def test_footage_taken_away_is_named_and_the_project_renders_when_it_is_put_back(
        tmp_path, node_of):
    (tmp_path / "job").mkdir()
    logo = tmp_path / "job" / "logo.png"
    write_png(logo, skia.ColorRED)
    engine = Engine()
    engine.run("comp.new", {"name": "Main", "width": 16, "height": 16, "frameRate": 30,
                            "duration": 2 / 30})
    engine.run("layer.add", {"comp": "Main", "type": "image", "path": str(logo)})
    project = str(tmp_path / "job" / "logo.rvproj")
    engine.run("project.save", {"path": project})
    engine.run("renderQueue.add", {"comp": "Main", "output": "out_[##].png", "format": "png"})
    engine.run("project.save", {})
    shutil.move(logo, tmp_path / "logo.png")
    node = node_of(tmp_path, "--settle", "0")
    failed = node.wait_for("failed", project)
    assert failed["missing"] == [str(logo)]
    assert f"{logo} (footage 'logo.png'): it is missing" in failed["message"]
    status = json.loads(open(project + ".status.json").read())
    assert status["state"] == "failed" and status["missing"] == [str(logo)]
    assert str(logo) in status["error"]
    time.sleep(1)  # five passes: the refusal is said once, the project left alone
    assert node.of(project) == ["failed"]
    shutil.move(tmp_path / "logo.png", logo)  # the project file itself is not touched
    assert node.wait_for("done", project)
    assert sorted(os.listdir(tmp_path / "job"))[-2:] == ["out_00.png", "out_01.png"]
    node.stop()
