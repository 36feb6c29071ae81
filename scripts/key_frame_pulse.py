"""How much a near-static shot jumps at its key frames under x264 settings: the measure of
tests/exporter/test_key_frame_pulse.py (a 1.5 px a second drift over a textured picture,
320x180, 60 frames, encoded in segments on the render's key frame grid as a render does, then
decoded), for rendervisor's own settings and the alternatives tried. Prints one JSON object per
line.

    .venv/bin/python scripts/key_frame_pulse.py [--only NAME,...]

For each setting: `ratio`, the largest frame-to-frame difference at a key frame over the median
difference (the pulse a viewer sees against the shot's motion); `key_over_source`, that same
key frame difference over the source's own median difference (the jump itself, whatever the
frames between do); `follow`, the decoded median difference over the source's (above 1: the
frames between flicker more than the shot moves); and the file's size in KiB.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

from tests.exporter.test_key_frame_pulse import (FRAMES, drifting_frames,  # noqa: E402
                                                 frame_differences)
from workers.exporter import (OpenedFiles, encode_segment, join_segments,  # noqa: E402
                              keyframe_interval_for, segment_path, segment_ranges)

# name -> the item's codecOptions (on top of rendervisor's own: crf 18, mbtree=0)
SETTINGS = {
    "rendervisor": {},
    "mbtree (x264's default)": {"x264-params": "mbtree=1"},
    "ipratio=1.0": {"x264-params": "ipratio=1.0"},
    "aq-mode=3": {"x264-params": "aq-mode=3"},
    "ipratio=1.0, aq-mode=3": {"x264-params": "ipratio=1.0:aq-mode=3"},
    "ipratio=2.0 (sharper key frames)": {"x264-params": "ipratio=2.0"},
    "constant qp 20, ipratio=1.0": {"x264-params": "qp=20:ipratio=1.0"},
    "constant qp 16, ipratio=1.0": {"x264-params": "qp=16:ipratio=1.0"},
    "psy-rd=0,0": {"x264-params": "psy-rd=0,0"},
    "deadzones 0, ipratio=1.0": {"x264-params": "deadzone-inter=0:deadzone-intra=0:"
                                                "ipratio=1.0"},
    "no dct-decimate, no fast-pskip": {"x264-params": "dct-decimate=0:fast-pskip=0:"
                                                      "ipratio=1.0"},
    "dither none": {"dither": "none"},
    "tune grain": {"tune": "grain"},
    "tune grain, ipratio=3.0": {"tune": "grain", "x264-params": "ipratio=3.0"},
    "tune grain, crf 16": {"tune": "grain", "crf": "16"},
    "tune grain, crf 15": {"tune": "grain", "crf": "15"},
    "crf 15": {"crf": "15"},
    "crf 12": {"crf": "12"},
    "crf 8": {"crf": "8"},
    "lossless (qp 0)": {"x264-params": "qp=0"},
}


def measure(frames: list, options: dict, folder: str) -> dict:
    interval = keyframe_interval_for(FRAMES)
    final = os.path.join(folder, "drift.mp4")
    if os.path.exists(final):
        os.remove(final)
    opened, segments = OpenedFiles(), []
    for run in segment_ranges(FRAMES, 2, interval):
        segments.append(segment_path(final, run.start))
        encode_segment(frames[run.start:run.stop], run.start, 30, "h264", options,
                       segments[-1], opened=opened, keyframe_interval=interval)
    join_segments(segments, "h264", final, 30, opened=opened)
    differences = frame_differences(final)
    at_keys = differences[[index - 1 for index in range(interval, FRAMES, interval)]]
    median = float(np.median(differences))
    source = float(np.median([np.abs(b[..., :3].astype(int) - a[..., :3]).mean()
                              for a, b in zip(frames, frames[1:])]))
    return {"ratio": round(float(at_keys.max()) / median, 2),
            "key_over_source": round(float(at_keys.max()) / source, 2),
            "follow": round(median / source, 2), "kib": os.path.getsize(final) // 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated names of SETTINGS")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(SETTINGS)
    frames = drifting_frames()
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            print(json.dumps({"setting": name, "codecOptions": SETTINGS[name],
                              **measure(frames, SETTINGS[name], folder)}), flush=True)


if __name__ == "__main__":
    main()
