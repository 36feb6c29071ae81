"""Summaries of the project for people and agents: what doc_inspect, project.info, comp.list,
layer.list, footage.list and renderQueue.list return.

A summary says what is there and what is wrong (missing footage, by name) without the full
document's bulk; an agent that needs every value reads a property with prop.get.
"""

from __future__ import annotations

from protocol.model.audio import (MASTER_BUS, SOUNDING_TYPES, comp_has_sound, item_has_sound,
                                  sample_rate)
from protocol.model.keyframes import frame_count, is_animated, static_value
from supervisor.engine.font_warnings import font_warnings
from supervisor.engine.footage_probe import is_missing


def project_info(engine) -> dict:
    doc = engine.doc
    missing = [f["name"] for f in doc["footage"] if is_missing(f)]
    info = {"name": doc["name"], "path": engine.project_path, "modified": engine.modified,
            "revision": engine.revision, "version": doc["version"], "comps": len(doc["comps"]),
            "footage": len(doc["footage"]), "renderQueue": len(doc["renderQueue"]),
            "undo": len(engine.history()["undo"]), "redo": len(engine.history()["redo"])}
    if missing:
        info["missingFootage"] = missing
    if doc.get("colorManagement"):
        info["colorManagement"] = doc["colorManagement"]
    return info


def document_overview(engine) -> dict:
    """doc_inspect: the project, then every comp with its layers, footage and the queue, and
    the text layers drawn with a fallback font (fontFallbacks), if any."""
    doc = engine.doc
    overview = {
        "project": project_info(engine),
        "comps": [comp_summary(comp, with_layers=True, document=doc) for comp in doc["comps"]],
        "footage": [footage_summary(f) for f in doc["footage"]],
        "renderQueue": [item_summary(engine, item) for item in doc["renderQueue"]],
    }
    fallbacks = [{"comp": comp["id"], "layer": layer["id"], "name": layer["name"],
                  "warnings": warnings}
                 for comp in doc["comps"] for layer in comp["layers"]
                 if layer["type"] == "text"
                 and (warnings := font_warnings(engine.probes, layer["content"]))]
    if fallbacks:
        overview["fontFallbacks"] = fallbacks
    return overview


def comp_summary(comp: dict, with_layers: bool = False, document: dict | None = None) -> dict:
    """A comp's settings; with `document`, whether anything in it can be heard (`sound`)."""
    summary = {"id": comp["id"], "name": comp["name"], "width": comp["width"],
               "height": comp["height"], "frameRate": comp["frameRate"],
               "duration": comp["duration"],
               "frames": frame_count(comp["duration"], comp["frameRate"]),
               "background": comp["background"], "layerCount": len(comp["layers"])}
    if "audioSampleRate" in comp:
        summary["audioSampleRate"] = sample_rate(comp)
    summary.update({key: comp[key] for key in MASTER_BUS if key in comp})
    if document is not None:
        summary["sound"] = comp_has_sound(document, comp)
    if comp.get("motionBlur", {}).get("enabled"):
        summary["motionBlur"] = comp["motionBlur"]
    if comp.get("proxy"):
        summary["proxy"] = comp["proxy"]
    if comp.get("scenes"):
        summary["scenes"] = len(comp["scenes"])
    if comp.get("markers"):
        summary["markers"] = [{"id": m["id"], "name": m["name"], "time": m["time"]}
                              for m in comp["markers"]]
    if with_layers:
        summary["layers"] = [layer_summary(comp, layer) for layer in comp["layers"]]
    return summary


def layer_summary(comp: dict, layer: dict) -> dict:
    summary = {"index": comp["layers"].index(layer) + 1, "id": layer["id"],
               "name": layer["name"], "type": layer["type"]}
    if not layer["enabled"]:
        summary["enabled"] = False
    summary["inPoint"], summary["outPoint"] = layer["inPoint"], layer["outPoint"]
    for key, plain in (("startTime", 0.0), ("parent", None), ("blendMode", "normal"),
                       ("trackMatte", None), ("autoOrient", False)):
        if layer.get(key, plain) != plain:
            summary[key] = layer[key]
    summary["transform"] = {key: _shown(value) for key, value in layer["transform"].items()}
    if layer["content"]:
        summary["content"] = {key: _shown(value) for key, value in layer["content"].items()}
    if layer["type"] in SOUNDING_TYPES:
        summary["audio"] = {key: _shown(value) for key, value in layer["audio"].items()}
    if layer["effects"]:
        summary["effects"] = [{"id": fx["id"], "effect": fx["effect"],
                               **({} if fx["enabled"] else {"enabled": False})}
                              for fx in layer["effects"]]
    if layer.get("markers"):
        summary["markers"] = [{"id": m["id"], "name": m["name"], "time": m["time"]}
                              for m in layer["markers"]]
    if layer.get("expressions"):
        summary["expressions"] = dict(layer["expressions"])
    if layer.get("masks"):
        summary["masks"] = [{"id": mask["id"], "name": mask["name"], "mode": mask["mode"],
                             **({"inverted": True} if mask["inverted"] else {})}
                            for mask in layer["masks"]]
    return summary


def _shown(value):
    """A static value as it is; an animated one as its first value and key count."""
    if is_animated(value):
        return {"animated": len(value["keys"]), "first": static_value(value)}
    return value


def footage_summary(footage: dict) -> dict:
    summary = dict(footage)
    if is_missing(footage):
        summary["missing"] = True
    return summary


def item_summary(engine, item: dict) -> dict:
    comp = next((c for c in engine.doc["comps"] if c["id"] == item["comp"]), None)
    summary = {"index": engine.doc["renderQueue"].index(item) + 1, **item,
               "compName": comp["name"] if comp else None}
    if comp is not None:  # its sound as it will render, the default worked out
        summary["audio"] = item_has_sound(engine.doc, item, comp)
    # Progress is runtime state (0..1), kept by the render service outside the document.
    summary["progress"] = engine.item_progress.get(item["id"],
                                                   1.0 if item["status"] == "done" else 0.0)
    return summary
