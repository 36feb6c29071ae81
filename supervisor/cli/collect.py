"""`rendervisor collect PROJECT DIR`: the project and every file it reads copied into DIR, paths
rewritten to point there (After Effects' Collect Files), so a job ships to render nodes as one
folder, without a shared mount. `rendervisor collect PROJECT --check`: what a node given the
project's folder alone would miss.

    DIR/NAME.rvproj          the project, its paths relative to DIR (project.save's own rule)
    DIR/footage/NAME         each footage file, and each footage param's file
    DIR/footage/FOLDER/...   an image sequence's frames, in a folder of their own
    DIR/fonts/NAME           each text layer's font file

The files are the render's inputs (supervisor/engine/input_files.py: footage, a sequence's
frames, font files, footage param values). Captions need no file: captions.import put their
text into the project. Outputs stored inside the project's folder stay where they are relative
to it, so a collected project renders into its own folder; outputs elsewhere are left as they
are (a farm's shared output folder).

Nothing is half-copied: every file goes through a temporary name and a rename, and the project
is written last, so a DIR holding the project holds everything it needs. A file missing here
stops the collect before anything is copied, naming each (exit 2). Two files of one name get
`_2`, `_3`... Reads bytes and copies them; parses nothing.
"""

from __future__ import annotations

import os
import shutil

from supervisor.cli.project import open_engine
from supervisor.confinement.checked_files import open_regular
from supervisor.engine.input_files import InputFile, input_files, missing_inputs
from supervisor.engine.project_paths import path_fields, relative_inside
from supervisor.errors import CommandError, UsageError

EXIT_OK, EXIT_MISSING = 0, 1
FOLDERS = {"footage": "footage", "footage param": "footage", "font file": "fonts"}


def run(args) -> int:
    engine = open_engine(args.project, "collect")
    if args.check:
        return check(engine)
    if args.dir is None:
        raise UsageError("rendervisor collect: name the folder to collect into (rendervisor "
                         "collect PROJECT DIR), or give --check to list what a node would "
                         "miss.")
    target = os.path.abspath(args.dir)
    source_folder = os.path.dirname(engine.project_path)
    if target == source_folder:
        raise UsageError(f"rendervisor collect: {args.dir} is the project's own folder; "
                         "collect into a new folder.")
    if os.path.isdir(target) and os.listdir(target):
        raise UsageError(f"rendervisor collect: {args.dir} is not empty; collect into a new "
                         "or empty folder, so nothing there is overwritten or mistaken for "
                         "part of the job.")
    problems = missing_inputs(engine.doc)
    if problems:
        raise UsageError(f"rendervisor collect: {len(problems)} file"
                         f"{'s' if len(problems) > 1 else ''} the project uses cannot be "
                         f"copied: {'; '.join(map(str, problems))}. Put them back or point the "
                         "project at them; nothing was collected.")
    inputs = input_files(engine.doc)
    placed = places(inputs, target)
    copied = 0
    try:
        for entry in inputs:
            for source, destination in zip(entry.files(), placed[entry.path][1]):
                copied += copy_file(source, destination)
    except OSError as error:
        raise UsageError(f"rendervisor collect: cannot copy into {args.dir} "
                         f"({error.strerror or error}: {error.filename}); free space or fix "
                         "the folder, then collect again into an empty folder.") from None
    project = os.path.join(target, os.path.basename(engine.project_path))
    engine.edit_quietly(lambda doc: repoint(doc, {path: new for path, (new, _) in
                                                  placed.items()}, source_folder, target))
    try:
        engine.run("project.save", {"path": project})
    except CommandError as error:
        raise UsageError(f"rendervisor collect: {error}") from None
    for entry in inputs:
        count = len(entry.files())
        files = f" ({count} files)" if count > 1 else ""
        print(f"{entry.kind:<13} {entry.owner}{files}  "
              f"{os.path.relpath(placed[entry.path][0], target)}")
    print(f"collected {project}: {sum(len(entry.files()) for entry in inputs)} files, "
          f"{copied / 1e6:.1f} MB; render it with rendervisor render {project}")
    return EXIT_OK


def places(inputs: list[InputFile], target: str) -> dict[str, tuple[str, list[str]]]:
    """Input path -> (its new path, each of its files' new paths), names made unique."""
    taken: set[str] = set()
    placed = {}
    for entry in inputs:
        folder = os.path.join(target, FOLDERS[entry.kind])
        if entry.frames:
            # A sequence's frames keep their names, in a folder named after theirs.
            home = unique(os.path.join(folder, os.path.basename(os.path.dirname(entry.path))
                                       or "sequence"), taken)
            new = os.path.join(home, os.path.basename(entry.path))
            placed[entry.path] = (new, [os.path.join(home, os.path.basename(path))
                                        for path in entry.files()])
        else:
            new = unique(os.path.join(folder, os.path.basename(entry.path)), taken)
            placed[entry.path] = (new, [new])
    return placed


def unique(path: str, taken: set[str]) -> str:
    stem, extension = os.path.splitext(path)
    candidate, number = path, 1
    while candidate in taken:
        number += 1
        candidate = f"{stem}_{number}{extension}"
    taken.add(candidate)
    return candidate


def copy_file(source: str, destination: str) -> int:
    """Copy through a temporary and a rename; the bytes copied."""
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    temporary = destination + ".part"
    with os.fdopen(open_regular(source), "rb") as reader, open(temporary, "xb") as writer:
        shutil.copyfileobj(reader, writer, 1 << 20)
        size = writer.tell()
    shutil.copystat(source, temporary)
    os.replace(temporary, destination)
    return size


def repoint(doc: dict, moved: dict[str, str], source_folder: str, target: str) -> None:
    """Every input path to its copy; every output inside the old folder to the same place
    inside the new one."""
    for kind, holder, key in path_fields(doc):
        value = holder.get(key)
        if not isinstance(value, str):
            continue
        if kind == "output":
            inside = relative_inside(value, source_folder)
            if not os.path.isabs(inside):
                holder[key] = os.path.join(target, inside)
        elif value in moved:
            holder[key] = moved[value]


def check(engine) -> int:
    """One line per file a node given the project's folder alone would miss: one outside that
    folder, or missing here; the count last. Exit 1 when there is any."""
    folder = os.path.dirname(engine.project_path)
    missing = {problem.entry.path: problem for problem in missing_inputs(engine.doc)}
    lines = []
    for entry in input_files(engine.doc):
        if entry.path in missing:
            lines.append(f"missing  {missing[entry.path]}")
        elif os.path.isabs(relative_inside(entry.path, folder)):
            lines.append(f"outside  {entry.path} ({entry.owner}): outside the project's "
                         f"folder {folder}")
    for line in lines:
        print(line)
    if lines:
        print(f"{len(lines)} of the project's inputs would be missing on a node given {folder}"
              f"; rendervisor collect {engine.project_path} DIR gathers them into DIR.")
        return EXIT_MISSING
    print(f"everything the project reads is inside {folder}: a node given that folder has "
          "it all.")
    return EXIT_OK
