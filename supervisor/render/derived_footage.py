"""render.preRender and file.createProxy: render a comp, import the result as footage, and
point the project at it, as one undo step.

- preRender: the comp rendered without its background (a precomp never draws its own), by
  default as an exact PNG sequence; every precomp layer showing the comp becomes a video
  layer showing the footage, which has the comp's size, so anchors and placement still hold.
- createProxy: the comp at half resolution, a PNG sequence set as the comp's `proxy`, which
  previews may draw instead of the comp.

Both are renders (the one-render-at-a-time rule applies, progress and cancel too). The render
works on a snapshot; the document is changed only after it finished, under the engine's lock,
and only if the comp is still there.
"""

from __future__ import annotations

import os
from typing import Any

from protocol.model.frame_spec import frames_of
from protocol.model.keyframes import frame_count
from protocol.model.output_formats import UnknownFormatError
from protocol.model.output_names import (OutputNameError, expand_comp_name, format_for_output,
                                   resolve_output)
from protocol.model.time_remap import TIME_CONTENT
from supervisor.engine.commands.footage import import_footage
from supervisor.engine.commands.lookup import find_comp
from supervisor.errors import CommandError
from supervisor.render.inputs import find_overwrite
from supervisor.render.plan import missing_footage, single_item_plan
from supervisor.work import Work

# Default outputs beside the project (the format adds its extension, a sequence its frame
# field): never the `[compName].ext` a queue item writes by default.
PRE_RENDER_OUTPUT = "[compName]_prerender"
PROXY_OUTPUT = "[compName]_proxy"
PROXY_SCALE = 0.5


def pre_render(service, engine, params: dict, work: Work | None) -> dict:
    output = params.get("output", PRE_RENDER_OUTPUT)
    fmt = params.get("format") or (None if "output" in params else "png")
    comp, path = _render(service, engine, params["comp"], output, fmt, work, transparent=True,
                         label="preRender", command="render.preRender",
                         advice="choose another output")

    def replace_uses(doc: dict, footage: dict) -> list[str]:
        replaced = []
        for other in doc["comps"]:
            for layer in other["layers"]:
                if layer["type"] == "precomp" and layer["content"]["source"] == comp["id"]:
                    layer["type"] = "video" if footage["kind"] != "image" else "image"
                    # The rendered comp has the precomp's timeline, so the layer's remapping,
                    # speed and loop still say which of its frames to show.
                    timing = {key: layer["content"][key] for key in TIME_CONTENT
                              if key in layer["content"] and layer["type"] == "video"}
                    layer["content"] = {"footage": footage["id"], **timing}
                    if layer["type"] == "image":
                        layer.pop("audio")  # a still is not heard (a video layer keeps it)
                    replaced.append(layer["id"])
        return replaced

    footage, replaced = _import(engine, comp, path, "render.preRender", replace_uses)
    return {"comp": comp["name"], "output": path, "footage": footage["id"],
            "replacedLayers": replaced}


def create_proxy(service, engine, params: dict, work: Work | None) -> dict:
    # createProxy takes no output, so the advice cannot be to choose another one.
    comp, path = _render(service, engine, params["comp"], PROXY_OUTPUT, "png", work,
                         scale=PROXY_SCALE, label="proxy", command="file.createProxy",
                         advice="re-link that footage with footage.replace, or remove it, "
                                "then make the proxy again", replaces_proxy=True)

    def set_proxy(doc: dict, footage: dict) -> None:
        next(c for c in doc["comps"] if c["id"] == comp["id"])["proxy"] = footage["id"]

    footage, _ = _import(engine, comp, path, "file.createProxy", set_proxy)
    return {"comp": comp["name"], "output": path, "footage": footage["id"],
            "width": footage["width"], "height": footage["height"]}


def _render(service, engine, comp_ref, output: str | None, fmt: str | None,
            work: Work | None, *,
            label: str, command: str, advice: str, scale: float = 1.0,
            transparent: bool = False, replaces_proxy: bool = False) -> tuple[dict, str]:
    """Render the whole comp to `output` as the one render; (comp, the output written).

    Never over one of the project's inputs (supervisor/render/inputs.py: refused naming `command`,
    with `advice`), except, with `replaces_proxy`, the comp's own proxy: making a proxy again
    replaces it, and no render reads a proxy (previews may; the next shows the new one)."""
    snapshot_id, document = engine.snapshot()
    comp = find_comp(document, comp_ref)
    try:
        fmt = format_for_output(output, fmt)
        path = expand_comp_name(resolve_output(output, fmt, engine.project_path,
                                               confined=engine.confined,
                                               working_directory=os.getcwd()), comp["name"])
    except (OutputNameError, UnknownFormatError) as error:
        raise CommandError(f"{error}.") from None
    engine.check_path(path, "write")
    missing = missing_footage(document, comp)
    if missing:
        raise CommandError(f"comp {comp['name']!r} uses footage that is missing: "
                           f"{', '.join(missing)}; re-link it with footage.replace first.")
    frames = frames_of(None, frame_count(comp["duration"], comp["frameRate"]))
    plan = single_item_plan(label, comp, fmt, path, frames, service.pool.capacity("render"),
                            scale=scale, transparent=transparent)
    spare = [comp["proxy"]] if replaces_proxy and comp.get("proxy") else []
    overwrite = find_overwrite(document, engine.project_path, plan.files(), spare)
    if overwrite is not None:
        raise CommandError(overwrite.sentence(command, advice))
    report = service.run_plans(engine, snapshot_id, document, [plan], work)
    entry = report["items"][0]
    if entry["status"] != "done":
        raise CommandError(entry.get("error") or f"the {label} render was stopped; nothing "
                           "was imported.")
    return comp, path


def _import(engine, comp: dict, path: str, label: str, change) -> tuple[dict, Any]:
    """Import the rendered file and apply `change(doc, footage)`: one undo step."""

    def imported() -> tuple[dict, Any]:
        if not any(c["id"] == comp["id"] for c in engine.doc["comps"]):
            raise CommandError(f"comp {comp['name']!r} was removed during the render; the "
                               f"output {path} is kept but was not imported.")
        footage, _new, _ = import_footage(engine, path, frame_rate=comp["frameRate"])
        return footage, change(engine.doc, footage)

    return engine.edit(label, imported)
