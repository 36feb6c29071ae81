"""Whether a rendered video or sound file is whole, read back before its item is reported done.

A render that says "done" over a file cut short (a node that crashed while the file was being
written, a full or flaky network disk, a sync tool stopped halfway) sends a broken file down the
pipeline, and nobody finds out until it is played. So once an item's file is in place it is
opened again here, on a probe worker, as a player would open it:

- a video: its container opens, its picture stream holds the frames the render wrote (packets
  counted, nothing decoded) and lasts as long as they do, and its last frames decode (from the
  last key frame to the end);
- a sound file: it opens and lasts as long as the item.

The answer is None (whole) or a sentence saying what is wrong. Image sequences are checked
frame by frame in the supervisor by their markers (workers/exporter/complete_frames.py), which
needs no decoder.
"""

from __future__ import annotations

import av

from protocol.model.ffmpeg_inputs import OPEN_OPTIONS
from workers.probes.opened import opened

# How far a file's length may stray from its frames': a container rounds it to its time base,
# and a sound track may run to the end of its last audio packet.
DURATION_SLACK_FRAMES = 1.5


def check_output(job_file: dict, expected: dict) -> str | None:
    """None when the file at `job_file` holds `expected` (`{frames, frameRate}`, `sound`:
    a wav), else what is wrong with it, as a sentence ending in what was found."""
    with opened(job_file):
        try:
            with av.open(job_file["path"], container_options=OPEN_OPTIONS) as container:
                if expected.get("sound"):
                    return _sound_problem(container, expected)
                return _video_problem(container, expected)
        except (av.FFmpegError, OSError, ValueError) as error:
            return f"FFmpeg cannot open it ({error})"


def _video_problem(container, expected: dict) -> str | None:
    if not container.streams.video:
        return "it has no picture stream"
    stream = container.streams.video[0]
    frames, last_key = 0, None
    for packet in container.demux(stream):
        if packet.size == 0:
            continue  # the demuxer's flush packet
        if packet.is_keyframe:
            last_key = (packet.pts, frames)
        frames += 1
    want = int(expected["frames"])
    if frames != want:
        return f"it holds {frames} of its {want} frames"
    rate = float(expected["frameRate"])
    seconds = _seconds(container, stream)
    if seconds is not None and abs(seconds - want / rate) > DURATION_SLACK_FRAMES / rate:
        return f"it lasts {seconds:.3f} s where its {want} frames last {want / rate:.3f} s"
    if last_key is None:
        return "it has no key frame to decode from"
    pts, index = last_key
    container.seek(pts, stream=stream, backward=True, any_frame=False)
    decoded = sum(1 for _frame in container.decode(stream))
    if decoded < want - index:
        return (f"its last {want - index} frames (from its last key frame) decode as "
                f"{decoded}")
    return None


def _sound_problem(container, expected: dict) -> str | None:
    if not container.streams.audio:
        return "it has no sound stream"
    stream = container.streams.audio[0]
    seconds = _seconds(container, stream)
    rate = float(expected["frameRate"])
    want = int(expected["frames"]) / rate
    if seconds is None or abs(seconds - want) > DURATION_SLACK_FRAMES / rate:
        found = "no length" if seconds is None else f"{seconds:.3f} s"
        return f"it has {found} where the item lasts {want:.3f} s"
    return None


def _seconds(container, stream) -> float | None:
    if stream.duration is not None and stream.time_base is not None:
        return float(stream.duration * stream.time_base)
    if container.duration is not None:
        return container.duration / av.time_base
    return None
