"""The `estimate_frames` task: how long a queue item's frames take to draw and encode, from a
few of them drawn and encoded here, for renderQueue.estimate (supervisor/render/estimates.py).

Each sampled frame is drawn as a render draws it (the snapshot's render plan, the item's scale)
and encoded by the item's own encoder in memory (a video format's, or a sequence's image
encoder), each step timed on its own. Nothing is written: the encoded bytes are dropped.
"""

from __future__ import annotations

import time as clock

from protocol.model.keyframes import frame_time
from protocol.model.output_formats import output_format
from workers.compositor import render_frame
from workers.exporter.image_sequence import ImageEncoder
from workers.exporter.video_encoders import CodecOptionError, encoder_setup, fresh_encoder
from workers.render_tasks import FOOTAGE
from workers.snapshots import document_for, plan_for
from workers.tasks import TaskError, task


@task("estimate_frames")
def estimate_frames(job):
    """Payload: snapshot (+ document), comp, frames (comp frame numbers), scale, format,
    codecOptions. Returns {draw: [seconds drawing each sampled frame], encode: seconds
    encoding them all, the encoder's flush included (an encoder that looks ahead does much
    of its work there)}."""
    spec = job.payload
    document = document_for(spec)
    comp = next((c for c in document["comps"] if c["id"] == spec["comp"]), None)
    if comp is None:
        raise TaskError(f"the project snapshot has no comp {spec['comp']!r}")
    rate = comp["frameRate"]
    plan = plan_for(spec, comp["id"], FOOTAGE)
    plan.prepare([frame_time(number, rate) for number in spec["frames"]])
    encoder = None
    draw, encode = [], 0.0
    try:
        for number in spec["frames"]:
            job.cancel.check()
            started = clock.perf_counter()
            pixels = render_frame(document, comp["id"], frame_time(number, rate),
                                  footage=FOOTAGE, scale=float(spec["scale"]), plan=plan).pixels
            drawn = clock.perf_counter()
            draw.append(drawn - started)
            if encoder is None:
                encoder = FrameEncoder(spec["format"], spec.get("codecOptions") or {},
                                       pixels, rate)
            encoder.encode(pixels)
            encode += clock.perf_counter() - drawn
        started = clock.perf_counter()
        if encoder is not None:
            encoder.flush()
        encode += clock.perf_counter() - started
    except CodecOptionError as error:
        raise TaskError(str(error)) from None
    return {"draw": draw, "encode": encode}


class FrameEncoder:
    """Frames of `fmt` encoded into memory, the bytes dropped: a video's encoder, or a
    sequence's image encoder."""

    def __init__(self, fmt: str, options: dict, first, rate) -> None:
        height, width = first.shape[:2]
        self._image = None
        self._count = 0
        if output_format(fmt).is_sequence:
            self._image = ImageEncoder(fmt, width, height, options)
            return
        self._setup = encoder_setup(fmt, width, height, rate, options)
        self._context = fresh_encoder(self._setup, global_header=False)

    def encode(self, pixels) -> None:
        if self._image is not None:
            self._image.encode(pixels)
            return
        frame = self._setup.frame(pixels)
        frame.pts = self._count
        frame.time_base = self._context.time_base
        self._count += 1
        for _ in self._context.encode(frame):
            pass

    def flush(self) -> None:
        if self._image is None:
            for _ in self._context.encode(None):
                pass
