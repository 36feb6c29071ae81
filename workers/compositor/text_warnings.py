"""What a text layer draws with a fallback: a font family or file that cannot be used, and
characters that no bundled face has (drawn as the missing-glyph box). Commands that set text
return these as `warnings`, and doc_inspect lists the layers that have any.

Every text a layer shows counts: each key of an animated `text` (captions change it per cue).
Characters are checked one by one against the faces' character maps, without shaping, so a
text animated over thousands of keys is checked in a fraction of a second.
"""

from __future__ import annotations

import unicodedata

from protocol.model.keyframes import is_animated
from workers.compositor.fonts import (coverage, emoji_face, fallback_faces, missing_family,
                                      primary_faces)

# Characters named in one warning; a longer list says how many more.
MAX_NAMED_CHARACTERS = 12
# Format and combining-only characters (joiners, variation selectors) need no glyph of their
# own to be drawn right.
_SILENT_CATEGORIES = ("Cf", "Cc", "Zs", "Zl", "Zp")


def font_warnings(content: dict) -> list[str]:
    warnings = []
    problem = missing_family(content.get("font"), content.get("fontFile"))
    if problem is not None:
        warnings.append(problem)
    missing = uncovered(content)
    if missing:
        named = " ".join(missing[:MAX_NAMED_CHARACTERS])
        more = len(missing) - MAX_NAMED_CHARACTERS
        warnings.append(f"no bundled font has {named}" + (f" (and {more} more)" if more > 0
                                                           else "")
                        + "; these are drawn as empty boxes (set fontFile to a font that has "
                        "them)")
    return warnings


def uncovered(content: dict) -> list[str]:
    """The characters of every text the layer shows that no face it can use has, in order."""
    texts = content.get("text", "")
    values = [key["value"] for key in texts["keys"]] if is_animated(texts) else [texts]
    characters: dict[str, None] = {}
    for value in values:
        characters.update(dict.fromkeys(str(value)))
    faces = (*primary_faces(content.get("font"), content.get("fontFile")),
             *fallback_faces(400, False), emoji_face())
    maps = [coverage(face) for face in faces]
    return [c for c in characters
            if unicodedata.category(c) not in _SILENT_CATEGORIES and c not in "\n\t"
            and (0xFE00 > ord(c) or ord(c) > 0xFE0F)
            and not any(ord(c) in mapped for mapped in maps)]
