"""Colour management with OpenColorIO: a project's `colorManagement {config, workingSpace}`,
footage `colorSpace`, and a queue item's `display` and `view` (docs/document.md, "Colour
management").

    managed(document) -> Managed | None        # None: the sRGB pipeline, unchanged
    managed.space                               # the working space as a Skia colour space
    managed.footage_image(image, color_space)   # footage turned into the working space
    managed.to_display(pixels, display, view)   # a frame's working values, displayed (in place)

A managed comp is drawn in linear light on a surface tagged with the working space, so Skia
turns every sRGB colour it draws (paints, gradients, untagged footage) into that space and
blends there. The working space must be scene-linear: a Skia colour space is a transfer curve
and a matrix to XYZ, and a linear space is the matrix alone, taken from the config's own
processor to its linear Rec. 709 space. Footage with a `colorSpace` is turned into the working
space by the config's processor, in float; a frame leaves the working space through the
config's display and view (or stays scene-linear, for EXR).

Configs are the ones built into OpenColorIO (`cg-config`, `studio-config`, or any
`ocio://NAME` it lists), read from the library, or a `.ocio` file, read here and only in a
worker. A file config reads its LUTs from its search path: every path it names must stay in
the config's own folder (which the supervisor checked against the roots), so a config cannot
make a worker read elsewhere. Errors are ColorError, one sentence naming the setting.
"""

from __future__ import annotations

import os
import re
import stat
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
import PyOpenColorIO as ocio
import skia

from workers.compositor.color_configs import (BUILTIN_CONFIGS, MAX_CONFIG_BYTES, ColorError,
                                              config_uri, is_builtin)

# Footage pictures kept converted into the working space: the stills a comp shows (a video's
# frames change every frame). Each is 16 bytes a pixel.
CONVERTED_KEPT = 8
# The linear Rec. 709 space a working space is related to, as configs name it.
_LINEAR_REC709 = ("Linear Rec.709 (sRGB)", "lin_rec709_srgb", "lin_rec709", "lin_srgb",
                  "Utility - Linear - sRGB")
# sRGB's primaries to XYZ (D50-adapted, as Skia and ICC profiles keep them): skcms's kSRGB.
_SRGB_TO_XYZ_D50 = np.array([[0.436065674, 0.385147095, 0.143066406],
                             [0.222488403, 0.716873169, 0.060607910],
                             [0.013916016, 0.097076416, 0.714096069]])
# A FileTransform's source, in block (`src: x`) or flow (`{src: x, ...}`) form.
_SOURCES = re.compile(r"(?:^|[\s{,])src\s*:\s*([^,}\n]+)", re.M)
HINT = ("use a config built into OpenColorIO (cg-config, studio-config) or a .ocio file whose "
        "LUTs sit in its own folder")


# What OpenColorIO raises: its Exception, and ExceptionMissingFile, which is not one of those.
OCIO_ERRORS = (ocio.Exception, ocio.ExceptionMissingFile)


def builtin_names() -> list[str]:
    return [*BUILTIN_CONFIGS, *(f"ocio://{name}" for name in ocio.BuiltinConfigRegistry())]


_configs: dict = {}  # config value -> (stamp, ocio.Config)


def open_config(config: str) -> ocio.Config:
    """The config a `colorManagement.config` value names, read once per version of its file."""
    if is_builtin(config):
        cached = _configs.get(config)
        if cached is None:
            try:
                cached = _configs[config] = (None, ocio.Config.CreateFromFile(config_uri(config)))
            except OCIO_ERRORS:
                raise ColorError(f"colorManagement.config {config!r} is not a config built "
                                 f"into OpenColorIO; use one of "
                                 f"{', '.join(builtin_names())}, or a .ocio file.") from None
        return cached[1]
    try:
        info = os.stat(config)
    except OSError as error:
        raise ColorError(f"the OpenColorIO config {config} cannot be read ({error.strerror}); "
                         f"{HINT}.") from None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CONFIG_BYTES:
        raise ColorError(f"the OpenColorIO config {config} is not a file of at most "
                         f"{MAX_CONFIG_BYTES >> 20} MiB; {HINT}.")
    stamp = (info.st_mtime_ns, info.st_size)
    cached = _configs.get(config)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    with open(config, "rb") as file:
        text = file.read(MAX_CONFIG_BYTES + 1).decode("utf-8", "replace")
    try:
        # Loading reads no LUT: OpenColorIO opens them when a processor is made, after the
        # check of every path the config names.
        loaded = ocio.Config.CreateFromStream(text)
    except OCIO_ERRORS as error:
        raise ColorError(f"the OpenColorIO config {config} does not load: "
                         f"{str(error).rstrip('.')}; {HINT}.") from None
    searched = list(loaded.getSearchPaths()) or ["."]
    sources = [match.group(1).strip().strip("\"'") for match in _SOURCES.finditer(text)]
    _check_named_paths(config, searched + sources)
    _check_linked_files(config, searched, sources)
    try:
        loaded.setWorkingDir(os.path.dirname(config))
        loaded.validate()
    except OCIO_ERRORS as error:
        raise ColorError(f"the OpenColorIO config {config} does not load: "
                         f"{str(error).rstrip('.')}; {HINT}.") from None
    _configs[config] = (stamp, loaded)
    return loaded


def _check_named_paths(config: str, paths) -> None:
    """Every path the config names (search paths, LUT sources) inside its own folder: relative,
    with no `..` and no variable (OpenColorIO expands $VARS from the environment)."""
    for named in paths:
        named = named.strip().strip("\"'")
        parts = named.replace("\\", "/").split("/")
        if os.path.isabs(named) or "$" in named or ".." in parts:
            raise ColorError(f"the OpenColorIO config {config} names {named!r}, outside its own "
                             f"folder; {HINT}.")


def color_space_name(config: ocio.Config, name: str, setting: str) -> str:
    """The config's own name for `name` (a name, an alias or a role); ColorError naming
    `setting` and some of the spaces there are otherwise."""
    space = config.getColorSpace(name)
    if space is None:
        names = [space.getName() for space in config.getColorSpaces()]
        raise ColorError(f"{setting} {name!r} is not a colour space of the config; it has "
                         f"{', '.join(names[:40])}{' ...' if len(names) > 40 else ''}.")
    return space.getName()


def display_view(config: ocio.Config, display: str | None, view: str | None) -> tuple:
    """(display, view), each the config's default where not given; ColorError naming the
    displays or views there are."""
    displays = list(config.getDisplays())
    display = display or config.getDefaultDisplay()
    if display not in displays:
        raise ColorError(f"display {display!r} is not a display of the config; it has "
                         f"{', '.join(displays)}.")
    views = list(config.getViews(display))
    view = view or config.getDefaultView(display)
    if view not in views:
        raise ColorError(f"view {view!r} is not a view of display {display!r}; it has "
                         f"{', '.join(views)}.")
    return display, view


def linear_matrix(config: ocio.Config, working: str) -> np.ndarray:
    """The 3x3 matrix taking the working space's values to linear Rec. 709; ColorError when
    the working space is not linear (a log or display encoding)."""
    target = next((name for name in _LINEAR_REC709 if config.getColorSpace(name) is not None),
                  None)
    if target is None:
        raise ColorError("the config has no linear Rec. 709 space (Linear Rec.709 (sRGB)) to "
                         "relate its working space to; use a config that has one.")
    processor = config.getProcessor(working, target).getDefaultCPUProcessor()
    probes = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0.5, 0.25, 0.125], [4, 2, 8],
                       [0.01, 0.02, 0.005]], np.float32)
    mapped = probes.copy()
    processor.applyRGB(mapped)
    matrix = mapped[:3].T.astype(np.float64)
    expected = probes[3:] @ matrix.T
    if not np.allclose(mapped[3:], expected, rtol=1e-3, atol=1e-6):
        raise ColorError(f"colorManagement.workingSpace {working!r} is not scene-linear, and "
                         "rendervisor blends in linear light; use a linear space such as "
                         "ACEScg or Linear Rec.709 (sRGB).")
    return matrix


def _check_linked_files(config: str, searched: list[str], sources: list[str]) -> None:
    """No LUT the config can find is a link out of its folder: the supervisor checked the
    folder against the roots, not what a link in it points at."""
    folder = os.path.realpath(os.path.dirname(config))
    for directory in searched:
        for source in sources:
            candidate = os.path.join(folder, directory, source)
            if os.path.lexists(candidate) and \
                    os.path.commonpath([folder, os.path.realpath(candidate)]) != folder:
                raise ColorError(f"the OpenColorIO config {config} reads {source!r}, a link "
                                 f"out of its own folder; {HINT}.")


@dataclass(frozen=True)
class View:
    """How a frame leaves the working space: through a display and view of the config (each
    its default when None), or not at all (`scene_linear`, for EXR)."""

    display: str | None = None
    view: str | None = None
    scene_linear: bool = False


SCENE_LINEAR = View(scene_linear=True)


@dataclass
class Managed:
    """A document's colour management, ready to draw with."""

    config: ocio.Config
    working: str
    space: skia.ColorSpace
    _processors: dict = field(default_factory=dict)
    # (image uniqueID, colour space) -> the image converted: a still is drawn every frame.
    _converted: OrderedDict = field(default_factory=OrderedDict)

    def _processor(self, source, destination=None):
        key = (source, destination)
        processor = self._processors.get(key)
        if processor is None:
            try:
                if destination is None:  # source is (display, view)
                    display, view = source
                    made = self.config.getProcessor(self.working, display, view,
                                                    ocio.TRANSFORM_DIR_FORWARD)
                else:
                    made = self.config.getProcessor(source, destination)
                processor = made.getDefaultCPUProcessor()
            except OCIO_ERRORS as error:  # a LUT the config names is missing or broken
                start, end = (self.working, source) if destination is None else \
                    (source, destination)
                raise ColorError(f"OpenColorIO cannot go from {start!r} to {end!r}: "
                                 f"{str(error).rstrip('.')}; check the config's files.") \
                    from None
            self._processors[key] = processor
        return processor

    def footage_image(self, image: skia.Image, color_space: str) -> skia.Image:
        """`image` (8-bit footage in `color_space`) in the working space, as a float image
        tagged with it, so Skia draws its values as they are."""
        key = (image.uniqueID(), color_space)
        kept = self._converted.get(key)
        if kept is not None:
            self._converted.move_to_end(key)
            return kept
        name = color_space_name(self.config, color_space, "colorSpace")
        pixels = image.toarray(colorType=skia.kRGBA_F32_ColorType,
                               alphaType=skia.kUnpremul_AlphaType)
        pixels = np.ascontiguousarray(pixels)
        if name != self.working:
            self._processor(name, self.working).applyRGBA(pixels)
        # Premultiplied here: Skia clamps an unpremultiplied float image to 0..1 as it draws,
        # which would cut every highlight above white.
        pixels[..., :3] *= pixels[..., 3:]
        converted = skia.Image.fromarray(pixels, colorType=skia.kRGBA_F32_ColorType,
                                         alphaType=skia.kPremul_AlphaType,
                                         colorSpace=self.space, copy=True)
        self._converted[key] = converted
        while len(self._converted) > CONVERTED_KEPT:
            self._converted.popitem(last=False)
        return converted

    def to_display(self, pixels: np.ndarray, view: View) -> None:
        """Turn straight float32 RGBA in the working space into the display's encoding through
        the view, in place (nothing for a scene-linear view)."""
        if not view.scene_linear:
            chosen = display_view(self.config, view.display, view.view)
            self._processor(chosen).applyRGBA(pixels)


_managed: dict = {}  # (config, workingSpace, the config's stamp) -> Managed


def managed(document: dict) -> Managed | None:
    """The document's colour management, or None when it has none."""
    settings = document.get("colorManagement")
    if not settings:
        return None
    config_name = settings.get("config", "cg-config")
    config = open_config(config_name)
    key = (config_name, settings.get("workingSpace"), id(config))
    kept = _managed.get(key)
    if kept is not None:
        return kept
    working = color_space_name(config, settings.get("workingSpace") or "scene_linear",
                               "colorManagement.workingSpace")
    matrix = _SRGB_TO_XYZ_D50 @ linear_matrix(config, working)
    space = skia.ColorSpace.MakeRGB(skia.cms.NamedTransferFn.kLinear,
                                    skia.cms.Matrix3x3([float(v) for v in matrix.ravel()]))
    if len(_managed) >= 8:
        _managed.clear()
    kept = _managed[key] = Managed(config, working, space)
    return kept
