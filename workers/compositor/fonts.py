"""Typefaces by family name: the fonts the rendercv-fonts package ships first, then the
system's (fontconfig, through Skia's font manager), then a bundled default.

The bundled fonts come first so a render farm node with no system fonts at all draws the same
text as a desktop; a family neither has falls back to DEFAULT_FAMILY rather than failing the
frame, because a missing font should never cost a render. A character the chosen face lacks is
drawn from a fallback face (fallback_typeface) rather than as an empty box.
"""

from __future__ import annotations

import functools
import os

import rendercv_fonts
import skia

DEFAULT_FAMILY = "Roboto"
# Where a character missing from the chosen family is looked for, in order (all bundled).
FALLBACK_FAMILIES = ("Noto Sans", "Noto Sans SC", "Noto Sans JP", "Noto Sans KR")
BUNDLED_ROOT = os.path.dirname(rendercv_fonts.__file__)
_FONT_EXTENSIONS = (".ttf", ".otf")


def _key(family: str) -> str:
    return "".join(family.lower().split())


@functools.lru_cache(maxsize=None)
def _bundled_index() -> dict[str, tuple]:
    """Normalised family name -> the bundled typefaces of that family, read from every font
    file the package ships (about 60, 50 ms once per process; the files are memory-mapped).
    Indexed by each file's own family name, so "Noto Sans SC" is found although it shares the
    "Noto Sans" folder."""
    families: dict[str, list] = {}
    for folder, _, names in os.walk(BUNDLED_ROOT):
        for name in sorted(names):
            if name.lower().endswith(_FONT_EXTENSIONS):
                face = skia.Typeface.MakeFromFile(os.path.join(folder, name))
                if face is not None:
                    families.setdefault(_key(face.getFamilyName()), []).append(face)
    return {family: tuple(faces) for family, faces in families.items()}


def bundled_families() -> list[str]:
    return sorted(faces[0].getFamilyName() for faces in _bundled_index().values())


@functools.lru_cache(maxsize=256)
def typeface(family: str | None, bold: bool = False, italic: bool = False) -> skia.Typeface:
    """The closest face for `family` in the wanted style; never None."""
    family = family or DEFAULT_FAMILY
    style = _style(bold, italic)
    face = _closest(_bundled_index().get(_key(family), ()), style)
    if face is None:
        system = skia.FontMgr.RefDefault().matchFamilyStyle(family, style)
        # fontconfig answers None for a family it does not know, rather than a substitute.
        if system is not None and _key(system.getFamilyName()) == _key(family):
            face = system
    if face is None:
        face = _closest(_bundled_index().get(_key(DEFAULT_FAMILY), ()), style)
    return face if face is not None else skia.Typeface.MakeDefault()


@functools.lru_cache(maxsize=4096)
def fallback_typeface(character: str, bold: bool = False,
                      italic: bool = False) -> skia.Typeface | None:
    """A face that has a glyph for `character`, for text whose family lacks it (Chinese in
    Roboto): the bundled Noto families first, then any system font fontconfig knows."""
    code = ord(character)
    style = _style(bold, italic)
    for family in FALLBACK_FAMILIES:
        face = _closest(_bundled_index().get(_key(family), ()), style)
        if face is not None and face.unicharToGlyph(code):
            return face
    return skia.FontMgr.RefDefault().matchFamilyStyleCharacter(None, style, [], code)


def _style(bold: bool, italic: bool) -> skia.FontStyle:
    if bold and italic:
        return skia.FontStyle.BoldItalic()
    if bold:
        return skia.FontStyle.Bold()
    if italic:
        return skia.FontStyle.Italic()
    return skia.FontStyle.Normal()


def _closest(faces: tuple, style: skia.FontStyle) -> skia.Typeface | None:
    if not faces:
        return None

    def distance(face: skia.Typeface) -> tuple:
        have = face.fontStyle()
        slant_differs = (have.slant() == skia.FontStyle.kUpright_Slant) != \
            (style.slant() == skia.FontStyle.kUpright_Slant)
        return (slant_differs, abs(have.weight() - style.weight()))

    return min(faces, key=distance)
