"""Does a key frame stop pulsing if its input carries the picture the viewer saw just before it?

An experiment: rendervisor does not encode this way (docs/outputs.md, "Key frames", has the
figures and why). Today every key frame of a video is a fresh encoder start
(segments.py), so it quantises the source afresh and swaps one error pattern for an
independent one: a near-static shot jumps at each key frame. Here each key frame is instead
given an input that continues the previous frame as decoded, P, so the decoded key frame
should stay close to P:

- `today`: the source frame S, as rendervisor encodes it now;
- `carry`: P + (S - S_prev), the previous decoded picture moved on by the source's own change;
- `carry still`: P itself, for a shot that does not move at all;
- `carry compensated`: P + (S - S_prev) as the target, and the input moved by what the
  encoder lost of it, a few times over (the key frame encoded alone, decoded, and its input
  moved by target - decoded), so that the decoded key frame lands nearer the target;
- `carry fresh`: as `carry compensated`, with P the last frame of the GOP before as today's
  encoding decodes it (a fresh key frame from the source), not as this video shows it. A
  carried key frame then depends on the source and the frame grid alone, as segments need,
  at the price of encoding each GOP twice; the aim is that the two endings are close.
- `carry gop`: as `carry compensated`, and the frames after the key frame too are given the
  target moved on by the source's change since the key frame, not the source itself (the
  error pattern is carried through the whole video, not only across the key frame).

The shot and the measure are those of tests/exporter/test_key_frame_pulse.py (a 1.5 px a
second drift over a textured picture, 320x180), encoded with rendervisor's own segment
encoder on the video's key frame grid and joined by packet copy as a render joins segments.
Each GOP is encoded as a segment of its own (the encoder restarts there anyway, so for
`today` the file is the same bytes as any other split on the grid); a carried GOP needs the
decoded last frame of the GOP before it.

    .venv/bin/python scripts/carried_key_frames.py [--format h264,hevc,av1] [--frames N]
        [--modes "today,carry,..."] [--compensations N] [--codec-option KEY=VALUE ...]

Prints one JSON object per line and mode: `ratio` (largest difference into a key frame over
the median difference, the figure the 2x aim is about), `key_over_source` (that difference
over the source's median difference), `follow` (decoded median difference over the
source's: the "between / source" flicker), the file's size in KiB, and the PSNR of the
decoded frames against the source (dB, RGB, all frames; `psnr_keys` at key frames only).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.exporter.test_key_frame_pulse import (FRAMES, decoded_frames,  # noqa: E402
                                                 drifting_frames, pulse_of)
from workers.exporter import (OpenedFiles, encode_segment, join_segments,  # noqa: E402
                              keyframe_interval_for, segment_path)


def rgba(rgb: np.ndarray) -> np.ndarray:
    opaque = np.full(rgb.shape[:2] + (1,), 255, np.uint8)
    return np.concatenate([np.clip(rgb, 0, 255).astype(np.uint8), opaque], -1)


COMPENSATIONS = 4


def compensated(target: np.ndarray, start: int, fmt: str, interval: int, folder: str,
                opened: OpenedFiles, compensations: int, options: dict) -> np.ndarray:
    """An input whose decoded key frame is nearer `target` than `target`'s own would be."""
    path = os.path.join(folder, "key-alone.mp4")
    given = target.astype(np.float64)
    for _ in range(compensations):
        encode_segment([rgba(given)], start, 30, fmt, options, path, opened=opened,
                       keyframe_interval=interval)
        given += target - decoded_frames(path)[0]
        os.remove(path)
        opened.forget(path)
    return rgba(given)


def carried(mode: str, fmt: str, source: list[np.ndarray], start: int, stop: int,
            previous: np.ndarray, folder: str, opened: OpenedFiles,
            compensations: int, options: dict) -> list[np.ndarray]:
    """The encoder's input for the GOP of frames start..stop-1 in a carrying `mode`;
    `previous` is the decoded frame before `start`."""
    def moved_on(frame: np.ndarray) -> np.ndarray:  # P + (S - S_prev), S_prev before the GOP
        return previous + frame[..., :3].astype(np.int16) - source[start - 1][..., :3]

    target = previous if mode == "carry still" else moved_on(source[start])
    if mode in ("carry compensated", "carry gop", "carry fresh"):
        key = compensated(target, start, fmt, keyframe_interval_for(len(source)),
                          folder, opened, compensations, options)
    else:
        key = rgba(target)
    if mode == "carry gop":
        return [key] + [rgba(moved_on(frame)) for frame in source[start + 1:stop]]
    return [key] + source[start + 1:stop]


def encode(mode: str, source: list[np.ndarray], fmt: str, folder: str,
           compensations: int = COMPENSATIONS, options: dict | None = None) -> str:
    count = len(source)
    interval = keyframe_interval_for(count)
    final = os.path.join(folder, f"{fmt}-{mode.replace(' ', '-')}.mp4")
    opened, segments, previous = OpenedFiles(), [], None
    for start in range(0, count, interval):
        stop = min(count, start + interval)
        frames = source[start:stop]
        if mode != "today" and previous is not None:
            frames = carried(mode, fmt, source, start, stop, previous, folder, opened,
                             compensations, options)
        segments.append(segment_path(final, start))
        encode_segment(frames, start, 30, fmt, options, segments[-1], opened=opened,
                       keyframe_interval=interval)
        if mode == "carry fresh":
            # what today's encoding of this GOP ends on: the source's frames from a fresh key
            # frame, which a worker can redraw and re-encode knowing only the frame grid
            reference = os.path.join(folder, "reference.mp4")
            encode_segment(source[start:stop], start, 30, fmt, options, reference,
                           opened=opened, keyframe_interval=interval)
            previous = decoded_frames(reference)[-1]
            opened.remove(reference)
        elif mode != "today":
            previous = decoded_frames(segments[-1])[-1]
    join_segments(segments, fmt, final, 30, opened=opened)
    opened.keep([final])
    return final


def psnr(a: np.ndarray, b: np.ndarray) -> float:
    return float(10 * np.log10(255 ** 2 / np.mean((a.astype(float) - b) ** 2)))


def figures(path: str, source: list[np.ndarray]) -> dict:
    interval = keyframe_interval_for(len(source))
    pictures = decoded_frames(path)
    rgb = [frame[..., :3] for frame in source]
    keys = range(interval, len(source), interval)
    return {**pulse_of(path, source, interval).figures(),
            "psnr": round(float(np.mean([psnr(a, b) for a, b in zip(pictures, rgb)])), 2),
            "psnr_keys": round(float(np.mean([psnr(pictures[i], rgb[i]) for i in keys])), 2),
            "keyframe_interval": interval}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--format", default="h264", help="comma-separated formats")
    parser.add_argument("--frames", type=int, default=FRAMES)
    parser.add_argument("--compensations", type=int, default=COMPENSATIONS,
                        help=f"encodes of a compensated key frame (default {COMPENSATIONS})")
    parser.add_argument("--codec-option", action="append", default=[], metavar="KEY=VALUE",
                        help="an item codecOption on top of rendervisor's (repeatable)")
    parser.add_argument("--modes", default="today,carry,carry still,carry compensated,carry gop")
    args = parser.parse_args()
    source = drifting_frames(args.frames)
    options = dict(option.split("=", 1) for option in args.codec_option) or None
    with tempfile.TemporaryDirectory() as folder:
        for fmt in args.format.split(","):
            for mode in args.modes.split(","):
                path = encode(mode, source, fmt, folder, args.compensations, options)
                print(json.dumps({"format": fmt, "mode": mode, "frames": args.frames,
                                  "codecOptions": options,
                                  **figures(path, source)}), flush=True)


if __name__ == "__main__":
    main()
