"""Caption files read into cues, on a probe worker (workers/probes/captions.py: SubRip .srt,
WebVTT .vtt, and word timings .json as speech-to-text tools write them).

A cue is (start, end, text, words): seconds, the text with markup removed, and the timing of
each whitespace-separated word ([(start, end, word)]). A file that cannot be read as captions
is refused with one sentence that names the line (or, in a word list, the entry) at fault.

Must never read a byte of a caption file in the supervisor.
"""

from __future__ import annotations

import os

from supervisor.confinement.roots import shown
from supervisor.errors import CommandError

CAPTION_EXTENSIONS = (".srt", ".vtt", ".json")


def read_cues(engine, path: str, work=None) -> tuple[str, list]:
    """(format, cues) of the caption file at `path`; CommandError with one sentence else."""
    if os.path.splitext(path)[1].lower() not in CAPTION_EXTENSIONS:
        raise CommandError(f"{shown(path)} is not a caption file rendervisor reads; give a "
                           ".srt, .vtt or .json (word timings) file.")
    found = engine.probes.read("captions", path, shown(path),
                               lambda real: engine.check_path(real, "read"),
                               work.cancel if work is not None else None)
    return found["format"], [(start, end, text, [tuple(word) for word in words])
                             for start, end, text, words in found["cues"]]
