"""An item's sound track in a render: the one job that mixes it (workers/audio_task.py, on a
render worker beside the chunks, never one per chunk), and where the track goes when the
item's last piece is in.

    RenderRun queues SOUND first among an item's tasks, so the mix runs while chunks draw
      sound_payload ──► audio_mix on a render worker ──► the track at sound.path(output)
    the item's last task in:
      a video: join_segments(..., sound_track=the track)   pictures copied, sound copied
      a wav:   the track itself is the output (renamed into place)
    the track's temporary is removed once copied; a cancel or failure removes it by record.

A track whose mix went past full scale is kept (clipped to it) and the item's report says so
in `warnings`, with where and how loud, so the person or agent can lower a level.
"""

from __future__ import annotations

import math

from supervisor.render.plan import ItemPlan
from supervisor.render.sound_plan import SoundPlan
from workers.exporter import OpenedFiles, join_segments
from workers.exporter.atomic_files import publish

# The index a sound job has among its item's tasks (chunks are 0, 1, ...).
SOUND = -1


def sound_payload(plan: ItemPlan, sound: SoundPlan) -> dict:
    """The audio_mix job for an item's track (workers/audio_task.py)."""
    return {"comp": plan.comp["id"], "spans": [list(span) for span in sound.spans],
            "format": plan.format, "audioCodec": sound.codec, "audioBitrate": sound.bitrate,
            "path": sound.path(plan.output)}


def clip_warning(plan: ItemPlan, report: dict) -> str | None:
    """The sentence for a track whose mix passed full scale, or None."""
    clipped = report.get("clipped")
    if not clipped:
        return None
    first, last, count = clipped
    loudest = 20 * math.log10(report["peak"])
    return (f"the sound of {plan.id} clips: its mix peaks at +{loudest:.1f} dBFS and "
            f"{count} samples between {first:.2f} s and {last:.2f} s were cut to full scale; "
            "lower the audio.level of its loudest layers")


def place_output(plan: ItemPlan, segments: list, opened: OpenedFiles,
                 remove_segments: bool = True) -> None:
    """Make the item's output from its segments and its sound track: a video joined with its
    track beside it, or a wav that is its track. `remove_segments` false leaves the segments
    (a resumable video's cache removes them once the output is in place)."""
    track = plan.sound.path(plan.output) if plan.sound is not None else None
    if plan.chunks:
        join_segments(segments, plan.format, plan.output, plan.frame_rate, opened,
                      remove_segments=remove_segments, sound_track=track)
        if track is not None and not opened.remove(track):
            raise OSError(f"the sound track {track} could not be removed once copied")
    elif track is not None:
        publish(track, plan.output, opened)
