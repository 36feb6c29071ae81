"""A file FFmpeg opens (through PyAV): a video, perhaps with sound, or a sound file. What it is
comes from the container's headers (no picture is decoded); a sound file's first packet is
decoded, so a file cut short before any sound is refused here rather than playing silence.

FFmpeg opens the file as the worker that decodes it will (protocol/model/ffmpeg_inputs.py): that
one file, with a demuxer that reads no other. It opens it by name, so the name is checked to
still be the file the supervisor checked, before and after.
"""

from __future__ import annotations

import os
from fractions import Fraction

import av

from protocol.model.ffmpeg_inputs import (OPEN_OPTIONS, PLAYLIST_REASON, SNIFF_BYTES,
                                          is_playlist_name, names_other_files)
from workers.probes.opened import opened
from workers.tasks import TaskError

# An image sequence or a video that says nothing of its rate plays at this one.
DEFAULT_RATE = 30


def probe_media(job_file: dict, limit: int | None = None) -> dict:
    """The footage fields of a video (kind "video", with hasAudio) or a sound file (kind
    "audio"). No limit on the file's size: FFmpeg reads its headers, never the whole."""
    path, name = job_file["path"], job_file["name"]
    with opened(job_file) as fd:
        head = os.pread(fd, SNIFF_BYTES, 0)
        try:
            with av.open(path, container_options=OPEN_OPTIONS) as container:
                now = os.stat(path)
                if [now.st_dev, now.st_ino] != list(job_file["identity"]):
                    raise TaskError(f"{name} was replaced while it was being read; try again "
                                    "once nothing is changing it.")
                return _fields(name, container)
        except (av.FFmpegError, OSError, ValueError) as error:
            raise TaskError(_unreadable(path, name, head, error)) from None


def _fields(name: str, container) -> dict:
    # Cover art (an MP3's or M4A's picture) is a video stream of one attached picture: such a
    # file is sound, not a video.
    pictures = [stream for stream in container.streams.video
                if not stream.disposition & av.stream.Disposition.attached_pic]
    sounds = list(container.streams.audio)
    if pictures:
        return {**_video_fields(name, container, pictures[0]), "hasAudio": bool(sounds)}
    if sounds:
        return _audio_fields(name, container, sounds[0])
    raise TaskError(f"cannot import {name}: it has no video or audio stream; import an image, a "
                    "video or a sound file.")


def _video_fields(name: str, container, stream) -> dict:
    rate = stream.average_rate or stream.guessed_rate or Fraction(DEFAULT_RATE)
    duration = _duration(container, stream)
    frames = stream.frames or int(round(duration * float(rate)))
    width, height = stream.codec_context.width, stream.codec_context.height
    if not width or not height:
        raise TaskError(f"cannot import {name}: its video stream has no frame size; the file "
                        "may be damaged.")
    frame_rate = float(rate)
    if frame_rate.is_integer():
        frame_rate = int(frame_rate)
    return {"kind": "video", "width": width, "height": height, "frameRate": frame_rate,
            "duration": round(duration, 6), "frameCount": frames}


def _audio_fields(name: str, container, stream) -> dict:
    context = stream.codec_context
    if not context.sample_rate or not context.channels:
        raise TaskError(f"cannot import {name}: its audio stream has no sample rate or "
                        "channels; the file may be damaged.")
    if next(container.decode(stream), None) is None:
        raise TaskError(f"cannot import {name}: it holds no sound that decodes (the file may "
                        "be cut short or damaged); export it again or pick another file.")
    return {"kind": "audio", "duration": round(_duration(container, stream), 6),
            "sampleRate": context.sample_rate, "channels": context.channels}


def _duration(container, stream) -> float:
    """Seconds, from the stream's header, else the container's; 0 when neither says."""
    if stream.duration is not None and stream.time_base is not None:
        return float(stream.duration * stream.time_base)
    if container.duration is not None:
        return container.duration / av.time_base
    return 0.0


def _unreadable(path: str, name: str, head: bytes, error: Exception) -> str:
    """Why FFmpeg would not open the file as footage, as a sentence."""
    if is_playlist_name(path) or names_other_files(head):
        return f"cannot import {name}: {PLAYLIST_REASON}; import the media files themselves."
    if isinstance(error, av.error.ArgumentError):  # EINVAL: a demuxer not on the allow-list
        return (f"cannot import {name}: FFmpeg reads it with a demuxer that rendervisor does not "
                "use for footage (only those reading one file: MP4, MOV, MKV, WebM, AVI, MPEG, "
                "MXF and the like, single pictures, and WAV, FLAC, MP3, AAC, M4A and Ogg "
                "sound); convert it to one of those.")
    return (f"cannot import {name}: it is not an image, a video or a sound file rendervisor "
            f"can read ({error}); convert it or pick another file.")
