"""Project commands: new, open, save, info, set (the project's colour management).

Opening or starting a project begins a fresh undo history, as any editor does; saving changes
nothing in the document, so it is not an undo step either.
"""

from __future__ import annotations

import os

from protocol.model.codec_options import CodecOptionRefused, check_codec_options
from protocol.model.document import dumps, new_document
from protocol.model.output_names import add_frame_fields
from supervisor.engine.commands.overview import project_info
from supervisor.engine.color_settings import checked_color_management
from supervisor.engine.commands.registry import READ_PATH, WRITE_PATH, command, formatted
from supervisor.errors import CommandError
from supervisor.engine.footage_probe import is_missing
from supervisor.engine.project_paths import for_saving, resolve_opened
from supervisor.engine.project_file import ProjectFileError, read_project, write_atomically


@command("project.new", "New project",
         "Start a new, empty project (no comps, no footage, an empty queue); the current one is "
         "closed without saving and the undo history starts afresh.",
         {"name": {"type": "string", "description": "the project's name (default Untitled)"}},
         kind="history")
def project_new(engine, params, work):
    engine.replace_document(new_document(params.get("name", "Untitled")), None)
    return project_info(engine)


@command("project.open", "Open project",
         "Open a saved project file (.rvproj); footage whose file is gone is listed by name in "
         "missingFootage rather than failing the open; queue items whose codecOptions will "
         "be refused at render, and image sequences given the frame number field their "
         "output lacked, are named in warnings.",
         {"path": formatted(READ_PATH, "the project file")}, required=("path",),
         kind="history", waits_on="probe")
def project_open(engine, params, work):
    engine.check_path(params["path"], "read")  # as given: confinement refuses relative paths
    path = os.path.abspath(params["path"])
    try:
        doc = resolve_opened(read_project(
            engine.probes, path, lambda real: engine.check_path(real, "read"),
            work.cancel if work is not None else None), path)
    except ProjectFileError as error:
        raise CommandError(str(error)) from None
    engine.replace_document(doc, path)
    info = project_info(engine)
    info["missingFootage"] = [f["name"] for f in doc["footage"] if is_missing(f)]
    warnings = add_frame_fields(doc) + refused_codec_options(doc)
    if warnings:
        info["warnings"] = warnings
    return info


def refused_codec_options(doc: dict) -> list[str]:
    """A sentence for each queue item whose stored codecOptions the render will refuse. The
    project still opens: the rest of it is fine, and renderQueue.set can mend the item."""
    warnings = []
    for item in doc["renderQueue"]:
        try:
            check_codec_options(item["format"], item["codecOptions"], item["id"])
        except CodecOptionRefused as error:
            warnings.append(f"{item['id']} will not render until renderQueue.set gives it "
                            f"other codecOptions: {error}")
    return warnings


@command("project.save", "Save project",
         "Save the project atomically (a temporary file, fsync, rename: the file on disk is "
         "always the old or the new project, never a broken one). Without path, saves where it "
         "was opened or last saved; with one, saves there and the project lives there from now "
         "on (relative render outputs resolve against its folder).",
         {"path": formatted(WRITE_PATH, "where to save (default: the project's own file)")},
         kind="read")
def project_save(engine, params, work):
    target = params.get("path")
    if target is None:
        if engine.project_path is None:
            raise CommandError("this project has never been saved, so project.save needs a path, "
                               "for example {\"path\": \"/abs/folder/project.rvproj\"}.")
        target = engine.project_path
    engine.check_path(target, "write")
    target = os.path.abspath(target)
    try:
        # The folder as opened is checked again: a link swapped in after the check above
        # saves nothing outside the roots (supervisor/confinement/checked_files.py).
        size = write_atomically(target, dumps(for_saving(engine.doc, target)),
                                verify=lambda real: engine.check_path(real, "write"))
    except ProjectFileError as error:
        raise CommandError(str(error)) from None
    engine.project_path = target
    engine.saved_revision = engine.revision
    return {"path": target, "bytes": size, "revision": engine.revision}


@command("project.info", "Project info",
         "The project's name, file, whether it has unsaved changes, its revision, counts of comps, "
         "footage and queue items, undo and redo depth, and any missing footage.",
         kind="read")
def project_information(engine, params, work):
    return project_info(engine)


@command("project.set", "Change the project",
         "Set the project's colour management: colorManagement {config, workingSpace} draws "
         "every comp in linear light in the working space of an OpenColorIO config and shows "
         "each output through a display and view (queue items' display and view); null goes "
         "back to the sRGB pipeline.",
         {"colorManagement": {
             "type": ["object", "null"],
             "description": "config: cg-config (default), studio-config, an ocio:// name "
                            "OpenColorIO lists, or the absolute path of a .ocio file; "
                            "workingSpace: a scene-linear space of it (default its scene_linear "
                            "role, ACEScg in the built-in configs)",
             "properties": {"config": {"type": "string"},
                            "workingSpace": {"type": "string"}},
             "additionalProperties": False}},
         required=("colorManagement",))
def project_set(engine, params, work):
    settings = checked_color_management(engine, params["colorManagement"])
    if settings is None:
        engine.doc.pop("colorManagement", None)
    else:
        engine.doc["colorManagement"] = settings
    return {**project_info(engine), "colorManagement": settings}
