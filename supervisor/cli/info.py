"""`rendervisor info PROJECT [--json]`: what a project holds, for an operator planning farm
tasks without opening it elsewhere: its comps (size, frame rate, duration, frame count), its
footage (missing files marked), its template params (what `--set` and `--data` may give) and
its render queue (each item's index, as `render --item` takes it, comp, output, format and the
frames it renders). Reads the project; never writes it.
"""

from __future__ import annotations

import json

from protocol.model.frame_spec import FrameSpecError, frames_of
from protocol.model.keyframes import frame_count
from supervisor.cli.project import open_engine
from supervisor.engine.footage_probe import is_missing


def project_listing(engine) -> dict:
    doc = engine.doc
    comps = {comp["id"]: comp for comp in doc["comps"]}
    return {
        "project": engine.project_path, "name": doc["name"],
        "comps": [{"name": comp["name"], "id": comp["id"], "width": comp["width"],
                   "height": comp["height"], "frameRate": comp["frameRate"],
                   "duration": comp["duration"],
                   "frameCount": frame_count(comp["duration"], comp["frameRate"])}
                  for comp in doc["comps"]],
        "footage": [{"name": footage["name"], "id": footage["id"], "kind": footage["kind"],
                     "path": footage["path"], "missing": is_missing(footage)}
                    for footage in doc["footage"]],
        "params": [{key: param[key] for key in ("name", "type", "default", "required",
                                                "description")}
                   for param in engine.run("template.list", {})["params"]],
        "renderQueue": [item_listing(index, item, comps.get(item["comp"]))
                        for index, item in enumerate(doc["renderQueue"], 1)],
    }


def item_listing(index: int, item: dict, comp: dict | None) -> dict:
    listing = {"index": index, "id": item["id"], "comp": comp["name"] if comp else None,
               "output": item["output"], "format": item["format"], "frames": item["frames"],
               "frameCount": None, "status": item["status"]}
    for key in ("skipExisting", "startNumber", "resume"):
        if item.get(key):
            listing[key] = item[key]
    if comp is not None:
        try:
            count = frame_count(comp["duration"], comp["frameRate"])
            listing["frameCount"] = len(frames_of(item["frames"], count))
        except FrameSpecError as error:
            listing["problem"] = str(error)  # the render refuses it with this sentence
    return listing


def print_listing(listing: dict) -> None:
    print(f"project {listing['project']}")
    print(f"comps ({len(listing['comps'])}):")
    for comp in listing["comps"]:
        print(f"  {comp['name']}  {comp['width']}x{comp['height']}  {comp['frameRate']:g} fps  "
              f"{comp['duration']:g} s  {comp['frameCount']} frames (0-{comp['frameCount'] - 1})")
    print(f"footage ({len(listing['footage'])}):")
    for footage in listing["footage"]:
        mark = "  MISSING" if footage["missing"] else ""
        print(f"  {footage['name']}  {footage['kind']}  {footage['path']}{mark}")
    print(f"params ({len(listing['params'])}):")
    for param in listing["params"]:
        given = "required" if param["required"] else f"default {json.dumps(param['default'])}"
        print(f"  {param['name']}  {param['type']}  {given}"
              + (f"  {param['description']}" if param["description"] else ""))
    print(f"render queue ({len(listing['renderQueue'])}):")
    for item in listing["renderQueue"]:
        frames = item["frames"] or "all"
        count = "?" if item["frameCount"] is None else item["frameCount"]
        extras = "".join(f"  {key} {item[key]}" for key in ("startNumber", "skipExisting")
                         if key in item)
        print(f"  {item['index']}. {item['id']}  {item['comp']}  {item['format']}  {item['output']}  frames {frames} "
              f"({count} frames)  {item['status']}{extras}")
        if "problem" in item:
            print(f"     {item['problem']}")


def run(args) -> int:
    listing = project_listing(open_engine(args.project, "info"))
    if args.json:
        print(json.dumps(listing, indent=2))
    else:
        print_listing(listing)
    return 0
