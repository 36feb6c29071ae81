"""The files footage reads, checked against a confined session's read roots before anything
reads them: at import (the probe opens the file), and before every preview and render (the
compositor opens them in a worker, which knows nothing of roots).

Checking at import alone is not enough: a project opened from a file (with --project, or by
project.open) brings footage paths of its own, written before this session's roots existed or
crafted to point elsewhere, and an image sequence's frames are separate files, any of which can
be a symbolic link out of the roots. So every file a footage item can read is checked each time
a drawing starts: a still, video or sound file, and every existing file an image sequence's
pattern matches (each resolved on its own).

A footage file can also make FFmpeg read other files: an HLS playlist, a DASH manifest or an
ffconcat list names them, and FFmpeg's image2 demuxer reads `%d` in a picture's name as a
frame number (`f%d.ppm` opens f0.ppm, f1.ppm...). FFmpeg is never allowed to do either
(protocol/model/ffmpeg_inputs.py: one file, demuxers that read no other, names taken as they are),
in any session; that is the guarantee, and it holds even for a file rewritten after this
check. What is checked here gives the sentence: footage FFmpeg opens whose name holds a
frame-number field, or that is a playlist by its extension or first bytes, is refused at
import and at each snapshot.

Reads no more of a file than its first bytes, and only once it is open and checked
(supervisor/confinement/checked_files.py); otherwise it lists folders inside the roots and resolves
names.
"""

from __future__ import annotations

import os
import re

from protocol.model.ffmpeg_inputs import (PLAYLIST_REASON, SNIFF_BYTES, frame_field,
                                          is_playlist_name, names_other_files)
from protocol.model.sequences import is_pattern, pattern_regex
from supervisor.confinement.checked_files import NotRegularFile, open_regular
from supervisor.errors import CommandError
from supervisor.confinement.roots import shown
from supervisor.engine.footage_probe import IMAGE_EXTENSIONS, VECTOR_EXTENSIONS, probe

_NUMBERED = re.compile(r"^(.*?)(\d+)(\.[^.]+)$")


def files_of(path: str) -> list[str]:
    """The files footage at `path` reads: a still or video's own file; for a `[####]` pattern
    the existing files it matches; for a folder (imported as a sequence) its numbered images.
    The pattern or folder itself comes first, so its folder is checked even when empty."""
    if is_pattern(path):
        folder, name = os.path.split(path)
        regex = pattern_regex(name)
        return [folder] + [os.path.join(folder, entry) for entry in _names(folder)
                           if regex.match(entry)]
    if os.path.isdir(path):
        return [path] + [os.path.join(path, entry) for entry in _names(path)
                         if (match := _NUMBERED.match(entry))
                         and match.group(3).lower() in IMAGE_EXTENSIONS]
    return [path]


def check_import(engine, path: str) -> None:
    """Before probing `path` (already checked itself): every file it would read, or
    CommandError naming the first outside the roots."""
    if not engine.confined:
        return
    engine.check_path(path, "read")
    if is_pattern(path) and not _inside_checked_folder(engine, path):
        return
    for file in files_of(path)[1:]:
        engine.check_path(file, "read")
    if not is_pattern(path) and not os.path.isdir(path):
        extension = os.path.splitext(path)[1].lower()
        if extension in VECTOR_EXTENSIONS:
            return  # read by Skia's SVG parser or ThorVG from its bytes, never by FFmpeg
        if extension not in IMAGE_EXTENSIONS:  # FFmpeg will open it
            _refuse_frame_field(path)
        _refuse_playlist(engine, path)


def probed(engine, path: str, frame_rate: float | None = None, work=None) -> dict:
    """The footage fields of `path` (footage_probe.probe's, read on a probe worker), once
    confinement allows every file it reads: what footage.import, footage.replace and a footage
    param's value use."""
    engine.check_path(path, "read")  # as given: a confined session refuses relative paths
    check_import(engine, path)  # a sequence's frames too: each may be a link out of the roots
    path = os.path.abspath(path)
    if frame_rate is not None and frame_rate <= 0:
        raise CommandError(f"frameRate must be above 0, got {frame_rate}.")
    return probe(engine.probes, path, frame_rate, lambda real: engine.check_path(real, "read"),
                 work.cancel if work is not None else None)


def check_document(engine, document: dict) -> None:
    """Before drawing `document` (a preview, a render): every file any footage item reads, or
    CommandError naming the footage, its file and the rule."""
    if not engine.confined:
        return
    for footage in document.get("footage", []):
        path = footage.get("path")
        if not isinstance(path, str):
            continue
        try:
            engine.check_path(path, "read")
            if footage.get("kind") == "sequence" or is_pattern(path):
                if _inside_checked_folder(engine, path):
                    for file in files_of(path)[1:]:
                        engine.check_path(file, "read")
            elif footage.get("kind") not in ("vector", "lottie"):
                # Whatever its kind says: a crafted project can call a playlist an image. SVG
                # and Lottie footage is read from its bytes, never by FFmpeg, and names no
                # other file (protocol/model/lottie_files.py, workers/compositor/svg_footage.py).
                if footage.get("kind") in ("video", "audio"):  # FFmpeg opens it
                    _refuse_frame_field(path)
                _refuse_playlist(engine, path)
        except CommandError as error:
            reason = str(error).rstrip(".")
            verb = "played" if footage.get("kind") == "audio" else "drawn"
            raise CommandError(
                f"footage {footage.get('name', footage.get('id'))!r} cannot be {verb}: {reason}; "
                "point it at a file inside the roots with footage.replace, or remove it (its "
                "layers first) with footage.remove.") from None


def _refuse_frame_field(path: str) -> None:
    """CommandError if FFmpeg's image2 would read `path` as a pattern of other files' names.
    FFmpeg is told not to (protocol/model/ffmpeg_inputs.py); refusing says so instead of drawing a
    file the user may not have meant."""
    field = frame_field(path)
    if field is not None:
        raise CommandError(
            f"reading {shown(path)} is refused: {field} is FFmpeg's frame-number pattern, which "
            "can make FFmpeg open other files than the one named, and while confined every file "
            "read must be the one checked; rename the file, or name an image sequence with "
            "[####] (such as f_[####].png).")


def _refuse_playlist(engine, path: str) -> None:
    """CommandError if FFmpeg would read `path` as a list of other files to open."""
    if is_playlist_name(path):
        raise _playlist_refusal(path)
    try:
        fd = open_regular(path, lambda real: engine.check_path(real, "read"))
    except NotRegularFile as error:
        # A FIFO would hold this thread in read() until some writer sent bytes.
        raise CommandError(f"reading {shown(path)} is refused: it is {error.kind}, not a "
                           "media file; import a regular file.") from None
    except OSError:
        return  # missing or unreadable: the probe or the render reports it in its own words
    try:
        head = os.read(fd, SNIFF_BYTES)
    except OSError:
        return
    finally:
        os.close(fd)
    if names_other_files(head):
        raise _playlist_refusal(path)


def _playlist_refusal(path: str) -> CommandError:
    return CommandError(f"reading {shown(path)} is refused: {PLAYLIST_REASON}; import the media "
                        "files themselves.")


def _inside_checked_folder(engine, pattern: str) -> bool:
    """Check a pattern's folder before listing it (a listing is a read too)."""
    folder = os.path.dirname(pattern)
    if is_pattern(folder):
        # Each frame would then be in a folder of its own (/shots/[##]/f.png), any of which
        # could be a link out; the frames listed here would not be the ones drawn.
        raise CommandError(f"reading {pattern} is refused: its frame number field is in a "
                           "folder name, and while confined every frame must be in the one "
                           "folder that is checked; put the [####] field in the file name.")
    engine.check_path(folder, "read")
    return os.path.isdir(folder)


def _names(folder: str) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []
