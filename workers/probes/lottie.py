"""A Lottie animation as footage (kind "lottie"): a `.json` document or a `.lottie` archive,
read whole (protocol/model/lottie_files.py: an archive's declared sizes are checked before it is
unpacked), described (size, frame rate, length), and what rendervisor will not draw of it
named in warnings, with a file that crashes ThorVG, found by a trial render of a few small
frames in a child process (workers/compositor/lottie_trial.py)."""

from __future__ import annotations

import os

from protocol.model.lottie_files import (LottieError, footage_fields, read_animation,
                                         self_contained, unsupported)
from workers.compositor.lottie_trial import trial_render
from workers.probes.opened import read_whole
from workers.tasks import TaskError


def probe_lottie(job_file: dict, limit: int) -> dict:
    """{kind, width, height, frameRate, ..., warnings} of the animation in the job's file."""
    name = job_file["name"]
    data = read_whole(job_file, limit)
    try:
        animation, files = read_animation(data)
    except LottieError as error:
        raise TaskError(f"cannot import {name}: it is not {error}; export it again as Lottie "
                        "JSON (for example with Bodymovin) or pick another file.") from None
    data, dropped = self_contained(animation, files)
    fields = footage_fields(animation)
    crash = trial_render(data, fields["frameCount"])
    base = os.path.basename(job_file["path"])
    warnings = [f"{base}: {phrase}" for phrase in
                unsupported(animation) + dropped + ([crash] if crash else [])]
    return {"kind": "lottie", **fields, "warnings": warnings}
