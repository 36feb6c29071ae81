"""The compositor's font index (workers/compositor/fonts.py) as the engine asks it: which
families are bundled or installed, their faces and their characters, for font.list,
font.glyphs, a template's font values and the warnings of a text layer.

Imported when first asked, never with the engine: the index reads the font files with Skia and
maps characters with HarfBuzz, and every front door imports the engine. `rendervisor render`
asks it nothing for an image sequence, and for a video only once its render is planned (the
files of the families its text names, for the segment cache's key): importing Skia and
HarfBuzz at its start would compete for the cores with the forkserver importing them for the
workers.
"""

from __future__ import annotations


def font_index():
    """workers/compositor/fonts.py, imported on the first call."""
    from workers.compositor import fonts
    return fonts
