"""The peer for scripts/bench_render.py and scripts/bench_layers.py: the bench comp, and comps
of many moving solids, drawn by a plain Skia loop, with no document, no keyframes and no
compositor, as fast as straightforward skia-python gets.

It draws the same things from the same constants (examples/bench_project.py,
scripts/layer_scenes.py) and reads each frame back into one preallocated array, so the ratio of
the compositor's frame rate to this one is the cost of the compositor itself. `solids_loop`
can also encode each frame to a JPEG file with PyAV, as a render worker's exporter does
(FFmpeg's mjpeg, full-range 4:4:4, quality 2).

    .venv/bin/python scripts/peers/plain_skia_reference.py
"""

from __future__ import annotations

import json
import os
import sys
import time
from fractions import Fraction

import numpy as np
import rendercv_fonts
import skia

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import av  # noqa: E402
import bench_project as bench  # noqa: E402
import layer_scenes as scenes  # noqa: E402

ROBOTO = os.path.join(os.path.dirname(rendercv_fonts.__file__), "Roboto", "Roboto-Regular.ttf")


def _lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def render_loop(frames: int) -> float:
    """Draw and read back `frames` frames; the seconds it took."""
    surface = skia.Surface.MakeRaster(skia.ImageInfo.Make(
        bench.WIDTH, bench.HEIGHT, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType))
    canvas = surface.getCanvas()
    out = np.empty((bench.HEIGHT, bench.WIDTH, 4), np.uint8)
    pixmap = skia.Pixmap(skia.ImageInfo.Make(bench.WIDTH, bench.HEIGHT,
                                             skia.kRGBA_8888_ColorType,
                                             skia.kPremul_AlphaType), out, bench.WIDTH * 4)
    image = skia.Image.fromarray(bench.bench_image_pixels(),
                                 colorType=skia.kRGBA_8888_ColorType)
    sampling = skia.SamplingOptions(skia.FilterMode.kLinear, skia.MipmapMode.kNone)
    font = skia.Font(skia.Typeface.MakeFromFile(ROBOTO), bench.TEXT_SIZE)
    blob = skia.TextBlob.MakeFromString(bench.TEXT, font)
    text_width = font.measureText(bench.TEXT)
    background = skia.Paint(Color4f=skia.Color4f(*bench.BACKGROUND))
    rect_paints = []
    for color in bench.RECT_COLORS:
        paint = skia.Paint(AntiAlias=True, Color4f=skia.Color4f(*color))
        paint.setAlphaf(bench.RECT_OPACITY / 100.0)
        rect_paints.append(paint)
    text_paint = skia.Paint(AntiAlias=True, Color4f=skia.Color4f(*bench.TEXT_FILL))
    w, h = bench.RECT_SIZE
    iw, ih = bench.IMAGE_SIZE
    started = time.perf_counter()
    for frame in range(frames):
        t = frame / bench.FPS
        progress = t / bench.DURATION
        canvas.clear(skia.Color4f(0, 0, 0, 1))
        canvas.drawRect(skia.Rect.MakeWH(bench.WIDTH, bench.HEIGHT), background)
        canvas.save()
        canvas.translate(*bench.IMAGE_CENTER)
        canvas.rotate(bench.IMAGE_TURN * t)
        scale = _lerp(*bench.IMAGE_SCALE, progress) / 100.0
        canvas.scale(scale, scale)
        canvas.drawImage(image, -iw / 2, -ih / 2, sampling, None)
        canvas.restore()
        for (x, y), paint in zip(bench.RECT_STARTS, rect_paints):
            canvas.drawRect(skia.Rect.MakeXYWH(x + bench.RECT_SPEED * t, y, w, h), paint)
        ty = _lerp(bench.TEXT_FROM[1], bench.TEXT_TO[1], progress)
        canvas.drawTextBlob(blob, bench.TEXT_FROM[0] - text_width / 2, ty, text_paint)
        surface.readPixels(pixmap)
    return time.perf_counter() - started


def solids_loop(count: int, frames: int, folder: str | None = None,
                clock=time.perf_counter) -> float:
    """Draw `frames` frames of scripts/layer_scenes.solids(count) (and, with `folder`, encode
    each to a JPEG file there); the seconds it took, by `clock` (wall time, or the process's
    CPU time: time.process_time)."""
    width, height = scenes.WIDTH, scenes.HEIGHT
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
    surface = skia.Surface.MakeRaster(info)
    canvas = surface.getCanvas()
    out = np.empty((height, width, 4), np.uint8)
    pixmap = skia.Pixmap(info, out, width * 4)
    w, h = scenes.SOLID_SIZE
    rect = skia.Rect.MakeXYWH(-w / 2, -h / 2, w, h)
    layers = [(motion, skia.Paint(AntiAlias=True, Color4f=skia.Color4f(*motion.color)))
              for motion in scenes.motions(count)]
    background = skia.Color4f(*scenes.BACKGROUND)
    encoder = None
    if folder is not None:
        encoder = av.CodecContext.create("mjpeg", "w")
        encoder.width, encoder.height, encoder.pix_fmt = width, height, "yuvj444p"
        encoder.time_base = Fraction(1, scenes.FPS)
        encoder.options = {"qmin": "2", "qmax": "2"}
        encoder.open()
    started = clock()
    for frame in range(frames):
        progress = frame / scenes.FPS / scenes.DURATION
        canvas.clear(background)
        for motion, paint in layers:
            (x0, y0), (x1, y1) = motion.start, motion.end
            canvas.save()
            canvas.translate(_lerp(x0, x1, progress), _lerp(y0, y1, progress))
            canvas.rotate(motion.turn * progress)
            canvas.drawRect(rect, paint)
            canvas.restore()
        surface.readPixels(pixmap)
        if encoder is not None:
            picture = av.VideoFrame.from_ndarray(out, format="rgba").reformat(format="yuvj444p")
            data = b"".join(bytes(packet) for packet in encoder.encode(picture))
            with open(os.path.join(folder, f"frame{frame:04d}.jpg"), "wb") as handle:
                handle.write(data)
    return clock() - started


def measure(frames: int, passes: int = 3) -> dict:
    render_loop(2)  # warm-up: first-use costs (glyph cache, code paths) are not the loop's
    times = [render_loop(frames) for _ in range(passes)]
    return {"fps": frames / min(times), "passes_fps": [frames / t for t in times]}


if __name__ == "__main__":
    frames = int(round(bench.DURATION * bench.FPS))
    print(json.dumps({"peer": "plain skia loop", "frames": frames, **measure(frames)}))
