"""How much a near-static shot jumps at its key frames under x264, x265 and SVT-AV1 settings:
the measure of tests/exporter/test_key_frame_pulse.py (a 1.5 px a second drift over a textured
picture, 320x180, 60 frames, encoded in segments on the render's key frame grid as a render
does, then decoded), for rendervisor's own settings and the alternatives tried. Prints one JSON
object per line.

    .venv/bin/python scripts/key_frame_pulse.py [--format h264,hevc,av1] [--only "NAME;..."] [--frames N]

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

from tests.exporter.test_key_frame_pulse import (FRAMES, drifting_frames,  # noqa: E402
                                                 measure_pulse)
from workers.exporter import keyframe_interval_for  # noqa: E402

# format -> name -> the item's codecOptions (on top of rendervisor's own: for h264 crf 18 and
# mbtree=0, for hevc crf 20 and cutree=0, for av1 those of protocol/model/output_formats.py)
SETTINGS = {
    "h264": {
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
        "ipratio=1.2": {"x264-params": "ipratio=1.2"},
        "ipratio=1.7": {"x264-params": "ipratio=1.7"},
        "qcomp=1.0": {"x264-params": "qcomp=1.0"},
        "qcomp=0.3": {"x264-params": "qcomp=0.3"},
        "ipratio=1.0, qcomp=1.0": {"x264-params": "ipratio=1.0:qcomp=1.0"},
        "aq-mode=0": {"x264-params": "aq-mode=0"},
        "aq-mode=2": {"x264-params": "aq-mode=2"},
        "aq-strength=0.5": {"x264-params": "aq-strength=0.5"},
        "trellis=0": {"x264-params": "trellis=0"},
        "deblock=-2,-2": {"x264-params": "deblock=-2,-2"},
        "deblock=2,2": {"x264-params": "deblock=2,2"},
        "tune stillimage": {"tune": "stillimage"},
        "preset slow": {"preset": "slow"},
        "nr=100": {"x264-params": "nr=100"},
        "ipratio=1.7, psy-rd=1.0,0.5": {"x264-params": "ipratio=1.7:psy-rd=1.0,0.5"},
        "tune grain, crf 17": {"tune": "grain", "crf": "17"},
        "crf 16": {"crf": "16"},
        "dct-decimate=0": {"x264-params": "dct-decimate=0"},
        "fast-pskip=0": {"x264-params": "fast-pskip=0"},
        "trellis=0, deadzone-inter=11": {"x264-params": "trellis=0:deadzone-inter=11"},
        "trellis=0, deadzones 6": {"x264-params": "trellis=0:deadzone-inter=6:"
                                                  "deadzone-intra=6"},
        "trellis=0, deadzone-inter=11, dct-decimate=0": {
            "x264-params": "trellis=0:deadzone-inter=11:dct-decimate=0"},
        "aq-mode=0, trellis=0": {"x264-params": "aq-mode=0:trellis=0"},
        "aq-mode=0, ipratio=1.2": {"x264-params": "aq-mode=0:ipratio=1.2"},
        "aq-mode=0, crf 19": {"x264-params": "aq-mode=0", "crf": "19"},
        "aq-mode=0, crf 20": {"x264-params": "aq-mode=0", "crf": "20"},
        "aq-strength=0.5, crf 19": {"x264-params": "aq-strength=0.5", "crf": "19"},
        "dct-decimate=0, trellis=0": {"x264-params": "dct-decimate=0:trellis=0"},
    },
    "hevc": {
        "rendervisor": {},
        "cutree (x265's default)": {"x265-params": "cutree=1"},
        "ipratio=1.0": {"x265-params": "ipratio=1.0"},
        "ipratio=2.0": {"x265-params": "ipratio=2.0"},
        "qcomp=1.0": {"x265-params": "qcomp=1.0"},
        "aq-mode=0": {"x265-params": "aq-mode=0"},
        "aq-mode=3": {"x265-params": "aq-mode=3"},
        "psy-rd=0, psy-rdoq=0": {"x265-params": "psy-rd=0:psy-rdoq=0"},
        "psy-rdoq=4": {"x265-params": "psy-rdoq=4"},
        "sao=0": {"x265-params": "sao=0"},
        "strong-intra-smoothing=0": {"x265-params": "strong-intra-smoothing=0"},
        "rskip=0": {"x265-params": "rskip=0"},
        "tune grain": {"tune": "grain"},
        "crf 16": {"crf": "16"},
        "crf 14": {"crf": "14"},
        "tune grain, crf 16": {"tune": "grain", "crf": "16"},
        "lossless": {"x265-params": "lossless=1"},
        "rdoq-level=0": {"x265-params": "rdoq-level=0"},
        "aq-mode=0, sao=0": {"x265-params": "aq-mode=0:sao=0"},
        "aq-mode=0, sao=0, rskip=0": {"x265-params": "aq-mode=0:sao=0:rskip=0"},
        "ipratio=1.2": {"x265-params": "ipratio=1.2"},
        "aq-mode=0, crf 21": {"x265-params": "aq-mode=0", "crf": "21"},
        "early-skip=0, rskip=0": {"x265-params": "early-skip=0:rskip=0"},
    },
    "av1": {
        "rendervisor": {},
        "preset 6": {"preset": "6"},
        "preset 10": {"preset": "10"},
        "no temporal filter": {"svtav1-params": "enable-tf=0"},
        "tune 0 (visual quality)": {"svtav1-params": "tune=0"},
        "qp-scale-compress-strength=3": {"svtav1-params": "qp-scale-compress-strength=3"},
        "qp-scale-compress-strength=3, no tf": {
            "svtav1-params": "qp-scale-compress-strength=3:enable-tf=0"},
        "low delay (pred-struct 1)": {"svtav1-params": "pred-struct=1"},
        "aq-mode=0": {"svtav1-params": "aq-mode=0"},
        "variance boost": {"svtav1-params": "enable-variance-boost=1"},
        "crf 26": {"crf": "26"},
        "crf 20": {"crf": "20"},
        "crf 26, qp-scale-compress-strength=3, no tf": {
            "crf": "26", "svtav1-params": "qp-scale-compress-strength=3:enable-tf=0"},
    },
}


def measure(frames: list, fmt: str, options: dict, folder: str) -> dict:
    return {**measure_pulse(frames, fmt, options, folder).figures(),
            "keyframe_interval": keyframe_interval_for(len(frames))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--format", default=",".join(SETTINGS),
                        help="comma-separated formats (default: all of them)")
    parser.add_argument("--only", help="names of a format's SETTINGS, separated by ;")
    parser.add_argument("--frames", type=int, default=FRAMES,
                        help=f"length of the shot (default {FRAMES}: a key frame every "
                             f"{keyframe_interval_for(FRAMES)} frames; 240 gives every 30)")
    args = parser.parse_args()
    frames = drifting_frames(args.frames)
    with tempfile.TemporaryDirectory() as folder:
        for fmt in args.format.split(","):
            names = args.only.split(";") if args.only else list(SETTINGS[fmt])
            for name in names:
                options = SETTINGS[fmt][name]
                print(json.dumps({"format": fmt, "setting": name, "codecOptions": options,
                                  **measure(frames, fmt, options, folder)}), flush=True)


if __name__ == "__main__":
    main()
