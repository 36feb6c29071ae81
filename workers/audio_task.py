"""The sound of a render, mixed once per queue item (never per chunk), and the levels of a
comp's mix for `audio_levels`.

    audio_mix:    spans of the comp's samples ─► MasterBus (the mix, its loudness and limiter),
                  block by block ─► SoundTrackWriter ─► the item's sound track at the
                  temporary the supervisor named and recorded
    audio_levels: a stretch of the comp ─► CompMixer ─► peak and RMS per window

One job mixes the whole item, so the track is the same bytes whatever the number of render
workers or nodes drew the pictures. It checks its cancel scope before every block (a second of
sound), so a cancel stops it at once; on cancel or failure it removes what it wrote itself, and
the supervisor's record covers a worker killed before it could. A Dask render runs
`mix_to_file` in the process that joins the video (supervisor/cli/cluster.py).

Never writes anything but the one path its job names.
"""

from __future__ import annotations

import math

from protocol.cancel import Cancel, Cancelled
from protocol.model.audio import sample_rate
from workers.exporter.opened_files import OpenedFiles
from workers.exporter.output_folders import FolderReplaced, OutputFolder
from workers.exporter.sound_tracks import SoundTrackWriter
from workers.exporter.video_encoders import CodecOptionError
from workers.mixer.comp_sound import CompMixer, MissingSound
from workers.mixer.master_bus import BLOCK_SECONDS, MasterBus, blocks
from workers.mixer.levels import window_levels
from workers.mixer.mixing import clipping_samples, peak, sample_at
from workers.mixer.sound_reader import SoundError
from workers.snapshots import document_for
from workers.tasks import TaskError, task

# The window audio_levels measures in (100 ms, as a level meter's ballistics), and the most
# windows one call returns (10 minutes), so an answer stays a few hundred kilobytes.
LEVEL_WINDOW_SECONDS = 0.1
MAX_LEVEL_WINDOWS = 6000


def _comp(document: dict, comp_id: str) -> dict:
    comp = next((c for c in document["comps"] if c["id"] == comp_id), None)
    if comp is None:
        raise TaskError(f"the project snapshot has no comp {comp_id!r}")
    return comp


def mix_to_file(spec: dict, document: dict, cancel: Cancel) -> dict:
    """Mix `spec["spans"]` of comp `spec["comp"]` through its master bus and encode them, one
    after the other, into `spec["path"]`; {path, samples, peak, clipped: [seconds of the first
    and last clipped sample, count] or None, limited: the limiter's deepest cut in dB or None,
    loudness: LUFS of the mix as encoded when the comp has a loudness target}."""
    comp = _comp(document, spec["comp"])
    rate = sample_rate(comp)
    try:
        held = OutputFolder.of_job(spec)
    except FolderReplaced as error:
        raise TaskError(str(error)) from None
    opened = OpenedFiles(held=held)
    writer = None
    loudest, clipped, written = 0.0, [], 0
    try:
        writer = SoundTrackWriter(spec["path"], spec["format"], spec.get("audioCodec"),
                                  spec.get("audioBitrate"), rate, opened)
        bus = MasterBus(document, comp, spec["spans"], cancel, writer.codec.headroom_db)
        bus.prepare()
        for block in bus.output():
            loudest = max(loudest, peak(block))
            over = clipping_samples(block)
            if over.size:
                clipped.append((written + int(over[0]), written + int(over[-1]), over.size))
            writer.write(block)
            written += block.shape[1]
        writer.close()
        writer = None
    except Cancelled:
        _abandon(writer, opened)
        raise
    except (SoundError, MissingSound, CodecOptionError, OSError, ValueError) as error:
        _abandon(writer, opened)
        raise TaskError(str(error)) from None
    except BaseException:
        _abandon(writer, opened)
        raise
    finally:
        if held is not None:
            held.close()
    cut = bus.limiter.least_gain if bus.limiter is not None else 1.0
    return {"path": spec["path"], "samples": written, "peak": loudest,
            "clipped": [clipped[0][0] / rate, clipped[-1][1] / rate,
                        sum(part[2] for part in clipped)] if clipped else None,
            "limited": round(20 * math.log10(cut), 2) if cut < 1.0 else None,
            "loudness": None if bus.loudness is None else round(bus.loudness, 2)}


def _abandon(writer, opened: OpenedFiles) -> None:
    if writer is not None:
        writer.abandon()
    opened.remove_all()


@task("audio_mix")
def audio_mix(job):
    """Payload: snapshot (+ document), comp, spans [[first sample, count], ...], format,
    audioCodec, audioBitrate, path. Result: mix_to_file's."""
    return mix_to_file(job.payload, document_for(job.payload), job.cancel)


@task("audio_levels")
def audio_levels(job):
    """Payload: snapshot (+ document), comp, start, end (seconds). Result: {sampleRate,
    window, levels: [{time, peak, rms}], peak} with levels in dBFS (None: silence)."""
    spec = job.payload
    document = document_for(spec)
    comp = _comp(document, spec["comp"])
    rate = sample_rate(comp)
    first, last = sample_at(spec["start"], rate), sample_at(spec["end"], rate)
    window = round(LEVEL_WINDOW_SECONDS * rate)
    if -(-(last - first) // window) > MAX_LEVEL_WINDOWS:
        limit = MAX_LEVEL_WINDOWS * LEVEL_WINDOW_SECONDS
        raise TaskError(f"audio_levels measures at most {limit:g} s at a time; give a shorter "
                        "stretch with start and end")
    mixer = CompMixer(document, rate)
    levels, loudest = [], 0.0
    try:
        # Whole windows per block, so no window straddles two blocks.
        size = window * max(1, round(BLOCK_SECONDS / LEVEL_WINDOW_SECONDS))
        for start, count in blocks([(first, last - first)], size):
            job.cancel.check()
            block = mixer.mix(comp["id"], start, count)
            loudest = max(loudest, peak(block))
            for index, measured in enumerate(window_levels(block, window)):
                levels.append({"time": round((start + index * window) / rate, 6),
                               **measured})
    except (SoundError, MissingSound) as error:
        raise TaskError(str(error)) from None
    finally:
        mixer.close()
    return {"sampleRate": rate, "window": LEVEL_WINDOW_SECONDS, "levels": levels,
            "peak": loudest}
