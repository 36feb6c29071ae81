"""Paths inside a saved project file are relative to the project's folder when they point into
it, so a project folder can be moved, copied or cloned from git and still find its footage and
write its outputs beside itself.

In memory every footage `path`, text `fontFile`, queue item `output` and footage template
param value (a param's default, a queue item's params) stays absolute
(docs/document.md), so nothing past project.open and project.save ever sees a relative path. On save, a path inside
the project's folder (or below it) is written relative to that folder; a path elsewhere stays
absolute, because "../../shots" would break as soon as the project file alone is moved. On open,
a relative path is resolved against the folder of the file being opened.

Pure: strings and dicts only; os.path is used for its string operations, never the disk.
"""

from __future__ import annotations

import json
import os


def path_fields(doc: dict):
    """(kind, container, key) for every path a document stores; kind is "footage", "footage
    param" (a footage param's default or a queue item's value for it), "output" or "font
    file"."""
    for footage in doc.get("footage", []):
        yield "footage", footage, "path"
    footage_params = [param for param in doc.get("params") or []
                      if isinstance(param, dict) and param.get("type") == "footage"]
    for param in footage_params:
        yield "footage param", param, "default"
    for item in doc.get("renderQueue", []):
        yield "output", item, "output"
        values = item.get("params")
        for param in footage_params if isinstance(values, dict) else ():
            yield "footage param", values, param.get("name")
    for comp in doc.get("comps", []):
        for layer in comp.get("layers", []):
            content = layer.get("content")
            if layer.get("type") == "text" and isinstance(content, dict) and "fontFile" in content:
                yield "font file", content, "fontFile"


def relative_inside(path: str, folder: str) -> str:
    """`path` relative to `folder` when it lies inside it, else `path` unchanged."""
    if not os.path.isabs(path):
        return path
    relative = os.path.relpath(os.path.normpath(path), folder)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return path
    return relative


def for_saving(doc: dict, project_path: str) -> dict:
    """A copy of `doc` with paths inside the project's folder made relative to it."""
    folder = os.path.dirname(os.path.abspath(project_path))
    saved = json.loads(json.dumps(doc))  # the engine's document stays as it is
    for _kind, holder, key in path_fields(saved):
        if isinstance(holder.get(key), str):
            holder[key] = relative_inside(holder[key], folder)
    return saved


def resolve_opened(doc: dict, project_path: str) -> dict:
    """`doc` (as read from `project_path`) with its relative paths made absolute, in place."""
    folder = os.path.dirname(os.path.abspath(project_path))
    for _kind, holder, key in path_fields(doc):
        value = holder.get(key)
        if isinstance(value, str) and value and not os.path.isabs(value):
            holder[key] = os.path.normpath(os.path.join(folder, value))
    return doc
