"""Which `colorManagement.config` values name a config built into OpenColorIO, what a config
file may weigh, and the error a colour setting that cannot be used raises: the plain names
color_management.py opens configs by.

No OpenColorIO here: the supervisor tells a built-in config from a file (to check a file's
size and roots, and to name the files a segment is drawn from) without loading it, and a
render's supervisor must not import OpenColorIO, Skia and numpy for that.
"""

from __future__ import annotations

# Short names for the configs built into OpenColorIO: the newest version of each.
BUILTIN_CONFIGS = {"cg-config": "ocio://cg-config-latest",
                   "studio-config": "ocio://studio-config-latest"}
# A config file is YAML of a few hundred kilobytes at most (the studio config is 200 KB).
MAX_CONFIG_BYTES = 4 * 1024 * 1024


class ColorError(ValueError):
    """A colour setting that cannot be used; the message is the whole sentence."""


def config_uri(config: str) -> str:
    """What OpenColorIO opens for a `colorManagement.config` value."""
    return BUILTIN_CONFIGS.get(config, config)


def is_builtin(config: str) -> bool:
    return config in BUILTIN_CONFIGS or config.startswith("ocio://")
