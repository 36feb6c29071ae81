"""How long frames take as a render worker draws them, and where the time goes, stage by stage.

    render_seconds(document, frames)
    python scripts/frame_timing.py DOCUMENTS.json FRAMES [cpu]   # {name: seconds per frame}
    python scripts/frame_timing.py stages [--comp NAME]... [--frames N] [--format h264]
        [--codec-option KEY=VALUE]... [--markdown]

The first two draw with whatever rendervisor is importable: from the snapshot's render plan,
prepared a chunk at a time, into one reused array; a checkout from before render plans draws
them with render_frame alone, as its workers did. scripts/bench_layers.py runs the second form
with PYTHONPATH set to an older checkout, so the same documents are timed by the code before a
change, on the same machine, between its own passes.

`stages` runs a render's whole worker pipeline in this one process, as one worker would run
every chunk of the item: the render plan compiled and prepared per chunk, each frame drawn
into one reused array and handed to the exporter, each chunk encoded as a segment, the
segments joined into the video. Every stage is timed exclusively (a stage's time excludes the
stages it calls), in CPU time of this thread (`cpu_ms`, what the work costs whatever else the
machine runs) and in wall time (`wall_ms`), per frame:

    plan: compile, prepare, matrices      the render plan (render_plan.py)
    frame                                 clearing, the still bottom's bookkeeping
    still bottom: restore, keep           kept pixels put back (still_layers.py)
    draw <type>                           a layer drawn on its own, by layer type
    draw run of N <type>                  adjacent plain layers drawn in one loop
    effects: Skia layer                   an isolated layer: saveLayer and its filter chain
    effects float: content, blur, composite, colour, draw back   (float_effects.py)
    readback                              a surface read into the frame (transparent renders)
    colour conversion                     RGBA to the encoder's pixel format, dithered
    encode, encoder start                 the encoder itself, and each restart at a key frame
    segment                               muxing the segment's packets, the exporter's loop
    join                                  the segments copied into the video (and its sound)

The comps (`--comp`, every one by default): `reference` (examples/bench.rvproj),
`remotion` (examples/remotion_equivalent.rvproj), `layers400` (400 moving, turning solids,
scripts/layer_scenes.py) and `text` (50 moving, turning text layers, the same scenes).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np

# rendervisor is imported from the path (PYTHONPATH, or the checkout installed in the venv),
# never from beside this script: bench_layers.py runs this file against an older checkout.
from protocol.model.keyframes import frame_time
from workers.compositor import FootageCache, render_frame

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

try:
    from workers.compositor import RenderPlan
except ImportError:  # a checkout from before render plans
    RenderPlan = None

CHUNK = 24  # frames per prepared chunk, as a video chunk of the reference render
# The encoder settings of the render benchmarks (scripts/bench_render.py, bench_remotion.py).
BENCH_CODEC_OPTIONS = {"preset": "veryfast", "crf": "23"}


def render_seconds(document: dict, frames: int, clock=time.perf_counter) -> float:
    """Seconds to draw `frames` frames of the document's first comp (after a warm-up frame), by
    `clock` (wall time, or the process's CPU time: time.process_time)."""
    comp = document["comps"][0]
    out = np.empty((comp["height"], comp["width"], 4), np.uint8)
    cache = FootageCache()
    times = [frame_time(number, comp["frameRate"]) for number in range(frames)]
    if RenderPlan is None:
        render_frame(document, comp["id"], times[0], footage=cache, out=out)
        started = clock()
        for at in times:
            render_frame(document, comp["id"], at, footage=cache, out=out)
        return clock() - started
    plan = RenderPlan(document, comp["id"], cache)
    render_frame(document, comp["id"], times[0], footage=cache, out=out, plan=plan)
    started = clock()
    for first in range(0, frames, CHUNK):
        chunk = times[first:first + CHUNK]
        plan.prepare(chunk, reused_out=True)  # as the render_chunk task does
        for at in chunk:
            render_frame(document, comp["id"], at, footage=cache, out=out, plan=plan)
    return clock() - started


# -- stages ------------------------------------------------------------------------------------

class Stages:
    """Exclusive CPU and wall time per stage: functions are wrapped to push their stage while
    they run, and time goes to the stage on top."""

    def __init__(self) -> None:
        self.cpu: dict[str, int] = {}
        self.wall: dict[str, int] = {}
        self.calls: dict[str, int] = {}
        self._stack = ["other"]
        self._since = (time.thread_time_ns(), time.perf_counter_ns())
        self.process_started = time.process_time_ns()  # every thread's, to show any the stages miss
        self._undo: list = []

    def _switch(self, stage: str | None) -> None:
        cpu, wall = time.thread_time_ns(), time.perf_counter_ns()
        top = self._stack[-1]
        self.cpu[top] = self.cpu.get(top, 0) + cpu - self._since[0]
        self.wall[top] = self.wall.get(top, 0) + wall - self._since[1]
        self._since = (cpu, wall)
        if stage is None:
            self._stack.pop()
        else:
            self._stack.append(stage)
            self.calls[stage] = self.calls.get(stage, 0) + 1

    def timed(self, function, label):
        """`function`, timed as the stage `label` (a name, or a function of the call's args)."""
        def wrapper(*args, **kwargs):
            self._switch(label if isinstance(label, str) else label(*args, **kwargs))
            try:
                return function(*args, **kwargs)
            finally:
                self._switch(None)
        return wrapper

    def wrap(self, owner, name: str, label) -> None:
        original = getattr(owner, name)
        self._undo.append((owner, name, original))
        setattr(owner, name, self.timed(original, label))

    def undo(self) -> None:
        for owner, name, original in reversed(self._undo):
            setattr(owner, name, original)
        self._undo.clear()

    def per_frame(self, frames: int) -> dict:
        self._switch("other")  # books the time up to now
        self._stack.pop()
        order = sorted(self.cpu, key=self.cpu.get, reverse=True)
        total_cpu, total_wall = sum(self.cpu.values()), sum(self.wall.values())
        rows = {stage: {"cpu_ms": round(self.cpu[stage] / 1e6 / frames, 3),
                        "wall_ms": round(self.wall[stage] / 1e6 / frames, 3),
                        "share": round(self.cpu[stage] / total_cpu, 3),
                        "calls": self.calls.get(stage, 0)} for stage in order}
        return {"cpu_ms_per_frame": round(total_cpu / 1e6 / frames, 2),
                "process_cpu_ms_per_frame": round(
                    (time.process_time_ns() - self.process_started) / 1e6 / frames, 2),
                "wall_ms_per_frame": round(total_wall / 1e6 / frames, 2),
                "cpu_fps": round(frames / (total_cpu / 1e9), 1), "stages": rows}


class _TimedEncoder:
    """An encoder whose `encode` is timed as the stage `encode`."""

    def __init__(self, encoder, stages: Stages) -> None:
        self._encoder = encoder
        self.encode = stages.timed(encoder.encode, "encode")

    def __getattr__(self, name):
        return getattr(self._encoder, name)


class _InlineEncoder:
    """encoder_thread.EncoderThread's interface, encoding on the caller's thread."""

    def __init__(self, encode) -> None:
        self.put = encode

    def finish(self) -> None:
        pass

    def stop(self) -> None:
        pass


def instrument(stages: Stages) -> None:
    """Wrap the functions whose time makes up a render worker's stages."""
    from workers.compositor import float_effects, frame, isolated_layers, render_plan
    from workers.compositor.still_layers import StillLayers
    from workers.exporter import chunks, segments
    from workers.exporter.video_encoders import EncoderSetup

    stages.wrap(render_plan.RenderPlan, "__init__", "plan: compile")
    stages.wrap(render_plan.RenderPlan, "prepare", "plan: prepare")
    stages.wrap(render_plan, "Frames", "plan: matrices")
    stages.wrap(render_plan.RenderPlan, "draw", "frame")
    stages.wrap(StillLayers, "restore", "still bottom: restore")
    stages.wrap(StillLayers, "offer", "still bottom: keep")
    stages.wrap(render_plan.LayerPlan, "draw",
                lambda layer, *args, **kwargs: f"draw {layer.layer.get('type')}")
    stages.wrap(render_plan.DirectRun, "draw", lambda run, *args, **kwargs: "draw run of "
                f"{len(run.layers)} {'/'.join(sorted({l.layer.get('type') for l in run.layers}))}")
    stages.wrap(isolated_layers, "draw_isolated", "effects: Skia layer")
    stages.wrap(isolated_layers.float_effects, "draw_in_float", "effects float: draw back")
    stages.wrap(isolated_layers.float_effects, "draw_cut_in_float", "effects float: draw back")
    for name, label in (("_content", "content"), ("_blurred", "blur"), ("_over", "composite"),
                        ("_color_matrix", "colour")):
        stages.wrap(float_effects, name, f"effects float: {label}")
    stages.wrap(frame, "_read", "readback")
    stages.wrap(EncoderSetup, "frame", "colour conversion")
    stages.wrap(chunks, "encode_segment", "segment")
    if hasattr(segments, "EncoderThread"):
        # Encoded on the calling thread, so each stage's cost is timed where it is spent (a
        # render overlaps encoding with drawing; its CPU utilisation says how well).
        stages._undo.append((segments, "EncoderThread", segments.EncoderThread))
        segments.EncoderThread = _InlineEncoder
    fresh = segments.fresh_encoder
    stages._undo.append((segments, "fresh_encoder", fresh))
    segments.fresh_encoder = lambda *args: _TimedEncoder(
        stages.timed(fresh, "encoder start")(*args), stages)


def comp_documents(names: list[str]) -> dict:
    """The comps `stages` profiles, by name, as documents the engine opened."""
    from supervisor.engine.engine import Engine
    sys.path.insert(0, HERE)
    import layer_scenes

    makers = {
        "reference": lambda: Engine(os.path.join(ROOT, "examples", "bench.rvproj")).snapshot()[1],
        "remotion": lambda: Engine(os.path.join(ROOT, "examples",
                                                "remotion_equivalent.rvproj")).snapshot()[1],
        "layers400": lambda: layer_scenes.solids(400),
        "text": lambda: layer_scenes.texts(50),
    }
    return {name: makers[name]() for name in names}


def profile_stages(document: dict, frames: int, fmt: str, codec_options: dict,
                   workers: int = 2) -> dict:
    """One item of `frames` frames of the document's first comp rendered to `fmt` as a render
    would split it for `workers`, every chunk in this process, stage by stage."""
    from workers.exporter import OpenedFiles, export_chunk, join_segments, plan_chunks
    from workers.compositor import render_plan as plans

    comp = document["comps"][0]
    rate = comp["frameRate"]
    stages = Stages()
    instrument(stages)
    try:
        with tempfile.TemporaryDirectory(prefix="frame_timing_") as folder:
            output = os.path.join(folder, f"out.{'mp4' if fmt in ('h264', 'hevc') else fmt}")
            opened = OpenedFiles()
            cache = FootageCache()
            stages._stack, stages._since = ["other"], (time.thread_time_ns(),
                                                       time.perf_counter_ns())
            stages.process_started = time.process_time_ns()
            plan = plans.RenderPlan(document, comp["id"], cache)
            segments = []
            for chunk in plan_chunks(range(frames), fmt, parts=workers):
                plan.prepare([frame_time(n, rate) for n in chunk.frames], reused_out=True)
                buffer: list = []

                def rendered(chunk=chunk, buffer=buffer):
                    for number in chunk.frames:
                        pixels = render_frame(document, comp["id"], frame_time(number, rate),
                                              footage=cache, out=buffer[0] if buffer else None,
                                              plan=plan).pixels
                        buffer[:] = [pixels]
                        yield pixels
                segments.append(export_chunk(chunk, rendered(), fmt, output, rate,
                                             codec_options, opened))
            if segments[0] is not None:
                stages.timed(join_segments, "join")(segments, fmt, output, rate, opened)
            result = stages.per_frame(frames)
    finally:
        stages.undo()
    result["frames"] = frames
    result["chunks"] = len(segments)
    return result


def markdown(results: dict) -> str:
    """One table per comp: the stages, CPU and wall ms per frame, share of the CPU."""
    lines = []
    for name, result in results.items():
        lines += [f"{name}: {result['frames']} frames in {result['chunks']} chunks, "
                  f"{result['cpu_ms_per_frame']} ms CPU a frame ({result['cpu_fps']} frames "
                  f"per CPU second; every thread of the process: "
                  f"{result['process_cpu_ms_per_frame']} ms), {result['wall_ms_per_frame']} ms "
                  "wall", "",
                  "| stage | CPU ms/frame | wall ms/frame | share of CPU |",
                  "| --- | --- | --- | --- |"]
        for stage, row in result["stages"].items():
            if row["share"] >= 0.002:
                lines.append(f"| {stage} | {row['cpu_ms']:.2f} | {row['wall_ms']:.2f} | "
                             f"{100 * row['share']:.1f}% |")
        lines.append("")
    return "\n".join(lines)


def stages_main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="frame_timing.py stages",
                                     description="Where a render worker's time goes, by stage.")
    parser.add_argument("--comp", action="append",
                        choices=("reference", "remotion", "layers400", "text"))
    parser.add_argument("--frames", type=int, default=90)
    parser.add_argument("--format", default="h264")
    parser.add_argument("--codec-option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--workers", type=int, default=2, help="the split to profile")
    parser.add_argument("--markdown", action="store_true", help="tables instead of JSON")
    args = parser.parse_args(argv)
    from supervisor.render.plan import RENDER_CODEC_DEFAULTS
    # What a render adds (one encoder thread), then the benchmarks' settings, then the caller's.
    options = dict(RENDER_CODEC_DEFAULTS.get(args.format, {}))
    options.update(BENCH_CODEC_OPTIONS if args.format == "h264" else {})
    options.update(option.split("=", 1) for option in args.codec_option)
    documents = comp_documents(args.comp or ["reference", "remotion", "layers400", "text"])
    results = {name: profile_stages(document, args.frames, args.format, options, args.workers)
               for name, document in documents.items()}
    load = {"load_average": round(os.getloadavg()[0], 2)}
    if args.markdown:
        print(markdown(results))
        print(f"load average {load['load_average']}")
    else:
        print(json.dumps({"load": load, "format": args.format, "codec_options": options,
                          **results}, indent=2))


if __name__ == "__main__":
    if sys.argv[1:2] == ["stages"]:
        stages_main(sys.argv[2:])
    else:
        with open(sys.argv[1]) as handle:
            documents = json.load(handle)
        count = int(sys.argv[2])
        clock = time.process_time if sys.argv[3:4] == ["cpu"] else time.perf_counter
        print(json.dumps({name: render_seconds(document, count, clock) / count
                          for name, document in documents.items()}))
