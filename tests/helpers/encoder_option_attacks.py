"""Encoder options that make FFmpeg's encoders open files by name, as attacks: the corpus
(tests/confinement/test_confinement_corpus.py) queues and renders each in a confined session, and
tests/confinement/test_confinement_encoder_options.py gives each to the command line.

Each was seen to work before codecOptions were checked: x264 truncates and overwrites the file
`dump-yuv` names, writes two-pass statistics where `stats` says (or to `x264_2pass.log` in the
working folder), reads a `cqmfile` (and fails only when it is missing: an existence test), and
x265 writes its `csv` log anywhere. x264 also reads `dump_yuv` (underscores for dashes),
`nodump-yuv` (a `no` prefix, which then writes a file called `true`) and a quoted `'dump-yuv'`
as the same key, and `x264opts` is a second way in.
"""

from __future__ import annotations

import json

from supervisor.engine.engine import Engine

# (id, format, codecOptions with {outside} for the folder outside the roots, and the option
# or x264/x265 key the refusal must name)
ATTACKS = [
    ("x264-dump-yuv", "h264", {"x264-params": "dump-yuv={outside}/canary.txt"}, "dump-yuv"),
    ("x264-dump-yuv-underscores", "h264",
     {"x264-params": "crf=20:dump_yuv={outside}/canary.txt"}, "dump_yuv"),
    ("x264-dump-yuv-quoted", "h264",
     {"x264-params": "crf=20:'dump-yuv'={outside}/canary.txt"}, "dump-yuv"),
    ("x264-no-prefix", "h264", {"x264-params": "nodump-yuv=1"}, "nodump-yuv"),
    ("x264opts-dump-yuv", "h264", {"x264opts": "dump-yuv={outside}/canary.txt"}, "x264opts"),
    ("x264-pass-stats", "h264", {"x264-params": "pass=1:stats={outside}/stats.log"}, "pass"),
    ("stats-ending-in-a-newline", "h264",
     {"stats": "{outside}/stats.log\n", "x264-params": "pass=1"}, "stats"),
    ("flags-pass1", "h264", {"flags": "+pass1"}, "flags"),
    ("x265-csv", "hevc", {"x265-params": "csv={outside}/x265.csv"}, "csv"),
    ("x264-cqmfile", "h264", {"x264-params": "cqmfile={outside}/canary.txt"}, "cqmfile"),
]


def aimed(options: dict, outside: str) -> dict:
    """An attack's codecOptions pointed at the outside folder."""
    return {name: value.replace("{outside}", outside) for name, value in options.items()}


def attack_ids() -> list[str]:
    return [attack[0] for attack in ATTACKS]


def project_storing(path: str, fmt: str, options: dict, output: str) -> str:
    """A saved project (comp "Main", 32x32, 3 frames) whose one queue item, writing `output`,
    stores `options`: written into the file, as a project from elsewhere would be, since no
    command stores them."""
    engine = Engine()
    engine.run("comp.new", {"name": "Main", "width": 32, "height": 32, "duration": 0.1})
    engine.run("layer.add", {"comp": "Main", "type": "solid", "color": "#336699"})
    engine.run("project.save", {"path": path})
    engine.run("renderQueue.add", {"comp": "Main", "output": output, "format": fmt})
    engine.run("project.save", {})
    with open(path) as handle:
        document = json.load(handle)
    document["renderQueue"][0]["codecOptions"] = options
    with open(path, "w") as handle:
        json.dump(document, handle)
    return path
