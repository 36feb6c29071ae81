"""Typefaces by family name: the fonts the rendercv-fonts package ships first, then the
system's (fontconfig, through Skia's font manager), then a bundled default.

The bundled fonts come first so a render farm node with no system fonts at all draws the same
text as a desktop; a family neither has falls back to DEFAULT_FAMILY rather than failing the
frame, because a missing font should never cost a render.
"""

from __future__ import annotations

import functools
import os

import rendercv_fonts
import skia

DEFAULT_FAMILY = "Roboto"
BUNDLED_ROOT = os.path.dirname(rendercv_fonts.__file__)
_FONT_EXTENSIONS = (".ttf", ".otf")


def _key(family: str) -> str:
    return "".join(family.lower().split())


@functools.lru_cache(maxsize=None)
def _bundled_folders() -> dict[str, str]:
    """Normalised family name -> the folder holding its files (one folder per family)."""
    folders = {}
    for name in os.listdir(BUNDLED_ROOT):
        path = os.path.join(BUNDLED_ROOT, name)
        if os.path.isdir(path) and not name.startswith("__"):
            folders[_key(name)] = path
    return folders


@functools.lru_cache(maxsize=None)
def _bundled_faces(family_key: str) -> tuple:
    """The typefaces of one bundled family whose family name is the folder's (the Noto Sans
    folder also carries Noto Sans SC and KR, which must not stand in for it)."""
    folder = _bundled_folders().get(family_key)
    if folder is None:
        return ()
    faces = []
    for name in sorted(os.listdir(folder)):
        if name.lower().endswith(_FONT_EXTENSIONS):
            face = skia.Typeface.MakeFromFile(os.path.join(folder, name))
            if face is not None and _key(face.getFamilyName()) == family_key:
                faces.append(face)
    return tuple(faces)


def bundled_families() -> list[str]:
    return sorted(os.path.basename(path) for path in _bundled_folders().values())


@functools.lru_cache(maxsize=256)
def typeface(family: str | None, bold: bool = False, italic: bool = False) -> skia.Typeface:
    """The closest face for `family` in the wanted style; never None."""
    family = family or DEFAULT_FAMILY
    style = _style(bold, italic)
    face = _closest(_bundled_faces(_key(family)), style)
    if face is None:
        system = skia.FontMgr.RefDefault().matchFamilyStyle(family, style)
        # fontconfig answers None for a family it does not know, rather than a substitute.
        if system is not None and _key(system.getFamilyName()) == _key(family):
            face = system
    if face is None:
        face = _closest(_bundled_faces(_key(DEFAULT_FAMILY)), style)
    return face if face is not None else skia.Typeface.MakeDefault()


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
