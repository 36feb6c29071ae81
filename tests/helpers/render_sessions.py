"""In-process sessions with a real worker pool, and small projects to render, for the render
tests (tests/test_render_*.py). Workers are real forkserver processes; outputs are real files.
"""

from __future__ import annotations

import contextlib
import os

import av
import numpy as np

from supervisor.runtime.pool import Pool
from supervisor.mcp.session import Options, Session
from supervisor.mcp.tools.registry import CallContext
from tests.helpers.worker_pools import pool_context
from workers.compositor import render_frame

WIDTH, HEIGHT, RATE = 64, 36, 24


@contextlib.contextmanager
def render_session(workers: int = 2, teardown_grace: float = 0.5):
    """A Session whose engine renders on `workers` real render workers."""
    context, preload = pool_context()
    pool = Pool(context, workers, teardown_grace=teardown_grace, preload=preload)
    session = Session(Options(workers=workers, teardown_grace=teardown_grace), pool)
    try:
        yield session
    finally:
        session.close()
        pool.close()


def build_comp(engine, name: str = "Main", width: int = WIDTH, height: int = HEIGHT,
               rate: float = RATE, frames: int = 36, transparent: bool = False) -> str:
    """A comp that changes every frame: a background, a solid moving across, a rect turning
    and fading. Built through the engine's own commands."""
    background = [0, 0, 0, 0] if transparent else [0.1, 0.15, 0.3, 1]
    engine.run("comp.new", {"name": name, "width": width, "height": height, "frameRate": rate,
                            "duration": frames / rate, "background": background})
    duration = frames / rate
    engine.run("layer.add", {"comp": name, "type": "solid", "name": "Mover",
                             "color": "#f0c020", "width": width // 4, "height": height // 2})
    engine.run("prop.addKey", {"comp": name, "layer": "Mover", "path": "transform.position",
                               "time": 0, "value": [0, height / 2]})
    engine.run("prop.addKey", {"comp": name, "layer": "Mover", "path": "transform.position",
                               "time": duration, "value": [width, height / 2]})
    engine.run("layer.add", {"comp": name, "type": "shape", "name": "Turner", "shape": "rect",
                             "size": [width // 3, height // 3], "fill": [0.2, 0.9, 0.4]})
    engine.run("prop.addKey", {"comp": name, "layer": "Turner", "path": "transform.rotation",
                               "time": 0, "value": 0})
    engine.run("prop.addKey", {"comp": name, "layer": "Turner", "path": "transform.rotation",
                               "time": duration, "value": 180})
    engine.run("prop.addKey", {"comp": name, "layer": "Turner", "path": "transform.opacity",
                               "time": 0, "value": 100})
    engine.run("prop.addKey", {"comp": name, "layer": "Turner", "path": "transform.opacity",
                               "time": duration, "value": 30})
    return name


def heavy_comp(engine, name: str = "Heavy", frames: int = 120) -> str:
    """A slower comp (a blurred 480x270 frame), for tests that must act mid-render."""
    build_comp(engine, name, 480, 270, RATE, frames)
    engine.run("effect.add", {"comp": name, "layer": "Mover", "effect": "gaussianBlur",
                              "params": {"radius": 30}})
    engine.run("effect.add", {"comp": name, "layer": "Turner", "effect": "glow"})
    return name


def expected_frame(engine, comp: str, number: int, over_black: bool = False) -> np.ndarray:
    """The still renderer's picture of a frame, from the engine's current document."""
    _snapshot_id, document = engine.snapshot()
    comp_doc = next(c for c in document["comps"] if comp in (c["id"], c["name"]))
    pixels = render_frame(document, comp_doc["id"], number / comp_doc["frameRate"]).pixels
    if over_black:
        alpha = pixels[..., 3:4].astype(np.float64) / 255
        rgb = np.round(pixels[..., :3] * alpha).astype(np.uint8)
        return np.concatenate([rgb, np.full(rgb.shape[:2] + (1,), 255, np.uint8)], axis=2)
    return pixels


def read_png(path: str) -> np.ndarray:
    with av.open(path) as container:
        frame = next(container.decode(video=0))
        return frame.to_ndarray(format="rgba")


def decode_video(path: str, pix_fmt: str = "rgba") -> tuple[list[np.ndarray], dict]:
    """Every frame of a video as arrays, and its stream's size and frame rate."""
    with av.open(path) as container:
        stream = container.streams.video[0]
        info = {"width": stream.codec_context.width, "height": stream.codec_context.height,
                "rate": stream.average_rate or stream.guessed_rate}
        frames = [frame.to_ndarray(format=pix_fmt) for frame in container.decode(stream)]
    return frames, info


def files_in(folder) -> set[str]:
    """Every file under `folder`, hidden temporaries included, relative to it."""
    found = set()
    for root, _dirs, names in os.walk(folder):
        for name in names:
            found.add(os.path.relpath(os.path.join(root, name), folder))
    return found


class Recorder:
    """A CallContext whose progress is recorded, and that can act on a given progress."""

    def __init__(self, session, on_progress=None) -> None:
        self.events: list[tuple[float, float, str]] = []
        self.on_progress = on_progress
        self.ctx = CallContext(session=session, report_progress=self._report)

    def _report(self, progress, total, message) -> None:
        self.events.append((progress, total, message))
        if self.on_progress is not None:
            self.on_progress(progress, total, message)


def busy_render_workers(session):
    """The session's render workers running a job now (to kill one mid-render)."""
    pool = session.pool
    idle = set(pool._idle["render"])
    return [worker for worker in list(pool._all)
            if worker.kind == "render" and worker.alive and worker not in idle]
