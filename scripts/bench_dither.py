"""What the ordered dither of 8-bit Y'CbCr video (workers/exporter/dithered_yuv.py) costs and
buys, on the reference comp (examples/bench.rvproj, 1920x1080) and on a dark gradient of the
same size. Prints one JSON object.

    .venv/bin/python scripts/bench_dither.py [--passes N] [--frames N]

`convert_ms`: one 1080p frame from RGBA to the yuv420p frame H.264 takes, FFmpeg's conversion
rounded to nearest (`dither=none`) against ours (`ordered`), the median and the fastest of N
passes over the frames.
`bench_bytes`: the comp's first `--frames` frames as one H.264 segment at the format's defaults
(crf 18, preset medium), each way. `gradient`: the longest flat run in the decoded luma of a
dark gradient (#101418 to #20262c across the frame, the rows averaged), each way, with the
bytes of its single frame.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import av  # noqa: E402
import numpy as np  # noqa: E402

from supervisor.engine.engine import Engine  # noqa: E402
from tests.helpers.bands import longest_flat_run  # noqa: E402
from workers.compositor import render_frame  # noqa: E402
from workers.exporter.pixels import video_frame  # noqa: E402
from workers.exporter.segments import encode_segment  # noqa: E402

DITHERS = ("none", "ordered")


def bench_frames(count: int) -> list[np.ndarray]:
    engine = Engine(os.path.join(ROOT, "examples", "bench.rvproj"))
    return [render_frame(engine.doc, "Bench", n / 30).pixels.copy() for n in range(count)]


def gradient_frame() -> np.ndarray:
    engine = Engine()
    engine.run("comp.new", {"name": "Sky", "width": 1920, "height": 1080, "duration": 1 / 30})
    engine.run("layer.add", {"comp": "Sky", "type": "shape", "shape": "rect",
                             "size": [1920, 1080], "fill": {
                                 "type": "linear", "start": [0, 0], "end": [1920, 0],
                                 "stops": [[0, "#101418"], [1, "#20262c"]]}})
    return render_frame(engine.doc, "Sky", 0.0).pixels.copy()


def convert_ms(frames: list[np.ndarray], passes: int) -> dict:
    """Each way's median and fastest time per frame, the two timed back to back on every frame
    in alternating order, so a busy machine slows both alike."""
    times: dict[str, list[float]] = {dither: [] for dither in DITHERS}
    for turn in range(passes):
        for rgba in frames:
            for dither in DITHERS if turn % 2 else DITHERS[::-1]:
                start = time.perf_counter()
                video_frame(rgba, False, "yuv420p", dither)
                times[dither].append(time.perf_counter() - start)
    return {dither: {"median": round(statistics.median(spent) * 1000, 2),
                     "fastest": round(min(spent) * 1000, 2)} for dither, spent in times.items()}


def encoded(frames: list[np.ndarray], dither: str, folder: str) -> str:
    path = os.path.join(folder, f"{dither}_{len(frames)}.mp4")
    encode_segment(frames, 0, 30, "h264", {"dither": dither}, path,
                   keyframe_interval=len(frames))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--frames", type=int, default=30)
    args = parser.parse_args()
    frames = bench_frames(args.frames)
    gradient = gradient_frame()
    report = {"convert_ms": convert_ms(frames, args.passes), "bench_bytes": {}, "gradient": {}}
    with tempfile.TemporaryDirectory() as folder:
        for dither in DITHERS:
            report["bench_bytes"][dither] = os.path.getsize(encoded(frames, dither, folder))
            path = encoded([gradient], dither, folder)
            with av.open(path) as video:
                frame = next(video.decode(video=0))
            luma = np.frombuffer(frame.planes[0], np.uint8).reshape(frame.height, -1)
            seen = list(np.round(luma[:, :frame.width].mean(axis=0), 3))
            report["gradient"][dither] = {"longest_flat_run": longest_flat_run(seen),
                                          "bytes": os.path.getsize(path)}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
