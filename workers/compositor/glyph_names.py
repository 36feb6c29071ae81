"""The named glyphs of a bundled font family, for font.glyphs: an icon font's icons found by
name ("house", "chart-line"), each with the character that draws it.

The names are the fonts' own (the glyph names in their CFF or post tables): Font Awesome's
files carry every icon's name, so nothing else needs to ship or be fetched. A glyph mapped from
several characters is given by its first in the Private Use Area (an icon font's own code,
U+E000 to U+F8FF), else its first outside ASCII, else its first. Read with fontTools, lazily,
once per file per process; only bundled files are read (they ship with rendervisor; a file
from elsewhere is for a worker to open).
"""

from __future__ import annotations

import functools

from workers.compositor.fonts import Face

PRIVATE_USE = (0xE000, 0xF8FF)


@functools.lru_cache(maxsize=16)
def named_glyphs(path: str, index: int) -> dict[str, int]:
    """{glyph name: the character that draws it} of one face, for the glyphs some character
    maps to."""
    # fontTools is imported by the first font.glyphs, as fonts.py imports it for the first
    # WOFF file: a session that never asks does not pay for it at its start.
    from fontTools.ttLib import TTFont
    font = TTFont(path, fontNumber=index, lazy=True)
    try:
        characters: dict[str, list[int]] = {}
        for codepoint, name in (font.getBestCmap() or {}).items():
            characters.setdefault(name, []).append(codepoint)
    finally:
        font.close()
    return {name: _preferred(sorted(codes)) for name, codes in characters.items()
            if name not in (".notdef", "space", "nbspace", "uni00A0")}


def _preferred(codes: list[int]) -> int:
    for wanted in (lambda code: PRIVATE_USE[0] <= code <= PRIVATE_USE[1],
                   lambda code: code >= 0x80):
        for code in codes:
            if wanted(code):
                return code
    return codes[0]


def family_glyphs(faces: tuple[Face, ...], search: str | None) -> list[dict]:
    """The family's named glyphs whose name holds every word of `search` (any case), the
    best matches first (the name itself, then names starting with it, then the rest, each
    alphabetically), each with the weights of the faces that have it."""
    words = (search or "").lower().replace("_", "-").split()
    found: dict[str, dict] = {}
    for face in faces:
        for name, code in named_glyphs(face.path, face.index).items():
            if all(word in name.lower() for word in words):
                entry = found.setdefault(name, {"name": name, "codepoint": f"U+{code:04X}",
                                                "text": chr(code), "weights": []})
                if face.weight not in entry["weights"]:
                    entry["weights"].append(face.weight)
    query = " ".join(words).replace(" ", "-")

    def rank(entry):
        name = entry["name"].lower()
        return (name != query, not name.startswith(query), name)

    return sorted(found.values(), key=rank)
