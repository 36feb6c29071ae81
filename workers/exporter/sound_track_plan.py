"""What the supervisor knows of an item's sound track before a worker writes it: the temporary
name it is written under (`sound_track_path`, from the item's token, so the record holds it
before anything is written) and the one codec that keeps samples past full scale.

Names only, no encoder: the supervisor plans a render with this module and must not import
PyAV and numpy to do so (sound_tracks.py, which encodes the track, does).
"""

from __future__ import annotations

from workers.exporter.atomic_files import temporary_path

# The one codec that keeps samples past full scale (everything else is clipped to it).
FLOAT_CODEC = "pcm_f32le"


def sound_track_path(output: str, token: str) -> str:
    """The temporary a sound track for `output` is written to (the supervisor records it)."""
    return temporary_path(output, "audio", token)
