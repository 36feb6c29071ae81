"""A comp as a Lottie animation (docs/interchange.md, "Lottie" has the table of what maps).

    comp ──► {v, fr, ip, op, w, h, layers, assets, markers}
             layers: one per rendervisor layer, top first, as both order them; the comp's
             background a solid at the bottom; a precomp's source comp an asset of its own
             (its background left out, as a precomp never draws it); an image an embedded PNG

Transforms map one to one (anchor, position with its motion path's tangents, scale in percent,
rotation in degrees clockwise, opacity in percent), as do in and out points, start times,
parents, blend modes, track mattes and masks. Shapes, solids and text become shape layers
(workers/interchange/lottie_shapes.py); key times and eases are workers/interchange/lottie_values.py's.
What Lottie cannot hold (effects, video, sound, a mask's feather) is left out and named in the
warnings. The file is written whole under a temporary name, then renamed into place.
"""

from __future__ import annotations

import base64
import json
import os

import skia

from protocol.model.colors import normalize_color
from protocol.model.keyframes import frame_count, is_animated, static_value, value_at
from workers.exporter import OpenedFiles
from workers.exporter.atomic_files import publish, temporary_path
from workers.interchange.lottie_shapes import (bezier_shape, color_rgb, outline_items,
                                               paint_items, text_items)
from workers.interchange.lottie_values import Timing, animated

LOTTIE_VERSION = "5.7.0"
# Lottie's blend modes by number, as rendervisor names them.
BLEND_MODES = {"normal": 0, "multiply": 1, "screen": 2, "overlay": 3, "darken": 4,
               "lighten": 5, "difference": 10, "add": 16}
MATTES = {"alpha": 1, "alphaInverted": 2, "luma": 3, "lumaInverted": 4}
MASK_MODES = {"add": "a", "subtract": "s", "intersect": "i", "difference": "f", "none": "n"}
LAYER_KINDS = {"precomp": 0, "image": 2, "null": 3, "shape": 4}


def write_lottie(doc: dict, comp: dict, path: str) -> dict:
    """Write `comp` as a Lottie file at `path`; {path, layers, assets, warnings}."""
    warnings: list[str] = []
    animation = lottie_animation(doc, comp, warnings)
    opened = OpenedFiles()
    temporary = temporary_path(path, "lottie")
    opened.add(temporary)
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(animation, handle, separators=(",", ":"), allow_nan=False)
        publish(temporary, path, opened)
    except BaseException:
        opened.remove_all()
        raise
    return {"path": path, "layers": len(animation["layers"]),
            "assets": len(animation["assets"]), "warnings": warnings}


def lottie_animation(doc: dict, comp: dict, warnings: list[str]) -> dict:
    rate = float(comp["frameRate"])
    writer = _Writer(doc, warnings)
    layers = writer.layers(comp)
    background = normalize_color(comp.get("background", [0, 0, 0, 1]))
    if background[3] > 0:
        layers.append(_background(comp, background, len(layers) + 1))
    return {"v": LOTTIE_VERSION, "nm": comp["name"], "fr": rate, "ip": 0,
            "op": frame_count(comp["duration"], rate), "w": int(comp["width"]),
            "h": int(comp["height"]), "ddd": 0, "assets": writer.assets, "layers": layers,
            "markers": [{"tm": marker["time"] * rate, "cm": marker["name"],
                         "dr": marker["duration"] * rate} for marker in comp["markers"]]}


def _background(comp: dict, color: list, index: int) -> dict:
    width, height = float(comp["width"]), float(comp["height"])
    rect = {"ty": "sh", "nm": "Frame", "ks": {"a": 0, "k": bezier_shape({
        "points": [[0, 0], [width, 0], [width, height], [0, height]],
        "inTangents": [[0, 0]] * 4, "outTangents": [[0, 0]] * 4, "closed": True})}}
    fill = {"ty": "fl", "nm": "Fill", "r": 1, "c": {"a": 0, "k": color_rgb(color)},
            "o": {"a": 0, "k": color[3] * 100}}
    return {"ty": 4, "nm": "Background", "ind": index, "ip": 0,
            "op": frame_count(comp["duration"], comp["frameRate"]), "st": 0, "sr": 1,
            "ks": _still_transform(), "ao": 0, "bm": 0, "ddd": 0, "shapes": [rect, fill]}


def _still_transform() -> dict:
    return {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]},
            "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}


class _Writer:
    """Layers of one comp and, as precomps need them, the assets of others."""

    def __init__(self, doc: dict, warnings: list[str]) -> None:
        self.doc = doc
        self.warnings = warnings
        self.assets: list[dict] = []
        self._comps = {c["id"]: c for c in doc["comps"]}
        self._footage = {f["id"]: f for f in doc["footage"]}
        self._done: set[str] = set()

    def layers(self, comp: dict) -> list[dict]:
        """The comp's layers, one entry each: a layer whose content Lottie cannot hold is a
        null, so the layers parented to it still move with it."""
        index = {layer["id"]: number for number, layer in enumerate(comp["layers"], 1)}
        written, left_out = [], set()
        for number, layer in enumerate(comp["layers"], 1):
            where = f"layer {layer['name']!r} of comp {comp['name']!r}"
            body = self._content(comp, layer, where)
            if body is None:
                left_out.add(layer["id"])
                body = {"ty": LAYER_KINDS["null"]}
            written.append(self._layer(comp, layer, number, index, body, where))
        self._mark_mattes(comp, written, left_out)
        return written

    def _mark_mattes(self, comp: dict, written: list[dict], left_out: set[str]) -> None:
        """The layer above a matted one is its matte: `td` on it, as Lottie wants; a matte
        that was left out leaves its layer unmatted."""
        layers = comp["layers"]
        for position, layer in enumerate(layers):
            if not layer.get("trackMatte") or position == 0:
                continue
            above = layers[position - 1]
            if above["id"] in left_out:
                written[position].pop("tt", None)
                self.warnings.append(f"layer {layer['name']!r} of comp {comp['name']!r} is "
                                     f"written without its track matte: its matte "
                                     f"{above['name']!r} is not in the file")
            else:
                written[position - 1]["td"] = 1

    def _layer(self, comp: dict, layer: dict, number: int, index: dict, body: dict,
               where: str) -> dict:
        rate = float(comp["frameRate"])
        timing = Timing(rate)
        entry = {"nm": layer["name"], "ind": number, "ddd": 0,
                 "ip": layer["inPoint"] * rate, "op": layer["outPoint"] * rate,
                 "st": layer["startTime"] * rate, "sr": 1,
                 "ks": self._transform(layer, timing), "ao": int(bool(layer.get("autoOrient"))),
                 "bm": BLEND_MODES[layer.get("blendMode", "normal")], **body}
        if not layer.get("enabled", True):
            entry["hd"] = True
        if layer.get("parent") in index:
            entry["parent"] = index[layer["parent"]]
        if layer.get("trackMatte"):
            entry["tt"] = MATTES[layer["trackMatte"]]
        masks = [self._mask(mask, timing, where) for mask in layer.get("masks", [])]
        if masks:
            entry["hasMask"], entry["masksProperties"] = True, masks
        effects = [effect["effect"] for effect in layer["effects"]
                   if effect.get("enabled", True)]
        if effects:
            self.warnings.append(f"{where}: its effects ({', '.join(effects)}) are not in "
                                 "Lottie files and were left out")
        return entry

    def _transform(self, layer: dict, timing: Timing) -> dict:
        transform = layer["transform"]
        return {"a": animated(transform["anchor"], timing, list),
                "p": animated(transform["position"], timing, list, spatial=True),
                "s": animated(transform["scale"], timing, list),
                "r": animated(transform["rotation"], timing),
                "o": animated(transform["opacity"], timing)}

    def _mask(self, mask: dict, timing: Timing, where: str) -> dict:
        if is_animated(mask.get("feather")) or static_value(mask.get("feather", 0)):
            self.warnings.append(f"{where}: mask {mask['name']!r} is written without its "
                                 "feather (Lottie players draw feathered masks unevenly)")
        return {"nm": mask["name"], "mode": MASK_MODES[mask["mode"]],
                "inv": bool(mask.get("inverted")),
                "pt": animated(mask["path"], timing, bezier_shape),
                "o": animated(mask.get("opacity", 100), timing),
                "x": animated(mask.get("expansion", 0), timing)}

    def _content(self, comp: dict, layer: dict, where: str) -> dict | None:
        """The type-specific part of the layer, or None (with a warning) when Lottie cannot
        hold it."""
        kind = layer["type"]
        content = layer["content"]
        timing = Timing(float(comp["frameRate"]))
        if kind == "null":
            return {"ty": LAYER_KINDS["null"]}
        if kind == "solid":
            shape = {"shape": "rect", "fill": content["color"], "stroke": None,
                     "size": _solid_size(content)}
            outline = outline_items("rect", shape, timing, self.warnings, where)
            return {"ty": LAYER_KINDS["shape"],
                    "shapes": paint_items(shape, outline, timing, self.warnings, where)}
        if kind == "shape":
            outline = outline_items(content["shape"], content, timing, self.warnings, where)
            return {"ty": LAYER_KINDS["shape"],
                    "shapes": paint_items(content, outline, timing, self.warnings, where)}
        if kind == "text":
            return {"ty": LAYER_KINDS["shape"],
                    "shapes": text_items(content, timing, self.warnings, where)}
        if kind == "precomp":
            return self._precomp(comp, layer, where)
        if kind == "image":
            return self._image(layer, where)
        what = {"video": "video", "audio": "sound", "lottie": "a Lottie layer's animation"}
        self.warnings.append(f"{where}: {what.get(kind, kind)} cannot be held in a Lottie file "
                             "and was left out (the layer is a null there)")
        return None

    def _precomp(self, comp: dict, layer: dict, where: str) -> dict:
        source = self._comps[layer["content"]["source"]]
        if source["id"] not in self._done:
            self._done.add(source["id"])
            self.assets.append({"id": source["id"], "nm": source["name"],
                                "fr": float(source["frameRate"]),
                                "layers": self.layers(source)})
        content = layer["content"]
        body = {"ty": LAYER_KINDS["precomp"], "refId": source["id"],
                "w": int(source["width"]), "h": int(source["height"])}
        speed = float(content.get("speed", 100))
        if content.get("loop"):
            self.warnings.append(f"{where}: a looped precomp plays once in a Lottie file")
        remap = content.get("timeRemap")
        if static_value(remap) is not None or is_animated(remap):
            body["tm"] = animated(remap, Timing(float(comp["frameRate"])))
        elif speed != 100:
            if speed <= 0:
                self.warnings.append(f"{where}: a precomp played backwards or frozen plays "
                                     "forwards in a Lottie file")
            else:
                body["sr"] = 100 / speed  # Lottie stretches time: 2 plays at half speed
        if float(source["frameRate"]) != float(comp["frameRate"]):
            self.warnings.append(f"{where}: its comp runs at {source['frameRate']:g} fps inside "
                                 f"one of {comp['frameRate']:g} fps; Lottie counts both in the "
                                 "outer rate, so keys of the inner comp may land between frames")
        return body

    def _image(self, layer: dict, where: str) -> dict | None:
        footage = self._footage.get(layer["content"]["footage"])
        if footage is None or footage["kind"] != "image":
            self.warnings.append(f"{where}: only still images can be embedded in a Lottie file"
                                 "; it was left out")
            return None
        image = skia.Image.open(footage["path"]) if os.path.isfile(footage["path"]) else None
        if image is None:
            self.warnings.append(f"{where}: its image {footage['path']} could not be read; it "
                                 "was left out")
            return None
        data = bytes(image.encodeToData(skia.kPNG, 100))
        asset_id = f"image_{footage['id']}"
        if asset_id not in self._done:
            self._done.add(asset_id)
            self.assets.append({"id": asset_id, "w": image.width(), "h": image.height(),
                                "u": "", "e": 1,
                                "p": "data:image/png;base64," + base64.b64encode(data).decode()})
        return {"ty": LAYER_KINDS["image"], "refId": asset_id}


def _solid_size(content: dict) -> object:
    """A solid's [width, height] as one property (keyed where either is)."""
    width, height = content["width"], content["height"]
    if not is_animated(width) and not is_animated(height):
        return [width, height]
    source = width if is_animated(width) else height
    return {"keys": [{**key, "value": [value_at(width, key["time"]),
                                       value_at(height, key["time"])]}
                     for key in source["keys"]]}

