"""SVG files as footage: reading one, what in it rendervisor will not draw, and the copy of it
the renderer (resvg) is given, which names no other file.

An SVG can point outside itself: `<image href>` and `<feImage href>` name files, by absolute
path, relative to wherever the reading process stands, or through an entity the DTD declares;
resvg opens such names wherever they point, so a footage item would read files nobody checked
against a confined session's roots. `self_contained` is the one copy ever handed to the
renderer: the document is parsed here (expat: no external entity is ever fetched, entity
expansion is bounded), every reference that is neither a fragment of the document (`#id`) nor
embedded (`data:`) is removed and named in a warning, and what goes on is the tree written out
again, with no DTD left, so the renderer sees exactly the elements checked here.

Pure: bytes in, data out; no I/O.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from copy import deepcopy as copy_tree

SVG_EXTENSIONS = (".svg",)
SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
_HREFS = ("href", f"{{{XLINK_NS}}}href")
# How deep elements may nest: far past any drawing's groups, short of what copying and writing
# the tree (and the renderer's own recursion) can take.
MAX_DEPTH = 512
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_LENGTH = re.compile(r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(px|in|cm|mm|pt|pc|em|ex|%|)",
                     re.I)
# CSS pixels per unit, at a browser's 96 dpi and 16 px font (what svg_footage.py gives resvg).
_UNIT_PIXELS = {"": 1.0, "px": 1.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 4 / 3,
                "pc": 16.0, "em": 16.0, "ex": 8.0}
_LINK = f"{{{SVG_NS}}}a"
# Written out as authors write them: SVG the default namespace, xlink as xlink.
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)

# Elements resvg does not draw, by what they are for (the static SVG subset it renders, and
# its own list of what it leaves out), each with what the viewer sees instead.
_UNDRAWN_ELEMENTS = {
    **dict.fromkeys(("animate", "animateMotion", "animateTransform", "animateColor", "set"),
                    "animation elements (SMIL; the first state is drawn, unmoving)"),
    **dict.fromkeys(("font", "font-face", "glyph", "missing-glyph", "altGlyph", "glyphRef",
                     "hkern", "vkern", "altGlyphDef", "altGlyphItem"),
                    "SVG fonts (text is drawn with the bundled fonts instead)"),
    "foreignObject": "<foreignObject> (HTML inside an SVG; not drawn)",
    "script": "scripts (not run)",
    "color-profile": "colour profiles (colours are drawn as sRGB)",
}
# Properties resvg ignores: as attributes, in a style attribute, or in a style sheet.
_UNDRAWN_PROPERTIES = ("clip", "color-interpolation", "color-profile", "color-rendering",
                       "direction", "font-size-adjust", "font-stretch", "unicode-bidi",
                       "glyph-orientation-horizontal", "glyph-orientation-vertical", "kerning",
                       "vector-effect", "enable-background")
_CSS_PROPERTY = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, _UNDRAWN_PROPERTIES)) +
                           r")\s*:", re.I)
_FILTER_INPUTS = ("BackgroundImage", "BackgroundAlpha", "FillPaint", "StrokePaint")


class SvgError(ValueError):
    """Not an SVG rendervisor can read; the message is a fragment to follow "it is not ...":
    `an SVG file rendervisor can read (line 3, column 5: mismatched tag)`."""


def read_svg(data: bytes) -> ET.Element:
    """The root `<svg>` element of the document in `data`; SvgError if it is not one."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        line, column = error.position
        reason = str(error).split(":")[0]
        raise SvgError(f"an SVG file rendervisor can read (the XML does not parse: {reason}, "
                       f"line {line}, column {column})") from None
    except RecursionError:
        raise SvgError("an SVG file rendervisor can read (its XML nests too deeply)") from None
    if _depth(root) > MAX_DEPTH:
        raise SvgError(f"an SVG file rendervisor can read (its elements nest more than "
                       f"{MAX_DEPTH} deep)")
    if root.tag != f"{{{SVG_NS}}}svg":
        raise SvgError("an SVG file rendervisor can read (its root element is not <svg> in "
                       "the SVG namespace, xmlns=\"http://www.w3.org/2000/svg\")")
    return root


def size(root: ET.Element) -> tuple[float, float]:
    """The document's size in CSS pixels, as resvg (and a browser) sizes it: its `width` and
    `height` in any absolute unit, a percentage (or nothing) taken of its viewBox; SvgError
    when neither gives one."""
    view_box = [float(v) for v in _NUMBER.findall(root.get("viewBox") or "")]
    sides = []
    for name, index in (("width", 2), ("height", 3)):
        match = _LENGTH.fullmatch((root.get(name) or "100%").strip())
        if match is None:
            raise SvgError(f"an SVG file rendervisor can read (its {name} is not a length: "
                           f"{root.get(name)!r})")
        value, unit = float(match.group(1)), match.group(2).lower()
        if unit == "%":
            value = value / 100 * view_box[index] if len(view_box) == 4 else 0.0
        else:
            value *= _UNIT_PIXELS[unit]
        sides.append(value)
    if not (sides[0] > 0 and sides[1] > 0):
        raise SvgError("an SVG file with a size (it has no width and height in absolute units, "
                       "and no viewBox); add width and height to its <svg> element")
    return sides[0], sides[1]


def self_contained(root: ET.Element) -> tuple[bytes, list[str]]:
    """The document as UTF-8 bytes that name no other file, and what was dropped, one phrase
    each. `root` is left as it was."""
    copy = copy_tree(root)
    dropped = []
    for element in copy.iter():
        if element.tag == _LINK:
            continue  # a hyperlink is never loaded
        for name in _HREFS:
            value = element.get(name)
            if value is not None and not _inside(value):
                dropped.append(value.strip())
                del element.attrib[name]
    notes = []
    if dropped:
        notes.append(f"{len(dropped)} reference{'s' if len(dropped) > 1 else ''} to other files "
                     f"({', '.join(dropped[:3])}{', ...' if len(dropped) > 3 else ''}; not "
                     "drawn: footage is the one file it names, so embed images as data: URIs)")
    return ET.tostring(copy, encoding="utf-8", xml_declaration=False), notes


def unsupported(root: ET.Element) -> list[str]:
    """What in the document resvg will not draw as its author meant, one phrase each."""
    found: list[str] = []
    properties: set[str] = set()
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        name = element.tag.rpartition("}")[2]
        phrase = _UNDRAWN_ELEMENTS.get(name)
        if phrase and phrase not in found:
            found.append(phrase)
        properties.update(key for key in element.attrib if key in _UNDRAWN_PROPERTIES)
        for css in (element.get("style") or "", element.text if name == "style" else ""):
            properties.update(match.lower() for match in _CSS_PROPERTY.findall(css or ""))
        if name.startswith("fe") and any(element.get(key) in _FILTER_INPUTS
                                         for key in ("in", "in2")):
            phrase = ("filter inputs from the background or the paint (BackgroundImage, "
                      "FillPaint...; drawn as empty)")
            if phrase not in found:
                found.append(phrase)
    if properties:
        found.append(f"the propert{'ies' if len(properties) > 1 else 'y'} "
                     f"{', '.join(sorted(properties))} (ignored)")
    return found


def _depth(root: ET.Element) -> int:
    """How deep the elements nest, counted without recursion."""
    deepest, level = 0, [(root, 1)]
    while level:
        element, depth = level.pop()
        deepest = max(deepest, depth)
        level.extend((child, depth + 1) for child in element)
    return deepest


def _inside(href: str) -> bool:
    """Whether a reference stays within the file: a fragment of it, or data it embeds."""
    href = href.strip()
    return href.startswith("#") or href[:5].lower() == "data:"
