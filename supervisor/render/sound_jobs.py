"""An item's sound track in a render: the one job that mixes it (workers/audio_task.py, on a
render worker beside the chunks, never one per chunk), and where the track goes when the
item's last piece is in.

    RenderRun queues SOUND first among an item's tasks, so the mix runs while chunks draw
      sound_payload ──► audio_mix on a render worker ──► the track at sound.path(output)
    the item's last task in:
      a video: join_segments(..., sound_track=the track)   pictures copied, sound copied
      a wav:   the track itself is the output (renamed into place)
    the track's temporary is removed once copied; a cancel or failure removes it by record.

The mix goes through its comp's master bus (workers/mixer/master_bus.py: a loudness target, a
true-peak limiter, on by default). A track whose mix still went past full scale (the limiter
turned off) is kept, clipped to full scale unless it is float, and the item's report says so in
`warnings`, with where and how loud, so the person or agent can lower a level; so does a track
the limiter kept from reaching its loudness target.
"""

from __future__ import annotations

import math

from supervisor.render.plan import ItemPlan
from supervisor.render.sound_plan import SoundPlan
from workers.exporter.atomic_files import publish
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.sound_track_plan import FLOAT_CODEC

# The index a sound job has among its item's tasks (chunks are 0, 1, ...).
SOUND = -1


def sound_payload(plan: ItemPlan, sound: SoundPlan) -> dict:
    """The audio_mix job for an item's track (workers/audio_task.py)."""
    return {"comp": plan.comp["id"], "spans": [list(span) for span in sound.spans],
            "format": plan.format, "audioCodec": sound.codec, "audioBitrate": sound.bitrate,
            "path": sound.path(plan.output)}


def sound_warnings(plan: ItemPlan, report: dict) -> list[str]:
    """Sentences for a track whose mix passed full scale (its comp's limiter off), and for
    one that fell short of its loudness target."""
    warnings = []
    clipped = report.get("clipped")
    if clipped:
        first, last, count = clipped
        loudest = 20 * math.log10(report["peak"])
        past = (f"the sound of {plan.id} goes past full scale: its mix peaks at "
                f"+{loudest:.1f} dBFS, {count} samples between {first:.2f} s and {last:.2f} s")
        if plan.sound.codec == FLOAT_CODEC:
            kept = ("; a float WAV keeps those samples as they are, so the file holds them, "
                    "but a player, or a conversion to 16 or 24 bits, will clip them")
        else:
            kept = ", which were cut to full scale (clipped)"
        warnings.append(f"{past}{kept}; turn the comp's audioLimiter on (comp.set) or lower "
                        "the audio.level of its loudest layers")
    target = plan.comp.get("audioLoudness")
    reached = report.get("loudness")
    if target is not None and reached is not None and abs(reached - target) > 0.5:
        warnings.append(f"the sound of {plan.id} is {reached:.1f} LUFS, not its target "
                        f"{target:g}: the limiter holds its peaks under "
                        f"{plan.comp.get('audioCeiling', -1):g} dBTP, which this mix cannot "
                        "be that loud under; aim lower or raise audioCeiling")
    return warnings


def place_output(plan: ItemPlan, segments: list, opened: OpenedFiles,
                 remove_segments: bool = True) -> None:
    """Make the item's output from its segments and its sound track: a video joined with its
    track beside it, or a wav that is its track. `remove_segments` false leaves the segments
    (a resumable video's cache removes them once the output is in place)."""
    track = plan.sound.path(plan.output) if plan.sound is not None else None
    if plan.chunks:
        # PyAV (and numpy with it) is imported by the first join, not with the render: an
        # image sequence never needs it here, and a video needs it only once its segments
        # are in, long after the workers' own imports, which it would compete with for the
        # cores at start-up.
        from workers.exporter.join import join_segments
        join_segments(segments, plan.format, plan.output, plan.frame_rate, opened,
                      remove_segments=remove_segments, sound_track=track)
        if track is not None and not opened.remove(track):
            raise OSError(f"the sound track {track} could not be removed once copied")
    elif track is not None:
        publish(track, plan.output, opened)
