"""Small saved projects for the command-line tests, built with engine commands, and a way to
run `rendervisor` as a real subprocess."""

from __future__ import annotations

import os
import subprocess
import sys

import skia

from supervisor.engine.engine import Engine

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def small_project(path, *, frames: int = 6, width: int = 64, height: int = 36,
                  queue: list[dict] | None = None, blur: float = 0,
                  color: str = "#203040") -> str:
    """A comp "Main" (a moving star over a solid of `color`, frames/30 s long) saved at `path`,
    with the given render queue items (renderQueue.add params without comp)."""
    engine = Engine()
    run = engine.run
    run("comp.new", {"name": "Main", "width": width, "height": height, "frameRate": 30,
                     "duration": frames / 30})
    run("layer.add", {"comp": "Main", "type": "solid", "color": color})
    run("layer.add", {"comp": "Main", "type": "shape", "shape": "star", "name": "Star",
                      "size": [height / 2, height / 2], "fill": "#ffcc33"})
    for time, x in ((0.0, width * 0.2), (frames / 30, width * 0.8)):
        run("prop.addKey", {"comp": "Main", "layer": "Star", "path": "transform.position",
                            "time": time, "value": [x, height / 2]})
    if blur:
        run("effect.add", {"comp": "Main", "layer": "Star", "effect": "gaussianBlur",
                           "params": {"radius": blur}})
    run("project.save", {"path": str(path)})
    for item in queue or []:
        run("renderQueue.add", {"comp": "Main", **item})
    run("project.save", {})
    return str(path)


def plate_project(tmp_path, frames: int = 30) -> tuple[str, list]:
    """A comp "Main" showing a PNG sequence plate of `frames` frames, each a different colour,
    saved at tmp_path/plate.rvproj with the plate queued as a PNG sequence (out/f_[##].png);
    the project's path and the plate's frame files."""
    plates = tmp_path / "plate"
    plates.mkdir()
    paths = []
    for number in range(frames):
        surface = skia.Surface(16, 16)
        surface.getCanvas().clear(skia.Color(8 * number, 40, 200))
        paths.append(plates / f"p_{number:04d}.png")
        surface.makeImageSnapshot().save(str(paths[-1]), skia.kPNG)
    engine = Engine()
    engine.run("comp.new", {"name": "Main", "width": 16, "height": 16, "frameRate": 30,
                            "duration": frames / 30})
    engine.run("layer.add", {"comp": "Main", "type": "video",
                             "path": str(plates / "p_[####].png")})
    engine.run("project.save", {"path": str(tmp_path / "plate.rvproj")})
    engine.run("renderQueue.add", {"comp": "Main", "output": "out/f_[##].png"})
    engine.run("project.save", {})
    return str(tmp_path / "plate.rvproj"), paths


def rendervisor(*args, timeout: float = 120, cwd: str = ROOT,
                **options) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "supervisor.cli", *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout, **options)


def popen(*args, **options) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "supervisor.cli", *map(str, args)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **options)


def error_lines(stderr: str) -> list[str]:
    """stderr without the system's fontconfig chatter, which is not ours to silence."""
    return [line for line in stderr.splitlines() if not line.startswith("Fontconfig")]
