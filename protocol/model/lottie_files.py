"""Lottie files as footage: reading one (a `.json` animation, or a `.lottie` archive holding
one), what it is (size, frame rate, length), what in it rendervisor will not draw, and the copy
of it the renderer is given, which names no other file.

A Lottie animation can point outside itself: an image asset is a file name (`u` + `p`) unless
it is embedded as a data URI, and a font can name a file (`fPath`). The renderer (ThorVG) opens
such names wherever they point, so a footage item would read files nobody checked against a
confined session's roots. `self_contained` is the one copy ever handed to the renderer: images
a `.lottie` archive holds are embedded from it, every other external reference is dropped (and
named in a warning), so the footage is exactly the one file it names, in every session. That
copy is also in the current Bodymovin format (bodymovin_versions.py), as lottie-web plays it.

Pure: bytes in, data out (an archive is read from memory); no I/O.
"""

from __future__ import annotations

import base64
import io
import json
import zipfile

from protocol.model.bodymovin_versions import upgraded
from protocol.model.limits import MAX_VECTOR_FOOTAGE_BYTES
from protocol.model.lottie_web_rules import as_lottie_web_plays
from protocol.model.lottie_trees import dicts, layers as lottie_layers, nodes

LOTTIE_EXTENSIONS = (".json", ".lottie")
_REQUIRED = ("fr", "ip", "op", "w", "h", "layers")
# A 1x1 transparent PNG: what a dropped external image becomes, so its layer draws nothing.
_EMPTY_PNG = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42m"
              "NkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")
_IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
                ".webp": "image/webp", ".gif": "image/gif", ".svg": "image/svg+xml"}


class LottieError(ValueError):
    """Not a Lottie animation rendervisor can read; the message is a fragment to follow
    "it is not ...": `not JSON (line 3, column 5: ...)`."""


def read_animation(data: bytes) -> tuple[dict, dict[str, bytes]]:
    """The animation in `data` (a Lottie JSON document, or a dotLottie archive's first
    animation) and, for an archive, the files it holds by name (its images); LottieError if it
    is neither."""
    files: dict[str, bytes] = {}
    if data[:4] == b"PK\x03\x04":
        data, files = _from_archive(data)
    try:
        animation = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise LottieError("neither JSON text nor a .lottie archive") from None
    except json.JSONDecodeError as error:
        raise LottieError(f"valid JSON (line {error.lineno}, column {error.colno}: "
                          f"{error.msg})") from None
    except RecursionError:
        raise LottieError("a Lottie animation rendervisor can read (its JSON nests too "
                          "deeply)") from None
    if not isinstance(animation, dict):
        raise LottieError("a Lottie animation (the JSON is not an object)")
    missing = [key for key in _REQUIRED if key not in animation]
    if missing:
        raise LottieError(f"a Lottie animation (it has no {', '.join(missing)}; a Lottie file "
                          "has a frame rate fr, frames ip to op, a size w x h and layers)")
    numbers = {key: animation[key] for key in ("fr", "ip", "op", "w", "h")}
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in numbers.values()) \
            or animation["fr"] <= 0 or animation["w"] <= 0 or animation["h"] <= 0 \
            or animation["op"] <= animation["ip"] or not isinstance(animation["layers"], list):
        raise LottieError(f"a Lottie animation rendervisor can play (its frame rate, size and "
                          f"frames must be positive, op after ip: {numbers})")
    return animation, files


def footage_fields(animation: dict) -> dict:
    """The footage item's size, frame rate, duration and frame count."""
    rate = animation["fr"]
    frames = animation["op"] - animation["ip"]
    return {"width": animation["w"], "height": animation["h"],
            "frameRate": int(rate) if float(rate).is_integer() else rate,
            "duration": round(frames / rate, 6),
            "frameCount": int(frames) if float(frames).is_integer() else frames}


def expression_count(animation: dict) -> int:
    """How many of the animation's properties carry an After Effects expression (`x`)."""
    return sum(1 for node in nodes(animation)
               if isinstance(node, dict) and isinstance(node.get("x"), str))


def unsupported(animation: dict) -> list[str]:
    """What in the animation will not be drawn as its author meant, one phrase each."""
    found = []
    expressions = expression_count(animation)
    if expressions:
        found.append(f"{expressions} expression{'s' if expressions > 1 else ''} (evaluated "
                     "when drawn if every one evaluates, else all drawn with their keyframed "
                     "values; lottie.bake evaluates them into keys and names any that fail)")
    layers = list(lottie_layers(animation))
    if animation.get("ddd") == 1 or any(layer.get("ddd") == 1 for layer in layers):
        found.append("3D layers (drawn flat)")
    cameras = sum(1 for layer in layers if layer.get("ty") == 13)
    if cameras:
        found.append(f"{cameras} camera layer{'s' if cameras > 1 else ''} (ignored)")
    return found


def self_contained(animation: dict, files: dict[str, bytes], *, for_thorvg: bool = True
                   ) -> tuple[bytes, list[str]]:
    """The animation as JSON bytes that name no other file (images from the archive embedded,
    other external images and font files dropped), and what was dropped, one phrase each.
    `for_thorvg`: the copy ThorVG is given, rewritten to draw as lottie-web does; a file
    written for the user to keep (lottie.bake's) is not, so that it is rewritten once when
    it is drawn (some of those rules scale values, and must not be applied twice)."""
    animation = upgraded(animation)  # a copy, in the format ThorVG reads
    if for_thorvg:
        as_lottie_web_plays(animation)
    dropped_images = []
    for asset in dicts(animation.get("assets")):
        if not isinstance(asset.get("p"), str):
            continue
        if asset["p"].startswith("data:"):
            continue
        name = f"{asset.get('u') or ''}{asset['p']}".lstrip("/")
        embedded = files.get(name) or files.get(f"images/{asset['p']}")
        if embedded is not None:
            kind = _IMAGE_TYPES.get(name[name.rfind("."):].lower(), "image/png")
            asset["p"] = f"data:{kind};base64,{base64.b64encode(embedded).decode('ascii')}"
        else:
            dropped_images.append(asset["p"])
            asset["p"] = _EMPTY_PNG
        asset["u"], asset["e"] = "", 1
    dropped_fonts = []
    fonts = animation.get("fonts")
    for font in dicts(fonts.get("list")) if isinstance(fonts, dict) else []:
        where = font.get("fPath")
        if where and not (isinstance(where, str) and where[:5].lower() == "data:"):
            del font["fPath"]  # a file elsewhere; a font embedded as a data URI stays
            dropped_fonts.append(str(font.get("fFamily") or font.get("fName") or "a font"))
    notes = []
    if dropped_images:
        notes.append(f"{len(dropped_images)} image{'s' if len(dropped_images) > 1 else ''} "
                     f"kept in other files ({', '.join(dropped_images[:3])}"
                     f"{', ...' if len(dropped_images) > 3 else ''}; not drawn: footage is "
                     "the one file it names, so embed images in the .json or use a .lottie "
                     "archive)")
    if dropped_fonts:
        notes.append(f"font files ({', '.join(dropped_fonts[:3])}; text uses the glyphs the "
                     "file embeds, if any)")
    return json.dumps(animation, separators=(",", ":")).encode(), notes


def _from_archive(data: bytes) -> tuple[bytes, dict[str, bytes]]:
    """A dotLottie archive's first animation (its manifest's, else the first under
    animations/ or a/) and the other files in it, each read within the size limit."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = archive.namelist()
        total = sum(info.file_size for info in archive.infolist())
        if total > MAX_VECTOR_FOOTAGE_BYTES:
            raise LottieError(f"a .lottie archive within the limit (it unpacks to {total:,} "
                              f"bytes, over {MAX_VECTOR_FOOTAGE_BYTES:,})")
        animations = [n for n in names if n.endswith(".json")
                      and n.split("/")[0] in ("animations", "a")]
        manifest = _manifest(archive, names)
        first = next((f"{folder}/{entry}.json" for entry in manifest
                      for folder in ("animations", "a") if f"{folder}/{entry}.json" in names),
                     animations[0] if animations else None)
        if first is None:
            raise LottieError("a .lottie archive with an animation (it has no animations/*.json)")
        files = {name: archive.read(name) for name in names
                 if not name.endswith("/") and name != first}
        return archive.read(first), files
    except (zipfile.BadZipFile, OSError, EOFError, KeyError) as error:
        raise LottieError(f"a readable .lottie archive ({error})") from None


def _manifest(archive: zipfile.ZipFile, names: list[str]) -> list[str]:
    if "manifest.json" not in names:
        return []
    try:
        manifest = json.loads(archive.read("manifest.json"))
        return [str(entry["id"]) for entry in manifest.get("animations", [])
                if isinstance(entry, dict) and "id" in entry]
    except (ValueError, AttributeError, TypeError):
        return []
