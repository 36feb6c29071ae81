"""A project's colour settings checked as commands set them: `colorManagement {config,
workingSpace}`, footage `colorSpace`, and a queue item's `display` and `view`
(docs/document.md, "Colour management").

A config built into OpenColorIO ships inside the library, so its names are checked here, at
once, with the worker's own functions (workers/compositor/color_management.py). A `.ocio`
file is untrusted input: here it is only checked as a path (absolute, a regular file inside
the read roots, small enough to be a config); the worker that draws reads and parses it, and
a name it does not have fails that preview or render with one sentence. While confined, every
snapshot checks the file's path against the roots again, as it does footage.
"""

from __future__ import annotations

import os

from supervisor.confinement.roots import shown
from supervisor.engine.named_files import named_file_size, snapshot_problem
from supervisor.errors import CommandError
from workers.compositor.color_configs import MAX_CONFIG_BYTES, ColorError, is_builtin

DEFAULT_CONFIG = "cg-config"
CONFIG_HINT = "cg-config, studio-config, an ocio:// name OpenColorIO lists, or a .ocio file"


def checked_color_management(engine, value: dict | None) -> dict | None:
    """`value` ({config?, workingSpace?}, or null for none) as stored, checked; CommandError
    with the sentence otherwise."""
    if value is None:
        return None
    unknown = sorted(set(value) - {"config", "workingSpace"})
    if unknown:
        raise CommandError(f"colorManagement has no key {unknown[0]!r}; it takes config and "
                           "workingSpace.")
    config = value.get("config", DEFAULT_CONFIG)
    settings = {"config": check_config(engine, config)}
    if value.get("workingSpace") is not None:
        settings["workingSpace"] = value["workingSpace"]
    loaded = _builtin(settings)
    if loaded is not None:
        try:
            ocio = _ocio()
            working = ocio.color_space_name(loaded, settings.get("workingSpace", "scene_linear"),
                                            "colorManagement.workingSpace")
            ocio.linear_matrix(loaded, working)
        except ColorError as error:
            raise CommandError(str(error)) from None
    return settings


def check_config(engine, config) -> str:
    """The config value as stored: a built-in name, or the normalised path of a config file
    the session may read."""
    if not isinstance(config, str) or not config:
        raise CommandError(f"colorManagement.config must be {CONFIG_HINT}; got {config!r}.")
    if is_builtin(config):
        try:
            _ocio().open_config(config)
        except ColorError as error:
            raise CommandError(str(error)) from None
        return config
    if not os.path.isabs(config):
        raise CommandError(f"colorManagement.config {config!r} is neither a built-in config "
                           f"nor an absolute path; give {CONFIG_HINT}.")
    path, size = named_file_size(engine, config, "the OpenColorIO config", "a .ocio file")
    if size > MAX_CONFIG_BYTES:
        raise CommandError(f"the OpenColorIO config {shown(path)} is over "
                           f"{MAX_CONFIG_BYTES >> 20} MiB, larger than any config.")
    return path


def check_color_space(document: dict, name) -> str:
    """A footage `colorSpace`, checked against the project's config when it is built in."""
    if not isinstance(name, str) or not name:
        raise CommandError(f"colorSpace must be the name of a colour space of the project's "
                           f"config (such as 'sRGB Encoded Rec.709 (sRGB)' or 'ACEScg'); got "
                           f"{name!r}.")
    loaded = _builtin(document.get("colorManagement"))
    if loaded is not None:
        try:
            _ocio().color_space_name(loaded, name, "colorSpace")
        except ColorError as error:
            raise CommandError(str(error)) from None
    return name


def check_view(document: dict, display: str | None, view: str | None) -> None:
    """A queue item's display and view, checked against the project's config when it is
    built in."""
    loaded = _builtin(document.get("colorManagement"))
    if loaded is not None and (display or view):
        try:
            _ocio().display_view(loaded, display, view)
        except ColorError as error:
            raise CommandError(str(error)) from None


def check_config_file(engine, document: dict) -> None:
    """While confined, before drawing `document`: its config file inside the roots."""
    settings = document.get("colorManagement")
    if not engine.confined or not settings or is_builtin(settings.get("config", "")):
        return
    problem = snapshot_problem(engine, settings["config"])  # missing: the worker says so
    if problem is not None:
        raise CommandError(f"the project's OpenColorIO config cannot be read: {problem}; set "
                           "colorManagement to a config inside the roots with project.set, or "
                           "to null.")


def _ocio():
    """OpenColorIO's side of the checks, imported when a built-in config is first opened: a
    project with no colour management (and every render's supervisor) never needs
    OpenColorIO, Skia and numpy, which that module imports."""
    from workers.compositor import color_management
    return color_management


def _builtin(settings: dict | None):
    """The loaded config when `settings` name a built-in one, else None."""
    if not settings or not is_builtin(settings.get("config", "")):
        return None
    return _ocio().open_config(settings["config"])
