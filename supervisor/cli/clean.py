"""`rendervisor clean PROJECT [--output PATTERN]`: remove what renders of a project left beside
their outputs and nobody will use: the finished segments an interrupted video keeps for a
resume (supervisor/render/segment_cache.py), once nobody means to resume it, and the
temporaries a render killed outright left (`.NAME.TOKEN.part`, supervisor/render/leftovers.py).
A render that completes removes its own; this is for the ones that never will.

Looks beside every output of the project's queue, the default outputs of each comp (what
`render --comp` writes) and the `--output` pattern given (a farm's own, which the project does
not know); a field in a file name (`[####]`, `[param:NAME]`, `[row]`) matches any text there.
Removes only names shaped like a cached segment's folder and files or like a temporary of one
of those outputs: never a rendered output, a frame, or a file of anyone else's. Each folder is
opened once and everything in it is reached through that descriptor, never through a link.
"""

from __future__ import annotations

import os
import re

from protocol.model.output_formats import FORMATS
from protocol.model.output_names import (FIELD, OutputNameError, expand_comp_name,
                                         resolve_output)
from protocol.model.sequences import FRAME_FIELD
from supervisor.cli.project import open_engine
from supervisor.render.leftovers import sweep
from supervisor.render.segment_cache import CACHE_SUFFIX, remove_cache
from workers.exporter.output_folders import OutputFolder


def project_outputs(engine) -> list[str]:
    """The outputs the project's renders write: its queue's and its comps' defaults (less any
    whose comp name makes no file name: no render writes those)."""
    doc = engine.doc
    names = {comp["id"]: comp["name"] for comp in doc["comps"]}
    named = [(item["output"], names[item["comp"]]) for item in doc["renderQueue"]
             if item["comp"] in names]
    for fmt in FORMATS:
        default = resolve_output(None, fmt, engine.project_path, confined=False,
                                 working_directory=os.getcwd())
        named += [(default, name) for name in names.values()]
    outputs = []
    for pattern, comp_name in named:
        try:
            outputs.append(expand_comp_name(pattern, comp_name))
        except OutputNameError:
            continue
    return list(dict.fromkeys(outputs))


def name_matcher(name: str) -> re.Pattern:
    """A file name pattern as a regex: each field (`[####]`, `[param:NAME]`, `[row]`,
    `[compName]`) matches any text there, the rest itself."""
    fields = re.compile(f"{FRAME_FIELD.pattern}|{FIELD.pattern}")
    regex, position = "", 0
    for match in fields.finditer(name):
        regex += re.escape(name[position:match.start()]) + ".+"
        position = match.end()
    return re.compile("^" + regex + re.escape(name[position:]) + "$", re.DOTALL)


def clean_output(output: str) -> list[str]:
    """Remove what renders left beside `output` (a file or a pattern); a line for each kind
    of thing removed."""
    folder, name = os.path.split(os.path.abspath(output))
    if not os.path.isdir(folder):
        return []  # no such folder (or one a field names per row): nothing was left there
    held = OutputFolder.above(os.path.join(folder, name))
    try:
        matches = name_matcher(name)
        lines = []
        caches = [entry for entry in held.names(folder) if entry.startswith(".")
                  and entry.endswith(CACHE_SUFFIX) and matches.match(entry[1:-len(CACHE_SUFFIX)])]
        for cache in caches:
            removed = remove_cache(os.path.join(folder, cache[1:-len(CACHE_SUFFIX)]), held)
            if removed:
                lines.append(f"removed {removed} segment{'s' if removed > 1 else ''} from "
                             f"{os.path.join(folder, cache)}")
        removed = sweep(held, lambda owner: bool(matches.match(owner)))
        if removed:
            lines.append(f"removed {removed} temporar{'ies' if removed > 1 else 'y'} a killed "
                         f"render left beside {output}")
        return lines
    finally:
        held.close()


def run(args) -> int:
    engine = open_engine(args.project, "clean")
    outputs = project_outputs(engine)
    if args.output:
        outputs.append(os.path.abspath(args.output))  # as `render --output` means it
    lines = [line for output in dict.fromkeys(outputs) for line in clean_output(output)]
    for line in lines:
        print(line)
    if not lines:
        print(f"nothing to clean: no render of {engine.project_path} left segments or "
              "temporaries behind")
    return 0
