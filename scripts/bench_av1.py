"""AV1's speed, size and fidelity at SVT-AV1's presets, beside H.264 at rendervisor's defaults
(the peer: libx264, preset medium, crf 18, one thread as a render runs it), on the reference
comp (examples/bench.rvproj, 1920x1080). Prints one JSON object per line.

    .venv/bin/python scripts/bench_av1.py [--frames N] [--presets 6,8,10]

Each line: the format and its codecOptions on top of the format's defaults; `fps`, frames
encoded a second (the frames drawn beforehand; the RGBA to Y'CbCr conversion included, as a
render does it), and `speed_vs_h264`, that over H.264's in the same run; `kib`, the file's
size; `psnr_db`, the decoded luma against the luma the encoder was given.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import av  # noqa: E402
import numpy as np  # noqa: E402

from scripts.bench_dither import bench_frames  # noqa: E402
from workers.exporter.segments import encode_segment  # noqa: E402
from workers.exporter.video_encoders import encoder_setup  # noqa: E402


def luma(frame: av.VideoFrame) -> np.ndarray:
    plane = frame.planes[0]
    return np.frombuffer(plane, np.uint8).reshape(plane.height, -1)[:, :plane.width]


def measure(frames: list[np.ndarray], fmt: str, options: dict, folder: str) -> dict:
    path = os.path.join(folder, f"{fmt}-{len(os.listdir(folder))}.mp4")
    started = time.perf_counter()
    encode_segment(frames, 0, 30, fmt, options, path, keyframe_interval=len(frames))
    seconds = time.perf_counter() - started
    height, width = frames[0].shape[:2]
    setup = encoder_setup(fmt, width, height, 30, options)
    with av.open(path) as container:
        errors = [np.mean((luma(got).astype(float) - luma(setup.frame(want))) ** 2)
                  for got, want in zip(container.decode(video=0), frames)]
    return {"fps": round(len(frames) / seconds, 2), "kib": os.path.getsize(path) // 1024,
            "psnr_db": round(10 * np.log10(255 ** 2 / max(np.mean(errors), 1e-9)), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--presets", default="6,8,10")
    args = parser.parse_args()
    frames = bench_frames(args.frames)
    runs = [("h264", {"threads": "1"})]
    runs += [("av1", {"preset": preset}) for preset in args.presets.split(",")]
    runs += [("av1", {"preset": "8", "crf": "20"}),
             ("av1", {"preset": "8", "svtav1-params": "lp=1"})]
    with tempfile.TemporaryDirectory() as folder:
        measure(frames[:2], "h264", {}, folder)  # untimed: the first encoder's start-up
        peer = None
        for fmt, options in runs:
            result = measure(frames, fmt, options, folder)
            peer = peer or result["fps"]
            print(json.dumps({"format": fmt, "codecOptions": options, **result,
                              "speed_vs_h264": round(result["fps"] / peer, 2)}), flush=True)


if __name__ == "__main__":
    main()
