"""What a text layer draws with a fallback: a font family or file that cannot be used, and
characters that no face it can use has (drawn as the missing-glyph box). Commands that set text
return these as `warnings`, and doc_inspect lists the layers that have any.

Every text a layer shows counts: each key of an animated `text` (captions change it per cue).
Characters are checked one by one against the faces' character maps, without shaping, so a
text animated over thousands of keys is checked in a fraction of a second.

A layer's own font file is never read here: what a probe worker found in it when it was set
(its characters, as ranges: supervisor/engine/probes.py) stands for it. A file no probe has
read in this session (a project opened from disk) is left out of the check rather than read.
The bundled faces and the machine's installed families are rendervisor's and the machine's
own, read as the compositor reads them.
"""

from __future__ import annotations

import bisect
import os
import unicodedata

from protocol.model.keyframes import is_animated
from supervisor.engine.font_index import font_index

# Characters named in one warning; a longer list says how many more.
MAX_NAMED_CHARACTERS = 12
# Format and combining-only characters (joiners, variation selectors) need no glyph of their
# own to be drawn right.
_SILENT_CATEGORIES = ("Cf", "Cc", "Zs", "Zl", "Zp")


def font_warnings(probes, content: dict) -> list[str]:
    """The warnings of a text layer's `content`; `probes` knows its font file, if any."""
    fonts = font_index()
    font_file = content.get("fontFile")
    warnings = []
    file_ranges = None
    if font_file:
        if not os.path.isfile(font_file):
            warnings.append(f"the font file {font_file} does not exist or is not a file; the "
                            f"text is drawn in {fonts.DEFAULT_FAMILY}")
        else:
            known = probes.known(font_file)
            if known is None:
                return warnings  # never read here: nothing is known of its characters
            file_ranges = known["coverage"]
    else:
        problem = fonts.missing_family(content.get("font"))
        if problem is not None:
            warnings.append(problem)
    missing = uncovered(content, file_ranges)
    if missing:
        named = " ".join(missing[:MAX_NAMED_CHARACTERS])
        more = len(missing) - MAX_NAMED_CHARACTERS
        warnings.append(f"no bundled font has {named}" + (f" (and {more} more)" if more > 0
                                                           else "")
                        + "; these are drawn as empty boxes (set fontFile to a font that has "
                        "them)")
    return warnings


def uncovered(content: dict, file_ranges: list | None = None) -> list[str]:
    """The characters of every text the layer shows that no face it can use has, in order:
    its font file's (`file_ranges`, [[first, last], ...]) or its family's, then the bundled
    fallbacks."""
    fonts = font_index()
    texts = content.get("text", "")
    values = [key["value"] for key in texts["keys"]] if is_animated(texts) else [texts]
    characters: dict[str, None] = {}
    for value in values:
        characters.update(dict.fromkeys(str(value)))
    primary = () if file_ranges is not None else fonts.primary_faces(content.get("font"))
    maps = [fonts.coverage(face)
            for face in (*primary, *fonts.fallback_faces(400, False), fonts.emoji_face())]
    starts = [first for first, _ in file_ranges or ()]

    def in_file(code: int) -> bool:
        at = bisect.bisect_right(starts, code) - 1
        return at >= 0 and code <= file_ranges[at][1]

    return [c for c in characters
            if unicodedata.category(c) not in _SILENT_CATEGORIES and c not in "\n\t"
            and (0xFE00 > ord(c) or ord(c) > 0xFE0F)
            and not (file_ranges is not None and in_file(ord(c)))
            and not any(ord(c) in mapped for mapped in maps)]
