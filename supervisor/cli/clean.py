"""`rendervisor clean PROJECT`: remove the finished segments that interrupted video renders of
a project left beside their outputs (supervisor/render/segment_cache.py), once nobody means to
resume them. A render that completes removes its own; this is for the ones that never will.

Looks beside every video output of the project's queue and beside the default output of each
comp (`[compName].mp4` and the other video formats' names, what `render --comp` writes); never
touches a rendered output, a frame, or a file not named as a cached segment.
"""

from __future__ import annotations

import os

from protocol.model.output_formats import FORMATS, output_format
from protocol.model.output_names import OutputNameError, expand_comp_name, resolve_output
from supervisor.cli.project import open_engine
from supervisor.render.segment_cache import cache_folder, remove_cache


def video_outputs(engine) -> list[str]:
    """The video files the project's renders write: its queue's and its comps' defaults
    (less any whose comp name makes no file name: no render writes those)."""
    doc = engine.doc
    names = {comp["id"]: comp["name"] for comp in doc["comps"]}
    named = [(item["output"], names[item["comp"]])
             for item in doc["renderQueue"] if not output_format(item["format"]).is_sequence]
    for fmt in (name for name, spec in FORMATS.items() if not spec.is_sequence):
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


def run(args) -> int:
    engine = open_engine(args.project, "clean")
    cleaned = False
    for output in video_outputs(engine):
        removed = remove_cache(output)
        if removed:
            cleaned = True
            print(f"removed {removed} segment{'s' if removed > 1 else ''} from "
                  f"{cache_folder(output)}")
    if not cleaned:
        print(f"nothing to clean: no video of {engine.project_path} left segments behind")
    return 0
