"""The bundled families a title would be set in, by name, as the font index reads them from
the bundled packages' files (fonts.bundled_families()).

Written out rather than read: the engine names them in the text layer's parameters, which every
front door imports, and reading them takes Skia and every bundled font file. A test
(tests/compositor/test_bundled_families.py) reads the index and fails when a font package
adds, drops or renames a family, so the two never drift apart.
"""

from __future__ import annotations

BUNDLED_FAMILIES = (
    "Amiri", "EB Garamond", "Fontin", "Gentium Book Plus", "Lato", "Mukta", "Open Sans",
    "Open Sauce Sans", "Poppins", "Raleway", "Roboto", "Roboto Flex", "Source Sans 3",
    "Source Sans Pro", "Ubuntu", "XCharter",
)
