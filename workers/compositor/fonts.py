"""Fonts: every face rendervisor draws with, found by family name, by file, or for a character
the chosen face lacks.

Faces come from three sources, tried in this order for a family name:
- bundled: the rendercv-fonts package (Latin families, Noto Sans SC, JP and KR), the
  manimgx-fonts package (Noto Sans for Arabic, Hebrew, Thai, the Indic and other scripts,
  Symbols, and a monochrome Noto Emoji) and Noto Color Emoji, shipped beside this module
  (emoji/). A family two packages ship comes from the first (rendercv's static Noto Sans);
- system: the font files in the usual font folders (SYSTEM_FONT_FOLDERS), read by this module
  itself, so a desktop's fonts work by family name;
- file: a font file a layer names (`fontFile`).

A family none of them has is drawn in DEFAULT_FAMILY, and `missing_family` says so, so commands
can warn. A character the chosen face lacks is drawn from the first bundled face in
FALLBACK_FAMILIES that has it; system fonts never take part in fallback, so the same text
lays out the same on every node, whatever fonts its system has.

Typefaces are made through an empty custom font manager, never Skia's default one: that one is
fontconfig, whose copy inside skia-python (2.13) parses every file of the system's
conf.avail folder on first use and prints a warning on stderr for each element newer
systems use (`reset-dirs`), on every render. Nothing here reads fontconfig's configuration.

Must never: pick a face by anything but the font files and the request (no locale, no
environment), or return None where a face is expected.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

import font_source_sans_pro
import fontpkg_amiri
import fontpkg_roboto_flex
import manimgx_fonts
import rendercv_fonts
import skia
import uharfbuzz as hb

from workers.compositor.compressed_fonts import WOFF_MAGIC, NotAFont, opentype_bytes

DEFAULT_FAMILY = "Roboto"
# Names that mean "some font" rather than a family: drawn in DEFAULT_FAMILY without a warning.
GENERIC_FAMILIES = ("sans-serif", "serif", "monospace", "system-ui", "cursive", "fantasy")
EMOJI_FAMILY = "Noto Color Emoji"
# Where a character the chosen face lacks is looked for, in this order (all bundled).
FALLBACK_FAMILIES = (
    "Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Devanagari",
    "Noto Sans Bengali", "Noto Sans Gujarati", "Noto Sans Gurmukhi", "Noto Sans Kannada",
    "Noto Sans Malayalam", "Noto Sans Oriya", "Noto Sans Tamil", "Noto Sans Telugu",
    "Noto Sans Sinhala", "Noto Sans Thai", "Noto Sans Lao", "Noto Sans Khmer",
    "Noto Sans Myanmar", "Noto Sans Armenian", "Noto Sans Georgian", "Noto Sans Ethiopic",
    "Noto Sans SC", "Noto Sans JP", "Noto Sans KR", "Noto Sans Symbols",
    # Arrows, math, check marks and stars that the cut-down Noto Sans Symbols lacks.
    "Source Sans 3", "Gentium Book Plus", "EB Garamond", EMOJI_FAMILY, "Noto Emoji",
)
EMOJI_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "emoji")
# Amiri, Roboto Flex and Source Sans Pro (the name Adobe's exports still use for Source Sans)
# come with SVGs' text as often as with titles.
BUNDLED_FOLDERS = (os.path.dirname(rendercv_fonts.__file__),
                   os.path.dirname(manimgx_fonts.__file__), EMOJI_FOLDER,
                   os.path.dirname(fontpkg_amiri.__file__),
                   os.path.dirname(fontpkg_roboto_flex.__file__),
                   os.path.dirname(font_source_sans_pro.__file__))
SYSTEM_FONT_FOLDERS = ("/usr/share/fonts", "/usr/local/share/fonts",
                       os.path.expanduser("~/.local/share/fonts"), os.path.expanduser("~/.fonts"))
FONT_EXTENSIONS = (".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2")
WGHT = 0x77676874  # the 'wght' variation axis tag
WEIGHT_NAMES = {100: "Thin", 200: "ExtraLight", 300: "Light", 400: "Regular", 500: "Medium",
                600: "SemiBold", 700: "Bold", 800: "ExtraBold", 900: "Black"}

_MANAGER = skia.FontMgr.New_Custom_Empty()


@dataclass(frozen=True)
class Face:
    """One face of one font file."""
    family: str
    path: str
    index: int
    weight: int  # of its default instance
    italic: bool
    weights: tuple | None  # (min, max) of a variable font's weight axis
    source: str  # bundled, system or file

    def style_name(self) -> str:
        if self.weights:
            name = f"{self.weights[0]:g}-{self.weights[1]:g}"
        else:
            name = WEIGHT_NAMES.get(round(self.weight / 100) * 100, str(self.weight))
        if self.italic:
            name = "Italic" if name == "Regular" else f"{name} Italic"
        return name


def _key(family: str) -> str:
    return "".join(family.lower().split())


def font_bytes(path: str) -> bytes | None:
    """The OpenType bytes of a WOFF or WOFF2 file, or None for a file Skia and HarfBuzz read as
    it is (by its first bytes, whatever its name)."""
    with open(path, "rb") as handle:
        if handle.read(4) not in WOFF_MAGIC:
            return None
        handle.seek(0)
        return opentype_bytes(handle.read())


@functools.lru_cache(maxsize=256)
def _data(path: str) -> skia.Data | None:
    raw = font_bytes(path)
    return None if raw is None else skia.Data.MakeWithCopy(raw)


def _typeface_of_file(path: str, index: int) -> skia.Typeface | None:
    data = _data(path)
    if data is not None:
        return _MANAGER.makeFromData(data, index)
    return _MANAGER.makeFromFile(path, index)


def faces_of_file(path: str, source: str) -> list[Face]:
    """Every face of a font file (a .ttc holds several); [] for a file that is not a font."""
    return _faces(lambda index: _typeface_of_file(path, index), path, source)


def faces_of_data(data: skia.Data, path: str) -> list[Face]:
    """Every face of a font file's OpenType bytes (a probe's, read once: workers/probes/)."""
    return _faces(lambda index: _MANAGER.makeFromData(data, index), path, "file")


def _faces(typeface_at, path: str, source: str) -> list[Face]:
    faces = []
    index = 0
    while True:
        typeface = typeface_at(index)
        if typeface is None:
            return faces
        style = typeface.fontStyle()
        weights = None
        for axis in typeface.getVariationDesignParameters() or ():
            if axis.tag == WGHT and axis.max > axis.min:
                weights = (float(axis.min), float(axis.max))
        faces.append(Face(family=typeface.getFamilyName(), path=path, index=index,
                          weight=style.weight(),
                          italic=style.slant() != skia.FontStyle.kUpright_Slant,
                          weights=weights, source=source))
        index += 1
        if not path.lower().endswith((".ttc", ".otc")):
            return faces


def _index(folders: tuple, source: str) -> dict[str, tuple]:
    """Normalised family name -> its faces, from every font file under `folders`, in sorted
    order; a family found in an earlier folder is not extended by a later one."""
    families: dict[str, list] = {}
    for root in folders:
        found: dict[str, list] = {}
        for folder, subfolders, names in os.walk(root):
            subfolders.sort()
            for name in sorted(names):
                if name.lower().endswith(FONT_EXTENSIONS):
                    try:
                        faces = faces_of_file(os.path.join(folder, name), source)
                    except (NotAFont, OSError):  # a broken link, an unreadable or bad file
                        continue
                    for face in faces:
                        found.setdefault(_key(face.family), []).append(face)
        for family, faces in found.items():
            families.setdefault(family, faces)
    return {family: tuple(faces) for family, faces in families.items()}


@functools.lru_cache(maxsize=None)
def bundled_index() -> dict[str, tuple]:
    """About 90 files, read once per process (50 to 100 ms; the files are memory-mapped)."""
    return _index(BUNDLED_FOLDERS, "bundled")


def bundled_families() -> list[str]:
    """The bundled families a title would be set in (the Noto script faces and icon fonts
    left out), by name."""
    names = {faces[0].family for faces in bundled_index().values()}
    return sorted(name for name in names
                  if not name.startswith(("Noto", "Font Awesome")))


@functools.lru_cache(maxsize=None)
def system_index() -> dict[str, tuple]:
    """Read only when a family is not bundled (or fonts are listed): a desktop can have
    thousands of font files."""
    return _index(tuple(f for f in SYSTEM_FONT_FOLDERS if os.path.isdir(f)), "system")


@functools.lru_cache(maxsize=64)
def file_faces(path: str) -> tuple:
    """The faces of a layer's font file; NotAFont when it has none."""
    if not os.path.isfile(path):
        raise NotAFont(f"{path} does not exist or is not a file")
    try:
        faces = tuple(faces_of_file(path, "file"))
    except OSError as error:
        raise NotAFont(f"{path} cannot be read ({error.strerror})") from None
    if not faces:
        raise NotAFont(f"{path} is not a font file Skia can read (.ttf, .otf, .ttc, .woff or "
                       ".woff2)")
    return faces


def family_faces(family: str | None) -> tuple:
    """The faces of a family by name: bundled first, then the system's; () if neither."""
    if not family or family.lower() in GENERIC_FAMILIES:
        return ()
    key = _key(family)
    return bundled_index().get(key) or system_index().get(key, ())


def missing_family(family: str | None) -> str | None:
    """Why the requested family cannot be used, for a warning, or None when it can."""
    if family and family.lower() not in GENERIC_FAMILIES and not family_faces(family):
        return (f"the font family {family!r} is not bundled or installed on this machine; the "
                f"text is drawn in {DEFAULT_FAMILY} (font.list lists the families)")
    return None


def primary_faces(family: str | None, font_file: str | None = None) -> tuple:
    """The faces text asks for: its font file's, its family's, else DEFAULT_FAMILY's."""
    if font_file:
        try:
            return file_faces(font_file)
        except NotAFont:
            pass
    return family_faces(family) or bundled_index()[_key(DEFAULT_FAMILY)]


def closest(faces: tuple, weight: float, italic: bool) -> Face:
    """The face of `faces` nearest the wanted style: slant first, then weight (a variable
    face covers its whole weight range)."""
    def distance(face: Face) -> tuple:
        if face.weights:
            gap = max(face.weights[0] - weight, 0, weight - face.weights[1])
        else:
            gap = abs(face.weight - weight)
        return (face.italic != italic, gap)
    return min(faces, key=distance)


def instance_weight(face: Face, weight: float) -> float | None:
    """The weight axis position to draw `face` at for `weight`, or None for its default."""
    if not face.weights:
        return None
    return min(max(float(weight), face.weights[0]), face.weights[1])


def fallback_faces(weight: float, italic: bool) -> tuple:
    index = bundled_index()
    return tuple(closest(index[_key(family)], weight, italic)
                 for family in FALLBACK_FAMILIES if _key(family) in index)


def emoji_face() -> Face:
    return bundled_index()[_key(EMOJI_FAMILY)][0]


@functools.lru_cache(maxsize=512)
def coverage(face: Face) -> frozenset:
    """The code points the face maps to a glyph."""
    return frozenset(hb_face(face).unicodes)


@functools.lru_cache(maxsize=512)
def hb_face(face: Face) -> hb.Face:
    raw = font_bytes(face.path)
    blob = hb.Blob(raw) if raw is not None else hb.Blob.from_file_path(face.path)
    return hb.Face(blob, face.index)


@functools.lru_cache(maxsize=1024)
def hb_font(face: Face, weight: float | None) -> hb.Font:
    """A HarfBuzz font in font units (scale = units per em); callers scale to pixels."""
    font = hb.Font(hb_face(face))
    upem = hb_face(face).upem
    font.scale = (upem, upem)
    if weight is not None:
        font.set_variations({"wght": weight})
    return font


@functools.lru_cache(maxsize=1024)
def typeface_of(face: Face, weight: float | None) -> skia.Typeface:
    typeface = _typeface_of_file(face.path, face.index)
    if weight is None or typeface is None:
        return typeface if typeface is not None else skia.Typeface.MakeEmpty()
    position = skia.FontArguments.VariationPosition
    # Skia reads the coordinates when the clone is made; they must outlive that call.
    coordinates = position.Coordinates([position.Coordinate(WGHT, float(weight))])
    arguments = skia.FontArguments()
    arguments.setVariationDesignPosition(position(coordinates))
    return typeface.makeClone(arguments)


def typeface(family: str | None, bold: bool = False, italic: bool = False) -> skia.Typeface:
    """The closest typeface for a family in a style; never None."""
    face = closest(primary_faces(family), 700 if bold else 400, italic)
    return typeface_of(face, None)


def all_families() -> list[dict]:
    """font.list: every bundled and system family, with its styles and where it comes from."""
    listed = []
    for source, index in (("bundled", bundled_index()), ("system", system_index())):
        for key, faces in index.items():
            if source == "system" and key in bundled_index():
                continue  # the bundled family is the one drawn
            styles = []
            for face in sorted(faces, key=lambda f: (f.italic, f.weight)):
                if face.style_name() not in styles:
                    styles.append(face.style_name())
            listed.append({"family": faces[0].family, "styles": styles, "source": source})
    return sorted(listed, key=lambda entry: (entry["family"].lower(), entry["source"]))
