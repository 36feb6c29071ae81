"""A font file a text layer names (`fontFile`): .ttf, .otf, .ttc, .woff or .woff2. Read whole
(within the size limit), a WOFF or WOFF2 unpacked only after its declared sizes passed
(workers/compositor/compressed_fonts.py), then read as Skia and HarfBuzz will draw it: its faces
(family, style, weight range) and the characters it has, as ranges, for the supervisor's
warnings about text the font cannot show."""

from __future__ import annotations

import skia
import uharfbuzz as hb

from workers.compositor.fonts import NotAFont, faces_of_data, opentype_bytes
from workers.probes.opened import read_whole
from workers.tasks import TaskError

FONT_HINT = "a .ttf, .otf, .ttc, .woff or .woff2 file"


def probe_font(job_file: dict, limit: int) -> dict:
    """{faces: [{family, style, weight, italic, weights}], coverage: [[first, last], ...]}."""
    name = job_file["name"]
    raw = read_whole(job_file, limit)
    try:
        plain = opentype_bytes(raw)
    except NotAFont as error:
        raise TaskError(f"fontFile {name} {error}; give {FONT_HINT}.") from None
    faces = faces_of_data(skia.Data.MakeWithCopy(plain), job_file["path"])
    if not faces:
        raise TaskError(f"fontFile {name} is not a font (Skia reads no face from it); give "
                        f"{FONT_HINT}.")
    blob = hb.Blob(plain)
    characters: set[int] = set()
    for face in faces:
        characters.update(hb.Face(blob, face.index).unicodes)
    return {"faces": [{"family": face.family, "style": face.style_name(),
                       "weight": face.weight, "italic": face.italic,
                       "weights": list(face.weights) if face.weights else None}
                      for face in faces],
            "coverage": ranges(characters)}


def ranges(characters: set[int]) -> list[list[int]]:
    """[[first, last], ...] of the sorted runs in `characters`."""
    runs: list[list[int]] = []
    for code in sorted(characters):
        if runs and runs[-1][1] == code - 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return runs
