"""The files a project reads when it renders, and which of them this machine cannot read.

One list serves three questions a farm asks before work starts:
- `rendervisor render` and `watch`: can this node read everything the queued comps show? A
  file that is missing or unreadable is named before a single frame is drawn (exit 2), not
  found frame by frame while rendering;
- `rendervisor collect`: which files to copy beside the project so it renders elsewhere;
- `rendervisor collect --check`: which of them a node would miss.

The files: each footage item's (a sequence's frames, from its first frame for its frame
count), each text layer's font file, and each footage param's default and queue item's value
(the file a template row's footage is pointed at). A comp's inputs are those of its layers and,
through precomp layers, its precomps' too.

Reads no file's content: a file is opened without waiting and checked to be a regular file
(supervisor/confinement/checked_files.py), nothing more.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from protocol.model.layers import FOOTAGE_TYPES
from protocol.model.sequences import sequence_path
from supervisor.confinement.checked_files import NotRegularFile, open_regular
from supervisor.engine.project_paths import path_fields


@dataclass(frozen=True)
class InputFile:
    kind: str  # "footage", "font file", "footage param"
    owner: str  # who reads it, as a sentence names it: "footage 'plate'"
    path: str  # absolute; a sequence's `[####]` pattern
    frames: tuple[int, ...] = ()  # a sequence's frame numbers

    def files(self) -> list[str]:
        """The files on disk: a sequence's frames, else the path itself."""
        if self.frames:
            return [sequence_path(self.path, number) for number in self.frames]
        return [self.path]

    def problems(self) -> list[tuple[str, str]]:
        """(file, what is wrong with it) for each of its files this machine cannot read."""
        found = []
        for path in self.files():
            problem = unreadable(path)
            if problem is not None:
                found.append((path, problem))
        return found


def input_files(document: dict, comp_ids: list[str] | None = None) -> list[InputFile]:
    """The files `document` reads: all of them, or those the comps `comp_ids` (and their
    precomps) show. A file read by two owners is listed once, for the first."""
    footage = {item["id"]: item for item in document.get("footage", [])}
    found: dict[str, InputFile] = {}

    def add(entry: InputFile) -> None:
        found.setdefault(entry.path, entry)

    def footage_entry(item: dict) -> InputFile:
        frames = ()
        if item.get("kind") == "sequence":
            first = int(item.get("firstFrame", 0) or 0)
            frames = tuple(range(first, first + max(1, int(item.get("frameCount") or 1))))
        return InputFile("footage", f"footage {item['name']!r}", item["path"], frames)

    comps = used_comps(document, comp_ids)
    shown = {layer["content"].get("footage") for comp in comps for layer in comp["layers"]
             if layer["type"] in FOOTAGE_TYPES}
    for item in document.get("footage", []):
        if comp_ids is None or item["id"] in shown:
            add(footage_entry(item))
    for comp in comps:
        for layer in comp["layers"]:
            font_file = layer.get("content", {}).get("fontFile") if layer["type"] == "text" \
                else None
            if font_file:
                add(InputFile("font file", f"text layer {layer['name']!r} of comp "
                                           f"{comp['name']!r}", font_file))
    if comp_ids is None:
        for path, owner in footage_param_values(document):
            add(InputFile("footage param", owner, path))
    return list(found.values())


def used_comps(document: dict, comp_ids: list[str] | None) -> list[dict]:
    """The comps `comp_ids` and every comp they show through precomp layers, or every comp."""
    comps = {comp["id"]: comp for comp in document.get("comps", [])}
    if comp_ids is None:
        return list(comps.values())
    seen: dict[str, dict] = {}
    waiting = [comp_id for comp_id in comp_ids if comp_id in comps]
    while waiting:
        comp = comps[waiting.pop()]
        if comp["id"] in seen:
            continue
        seen[comp["id"]] = comp
        waiting.extend(layer["content"].get("source") for layer in comp["layers"]
                       if layer["type"] == "precomp"
                       and layer["content"].get("source") in comps)
    return list(seen.values())


def footage_param_values(document: dict) -> list[tuple[str, str]]:
    """(path, who holds it) for every footage param's default and queue item's value."""
    values = []
    for kind, holder, key in path_fields(document):
        value = holder.get(key)
        if kind == "footage param" and isinstance(value, str):
            values.append((value, f"the default of param {holder['name']!r}"
                           if key == "default" and "type" in holder
                           else f"param {key!r} of a queue item"))
    return values


def unreadable(path: str) -> str | None:
    """Why this machine cannot read the file at `path` ("it is missing", "it cannot be read
    (Permission denied)", "it is a folder, not a file"), or None when it can."""
    try:
        os.close(open_regular(path))
    except NotRegularFile as error:
        return f"it is {error.kind}, not a file"
    except FileNotFoundError:
        return "it is missing"
    except OSError as error:
        return f"it cannot be read ({error.strerror or error})"
    return None


@dataclass(frozen=True)
class Unreadable:
    """An input this machine cannot read: its first file that fails, and why."""
    entry: InputFile
    path: str
    problem: str  # "it is missing", "it cannot be read (Permission denied)"
    more: int = 0  # other frames of a sequence that fail too

    def __str__(self) -> str:
        more = f" (and {self.more} more of its frames)" if self.more else ""
        return f"{self.path} ({self.entry.owner}): {self.problem}{more}"


def missing_inputs(document: dict, comp_ids: list[str] | None = None) -> list[Unreadable]:
    """The inputs of the comps (or of the whole project) this machine cannot read, each saying
    the file, who reads it and why: `/shots/a.png (footage 'a'): it is missing`."""
    found = []
    for entry in input_files(document, comp_ids):
        problems = entry.problems()
        if problems:
            found.append(Unreadable(entry, *problems[0], more=len(problems) - 1))
    return found
