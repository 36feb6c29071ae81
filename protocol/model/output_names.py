"""Output names of render queue items: resolving, default naming and numbering, and the clash
check that refuses a render whose outputs would overwrite each other.

The rules are docs/outputs.md's, "Names: defaults, numbering, clashes":
- `[compName]` is the comp's name; `[####]` the frame number padded to the count of `#`;
  `[param:NAME]` a template param's value for the item (its params over the defaults,
  protocol/model/template_params.py); `[row]` the number of the `--data` row the item renders
  (from 1), which the command line fills in, and 1 anywhere else.
  A sequence output without `[#...]` gets `_[#####]` before its extension.
- Relative outputs resolve against the saved project's folder; an unsaved project has none,
  so it needs an absolute output while confined, and uses the working directory otherwise.
- A default output is `[compName].ext` there, numbered (`Main_1.mp4`, `Main_2.mp4`) when
  another queue item writes that file. Files are what is compared, so two sequences clash
  only on frames both write: two stills of one comp at different times keep their names.
  A name a caller gave, or one already stored, is never changed.
- One render refuses outputs that still name one file, naming both items, except where the
  later item has skipExisting (it leaves the earlier item's frames alone).

Pure: strings in, strings out. Nothing here looks at the disk (os.path is used only for its
string operations), so the supervisor can decide before any worker writes a byte.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable

from protocol.model.frame_spec import frames_of
from protocol.model.keyframes import frame_count
from protocol.model.output_formats import DEFAULT_FORMAT, format_for_extension, output_format
from protocol.model.sequences import FRAME_FIELD, is_pattern, sequence_path
from protocol.model.template_params import item_fields

COMP_NAME_FIELD = "[compName]"
DEFAULT_FRAME_FIELD = "[#####]"
PARAM_FIELD = re.compile(r"\[param:([^\]]*)\]")
ROW_FIELD = "[row]"


class OutputNameError(ValueError):
    """An output that cannot be used as given; the message says why and what to do."""


# --- patterns ---------------------------------------------------------------------------------

# A file or folder name may hold at most NAME_BYTES bytes of UTF-8 (NAME_MAX on Linux file
# systems). An output's own file name must leave TEMPORARY_ROOM of them for the temporaries a
# render writes beside it (`.NAME.seg000030.3f9a1c0e22b4.part` is 29 more:
# workers/exporter/atomic_files.py), or a frame drawn in full would fail as it is written.
NAME_BYTES = 255
TEMPORARY_ROOM = 32
# A frame number field is measured at its widest: more digits than any comp has frames.
WIDEST_FRAME_NUMBER = 10
FIELD = re.compile(r"\[compName\]|\[param:([^\]]*)\]|\[row\]")


def field_text(value: str) -> str:
    """A field's value as part of a file name: a separator or a control character (a newline,
    a tab) becomes `_`, so a value never makes a folder of its own or a name no listing shows
    as it is."""
    return "".join("_" if char == os.sep or unicodedata.category(char) == "Cc" else char
                   for char in value)


def expand_comp_name(pattern: str, comp_name: str) -> str:
    """`pattern` with `[compName]` filled in (expand_fields' rules)."""
    return expand_fields(pattern, comp_name, fields=None, row=None, params=False)


def expand_fields(pattern: str, comp_name: str, fields: dict | None = None,
                  row: int | None = None, params: bool = True) -> str:
    """`pattern` with `[compName]`, each `[param:NAME]` in `fields` (name -> file name text)
    and `[row]` filled in (only `[compName]` without `params`); a `[param:NAME]` not in
    `fields` is left as it is (`unknown_fields` names it, for whoever refuses it).

    Each value is one part of one name (field_text), and every name a field fills must be a
    name of its own: OutputNameError naming the field when one would start with a dot (`.`
    and `..` are the folder itself and the one above, `.x` a hidden file), be empty, or be
    longer than a name may be (NAME_BYTES; a file's own name TEMPORARY_ROOM less)."""
    def value(match: re.Match) -> str | None:
        if match.group(0) == COMP_NAME_FIELD:
            return field_text(comp_name)
        if not params:
            return None
        if match.group(0) == ROW_FIELD:
            return str(1 if row is None else row)
        text = (fields or {}).get(match.group(1))
        return None if text is None else field_text(text)

    names = pattern.split(os.sep)
    return os.sep.join(_filled(name, value, is_file=index == len(names) - 1)
                       for index, name in enumerate(names))


def _filled(name: str, value, is_file: bool) -> str:
    """One name of a pattern with its fields filled in, checked (see expand_fields)."""
    pieces: list[tuple[str | None, str]] = []  # (the field, or None for the pattern's text)
    position = 0
    for match in FIELD.finditer(name):
        text = value(match)
        pieces += [(None, name[position:match.start()]),
                   (None, match.group(0)) if text is None else (match.group(0), text)]
        position = match.end()
    pieces.append((None, name[position:]))
    filled = "".join(text for _field, text in pieces)
    fields = [field for field, _text in pieces if field is not None]
    if not fields:
        return filled
    first_field, first_text = next(((field, text) for field, text in pieces if text),
                                   (None, ""))
    if first_field is not None and first_text.startswith("."):
        raise OutputNameError(
            f"{first_field} is {first_text!r}, which would begin the name {filled!r} with a "
            "dot ('.' is the folder itself, '..' the one above, any other a hidden file); give "
            "it a value that does not start with a dot")
    if not filled:
        raise OutputNameError(f"{' and '.join(fields)} would leave a folder name empty; give "
                              "them a value")
    limit = NAME_BYTES - (TEMPORARY_ROOM if is_file else 0)
    widest = FRAME_FIELD.sub(lambda m: "0" * max(len(m.group(1)), WIDEST_FRAME_NUMBER), filled)
    size = len(widest.encode("utf-8", "surrogatepass"))
    if size > limit:
        room = (f" ({NAME_BYTES}, less {TEMPORARY_ROOM} for the temporaries written beside it)"
                if is_file else "")
        raise OutputNameError(
            f"{' and '.join(dict.fromkeys(fields))} make the {'file' if is_file else 'folder'} "
            f"name {filled[:40]!r}... {size} bytes long, but a name may have at most {limit} "
            f"bytes{room}; give a shorter value")
    return filled


def unknown_fields(pattern: str, fields: dict) -> list[str]:
    """The names of the `[param:NAME]` fields of `pattern` that `fields` gives no value."""
    return [name for name in PARAM_FIELD.findall(pattern) if name not in fields]


def expand_row(pattern: str, row: int) -> str:
    """`[row]` of a pattern filled in with a data row's number (from 1)."""
    return pattern.replace(ROW_FIELD, str(row))


def split_extension(path: str) -> tuple[str, str]:
    """(`/a/Main`, `.mp4`) for `/a/Main.mp4`; a frame field never counts as an extension."""
    stem, ext = os.path.splitext(path)
    if "[" in ext or "]" in ext:
        return path, ""
    return stem, ext


def with_frame_field(pattern: str) -> str:
    """A sequence pattern with a frame number field: `_[#####]` goes before the extension
    when the pattern has none."""
    if is_pattern(pattern):
        return pattern
    stem, ext = split_extension(pattern)
    return f"{stem}_{DEFAULT_FRAME_FIELD}{ext}"


def frame_path(pattern: str, frame: int, start_number: int = 0) -> str:
    """The file a sequence pattern names for one frame (comp frame number): numbered from
    `start_number` (an item's startNumber: comp frame 0 is file start_number)."""
    return sequence_path(pattern, frame + start_number)


def frame_paths(pattern: str, frames: Iterable[int],
                start_number: int = 0) -> dict[int, str]:
    """Frame number -> file, for the frames a sequence item writes."""
    return {frame: frame_path(pattern, frame, start_number) for frame in frames}


def frames_share_one_file(output: str, fmt: str, count: int) -> bool:
    """Whether an item writes `count` frames of an image sequence to an output without a
    frame number field: each frame would overwrite the last in that one file."""
    return output_format(fmt).is_sequence and count > 1 and not is_pattern(output)


def add_frame_fields(document: dict) -> list[str]:
    """Give each queue item of `document` whose frames would share one file
    (`frames_share_one_file`: a project file written by hand or by another tool) a frame
    field, as `with_frame_field` gives a new item, in place; a sentence for each."""
    comps = {comp["id"]: comp for comp in document.get("comps", [])}
    warnings = []
    for item in document.get("renderQueue", []):
        comp = comps.get(item.get("comp"))
        if comp is None:
            continue
        try:
            count = len(frames_of(item.get("frames"),
                                  frame_count(comp["duration"], comp["frameRate"])))
        except ValueError:
            continue  # a bad frame spec: the render refuses it with its own sentence
        if frames_share_one_file(item["output"], item["format"], count):
            given, item["output"] = item["output"], with_frame_field(item["output"])
            warnings.append(f"{item['id']}'s output {given} had no frame number field, so "
                            f"each of its {count} frames would have overwritten the last; it "
                            f"now writes {item['output']} (renderQueue.set gives it another "
                            "output)")
    return warnings


# --- formats and resolution ---------------------------------------------------------------------

def format_for_output(output: str | None, fmt: str | None) -> str:
    """The item's format: as given, else implied by the output's extension, else h264.

    A given format must agree with a given extension, so `x.mp4` never holds a QuickTime file
    a player then refuses."""
    if fmt is not None:
        spec = output_format(fmt)
        if output is not None:
            _stem, ext = split_extension(output)
            implied = format_for_extension(output) if ext else None
            accepted = {spec.extension} | ({".jpeg"} if spec.name == "jpeg" else set())
            if ext and ext.lower() not in accepted:
                hint = f" (that extension is {implied}'s)" if implied else ""
                raise OutputNameError(
                    f"output {output!r} ends in {ext!r} but format {fmt} writes "
                    f"{spec.extension} files{hint}; change the extension to {spec.extension} "
                    "or leave out the format")
        return spec.name
    if output is not None:
        implied = format_for_extension(output)
        if implied is not None:
            return implied
        _stem, ext = split_extension(output)
        if ext:
            raise OutputNameError(f"output {output!r} ends in {ext!r}, which is no format the "
                                  "renderer writes; use .png, .jpg, .mp4, .mov, .webm or .gif, "
                                  "or give a format")
    return DEFAULT_FORMAT


def project_folder(project_path: str | None) -> str | None:
    return os.path.dirname(os.path.abspath(project_path)) if project_path else None


def resolve_output(output: str | None, fmt: str, project_path: str | None, *,
                   confined: bool, working_directory: str) -> str:
    """The absolute output pattern to store for an item, before default numbering.

    `output` None gives the default `[compName].ext` (still unexpanded; see
    `assign_default_output`). A relative output resolves against the saved project's folder;
    for an unsaved project it is refused while `confined`, and resolves against
    `working_directory` otherwise. A sequence gets its frame field; an extension is added
    when the output has none. Video outputs must not carry a frame field."""
    spec = output_format(fmt)
    pattern = output if output is not None else COMP_NAME_FIELD + spec.extension
    if not pattern or pattern.endswith(("/", os.sep)):
        raise OutputNameError(f"output {output!r} names a folder, not a file; add a file name "
                              f"such as {COMP_NAME_FIELD}{spec.extension}")
    if not split_extension(pattern)[1]:
        pattern += spec.extension
    if spec.is_sequence:
        pattern = with_frame_field(pattern)
    elif is_pattern(pattern):
        raise OutputNameError(f"output {output!r} has a frame number field, but {fmt} writes "
                              "one video file; remove the [#...] field, or choose format png "
                              "or jpeg for one file per frame")
    if not os.path.isabs(pattern):
        folder = project_folder(project_path)
        if folder is None:
            if confined:
                what = "a default output" if output is None else f"relative output {output!r}"
                raise OutputNameError(
                    f"{what} needs the project's folder, but the project is unsaved; give an "
                    "absolute output path inside a write root, or save the project first")
            folder = working_directory
        pattern = os.path.join(folder, pattern)
    return os.path.normpath(pattern)


# --- what an item writes ----------------------------------------------------------------------

@dataclass(frozen=True)
class PlannedOutput:
    """What one queue item writes in a render: its output with `[compName]` expanded, and
    for sequences the comp frames it writes."""
    item: str
    output: str
    is_sequence: bool
    frames: tuple[int, ...] = ()
    skip_existing: bool = False
    start_number: int = 0

    def files(self) -> set[str]:
        if not self.is_sequence:
            return {os.path.normpath(self.output)}
        return {os.path.normpath(path) for path in
                frame_paths(self.output, self.frames, self.start_number).values()}


def planned_output(item: dict, comp: dict, fields: dict | None = None) -> PlannedOutput:
    """The PlannedOutput of a render queue item (docs/document.md's shape) and its comp, its
    `[param:NAME]` fields filled in from `fields` (template_params.item_fields)."""
    spec = output_format(item.get("format") or format_for_output(item["output"], None))
    frames = ()
    if spec.is_sequence:
        count = frame_count(comp["duration"], comp["frameRate"])
        frames = tuple(frames_of(item.get("frames"), count))
    return PlannedOutput(item["id"], expand_fields(item["output"], comp["name"], fields),
                         spec.is_sequence, frames, bool(item.get("skipExisting")),
                         int(item.get("startNumber", 0)))


def queue_outputs(document: dict, leave_out: str | None = None) -> list[PlannedOutput]:
    """What every item of a document's render queue writes (the item `leave_out` excepted),
    in queue order. Items whose comp is gone, or whose fields make no safe name (the render
    refuses them), write nothing and are left out."""
    comps = {comp["id"]: comp for comp in document.get("comps", [])}
    planned = []
    for item in document.get("renderQueue", []):
        if item["id"] == leave_out or item.get("comp") not in comps:
            continue
        try:
            planned.append(planned_output(item, comps[item["comp"]], item_fields(document, item)))
        except OutputNameError:
            continue
    return planned


# --- default names ----------------------------------------------------------------------------

def numbered(pattern: str, number: int) -> str:
    """`Main.mp4` -> `Main_1.mp4`; `Main_[#####].png` -> `Main_1_[#####].png` (the number
    belongs to the name, not to the frame field)."""
    if number == 0:
        return pattern
    folder, name = os.path.split(pattern)
    stem, ext = split_extension(name)
    field = FRAME_FIELD.search(stem)
    if field is not None:
        head = stem[:field.start()]
        sep = "_" if head.endswith("_") else ""
        base = head[:-1] if sep else head
        stem = f"{base}_{number}{sep}{stem[field.start():]}"
    else:
        stem = f"{stem}_{number}"
    return os.path.join(folder, stem + ext)


def assign_default_output(default_pattern: str, comp_name: str, item: PlannedOutput | None,
                          others: Iterable[PlannedOutput]) -> str:
    """The stored output for an item added without one: `default_pattern` (from
    `resolve_output(None, ...)`) with the comp name filled in, numbered `_1`, `_2`, ... until
    no file it writes is written by another queue item in `others`.

    `item` says which frames the new item writes (its `output` is ignored); None means a
    video, whose one file is all that matters."""
    taken: set[str] = set()
    for other in others:
        taken |= other.files()
    base = expand_comp_name(default_pattern, comp_name)
    is_sequence = item.is_sequence if item is not None else False
    frames = item.frames if item is not None else ()
    number = 0
    while True:
        candidate = numbered(base, number)
        files = PlannedOutput("", candidate, is_sequence, frames).files()
        if not files & taken:
            return candidate
        number += 1


def output_for_new_item(document: dict, comp: dict, output: str | None, fmt: str,
                        frames: str | None, project_path: str | None, *, confined: bool,
                        working_directory: str) -> str:
    """The output to store for an item being added to `document`'s queue (renderQueue.add,
    comp.saveFrameAs with queue): a given output resolved, never renumbered; no output, the
    default name, numbered past every file another queue item writes."""
    resolved = resolve_output(output, fmt, project_path, confined=confined,
                              working_directory=working_directory)
    if output is not None:
        return resolved
    spec = output_format(fmt)
    planned = None
    if spec.is_sequence:
        count = frame_count(comp["duration"], comp["frameRate"])
        planned = PlannedOutput("", resolved, True, tuple(frames_of(frames, count)))
    return assign_default_output(resolved, comp["name"], planned, queue_outputs(document))


# --- clashes within one render ------------------------------------------------------------------

@dataclass(frozen=True)
class Clash:
    first: str  # the earlier item's id, in render order
    second: str
    path: str  # one file both write
    shared: int  # how many files both write

    @property
    def message(self) -> str:
        more = f" (and {self.shared - 1} more)" if self.shared > 1 else ""
        return (f"items {self.first} and {self.second} both write {self.path}{more}, so one "
                f"would overwrite the other; give one of them another output, or set "
                f"skipExisting on {self.second} to keep {self.first}'s frames. Nothing was "
                "rendered")


def find_clash(items: Iterable[PlannedOutput], excluded: Iterable[str] = ()) -> Clash | None:
    """The first pair of items (in render order) whose outputs name one file, or None.

    Items in `excluded` (refused, e.g. for missing footage) write nothing and take no part.
    A later item with skip_existing leaves an earlier item's files alone, so that pair is no
    clash; the renderer must then write the earlier item before the later one looks."""
    skip = set(excluded)
    seen: list[tuple[PlannedOutput, set[str]]] = []
    for item in items:
        if item.item in skip:
            continue
        files = item.files()
        for earlier, earlier_files in seen:
            if item.skip_existing:
                break
            shared = files & earlier_files
            if shared:
                return Clash(earlier.item, item.item, min(shared), len(shared))
        seen.append((item, files))
    return None
