"""The MoviePy 2 peer for scripts/bench_render.py: the reference comp (examples/bench_project.py)
built with MoviePy clips and written to H.264 with the encoder settings rendervisor's render is
measured with (libx264, preset veryfast, yuv420p, 30 fps, no audio). Prints one JSON object
with MoviePy's frames per second, render and encode together, as `write_videofile` does them.

    .venv/bin/python scripts/peers/moviepy_reference.py [--passes N] [--keep FILE]

MoviePy draws with numpy and Pillow on one core and pipes raw frames to an ffmpeg process (its
own imageio-ffmpeg binary), so the encoder gets the other cores, as it would for a MoviePy user.
The scene is the same: the same constants, the same motion. MoviePy rotates counter-clockwise
and positions clips by their top-left corner, so the angle is negated and the turning image is
placed by the size of its rotated bounding box, keeping its center where the comp puts it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time

import rendercv_fonts

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples"))

import bench_project as bench  # noqa: E402

ROBOTO = os.path.join(os.path.dirname(rendercv_fonts.__file__), "Roboto", "Roboto-Regular.ttf")
ENCODER = {"codec": "libx264", "preset": "veryfast", "pixel_format": "yuv420p"}


def _rgb(color) -> tuple[int, int, int]:
    return tuple(round(c * 255) for c in color[:3])


def _lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def build_scene():
    """The reference comp as one MoviePy CompositeVideoClip."""
    from moviepy import ColorClip, CompositeVideoClip, ImageClip, TextClip

    duration = bench.DURATION
    background = ColorClip((bench.WIDTH, bench.HEIGHT), color=_rgb(bench.BACKGROUND),
                           duration=duration)

    iw, ih = bench.IMAGE_SIZE
    cx, cy = bench.IMAGE_CENTER

    def scale(t: float) -> float:
        return _lerp(*bench.IMAGE_SCALE, t / duration) / 100.0

    def image_top_left(t: float) -> tuple[float, float]:
        # The bounding box of the scaled, turned image, centred on the comp's image center.
        angle = math.radians(bench.IMAGE_TURN * t)
        w, h = iw * scale(t), ih * scale(t)
        box_w = abs(w * math.cos(angle)) + abs(h * math.sin(angle))
        box_h = abs(w * math.sin(angle)) + abs(h * math.cos(angle))
        return cx - box_w / 2, cy - box_h / 2

    # RGBA, so the clip has a mask and the corners the turn uncovers stay transparent;
    # bilinear turning, as rendervisor samples images (MoviePy's resize is always Lanczos).
    picture = (ImageClip(bench.bench_image_pixels(), duration=duration)
               .resized(scale)
               .rotated(lambda t: -bench.IMAGE_TURN * t, resample="bilinear", expand=True)
               .with_position(image_top_left))

    rw, rh = bench.RECT_SIZE
    rects = [
        ColorClip((rw, rh), color=_rgb(color), duration=duration)
        .with_opacity(bench.RECT_OPACITY / 100.0)
        .with_position(lambda t, x=x, y=y: (x + bench.RECT_SPEED * t, y))
        for (x, y), color in zip(bench.RECT_STARTS, bench.RECT_COLORS)
    ]

    # The margin: MoviePy 2 sizes a label by its font's ascent and cuts off the bottom of
    # the glyphs without it.
    title = TextClip(font=ROBOTO, text=bench.TEXT, font_size=bench.TEXT_SIZE,
                     color=_rgb(bench.TEXT_FILL), margin=(0, bench.TEXT_SIZE // 4),
                     duration=duration)
    tw, th = title.size

    def title_top_left(t: float) -> tuple[float, float]:
        progress = t / duration
        x = _lerp(bench.TEXT_FROM[0], bench.TEXT_TO[0], progress)
        y = _lerp(bench.TEXT_FROM[1], bench.TEXT_TO[1], progress)
        return x - tw / 2, y - th / 2

    title = title.with_position(title_top_left)
    # Bottom to top, as the comp composites: background, image, rects, text.
    return CompositeVideoClip([background, picture, *rects, title],
                              size=(bench.WIDTH, bench.HEIGHT)).with_duration(duration)


def render_once(path: str) -> float:
    """Build the scene and write it; the wall seconds write_videofile took."""
    scene = build_scene()
    started = time.perf_counter()
    scene.write_videofile(path, fps=bench.FPS, audio=False, logger=None, **ENCODER)
    elapsed = time.perf_counter() - started
    scene.close()
    return elapsed


def measure(passes: int = 1, keep: str | None = None) -> dict:
    frames = int(round(bench.DURATION * bench.FPS))
    times = []
    with tempfile.TemporaryDirectory(prefix="rendervisor-moviepy-") as folder:
        path = os.path.join(folder, "moviepy_reference.mp4")
        for _ in range(passes):
            times.append(render_once(path))
        if keep:
            os.replace(path, keep)
    return {"peer": "moviepy", "moviepy_version": _moviepy_version(), "frames": frames,
            "width": bench.WIDTH, "height": bench.HEIGHT, "encoder": ENCODER,
            "fps": frames / min(times), "passes_fps": [frames / t for t in times],
            "seconds": min(times)}


def _moviepy_version() -> str:
    import moviepy
    return moviepy.__version__


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=1,
                        help="runs to make; the best one is reported (default 1)")
    parser.add_argument("--keep", metavar="FILE",
                        help="keep the last run's video at FILE, to look at it")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.passes, args.keep)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
