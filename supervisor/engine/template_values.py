"""A row's template values checked against what only the supervisor can see, and the document
they make: protocol/model/template_params.py checks each value's type and targets; here a
footage value's file is checked on disk (it exists, it is footage of a kind its layers can
show, and, in a confined session, it lies inside the read roots: footage.import's own checks),
and a font value must be a family this machine has.

Every way a render gets values comes through here: a queue item's `params` (renderQueue.add
and renderQueue.set check them, the render applies them), `template.preview`, and the command
line's `--set` and `--data` rows (supervisor/cli/template_rows.py), which check every row
before anything renders.

Errors are template_params' ParamError (naming the param, so a caller can name the row and
the column) and TargetError (a param whose target is gone).
"""

from __future__ import annotations

import hashlib
import os

from protocol.model.document import compact
from protocol.model.template_params import (ParamError, apply_values, check_row, find_param,
                                            footage_paths, resolved_values, target_kinds)
from supervisor.engine.font_index import font_index
from supervisor.engine.footage_probe import layer_types_showing, still_shown
from supervisor.engine.footage_reads import check_document, probed
from supervisor.errors import CommandError


def checked_values(engine, document: dict, given, folder: str | None = None) -> dict:
    """The values `given` (name -> value or text), checked and normalised; a footage value is
    an absolute path (a relative one joined to `folder`, else made absolute as footage.import
    does; while confined it must be absolute already)."""
    checked = check_row(document, given)
    for name, value in list(checked.items()):
        param = find_param(document, name)
        if param["type"] == "footage":
            checked[name] = _footage_path(engine, name, value, folder)
            footage_fields(engine, document, {name: checked[name]})
        elif param["type"] == "font" and font_index().missing_family(value) is not None:
            raise ParamError(name, f"no font family {value!r} is bundled or installed on this "
                                   "machine; font.list lists the families")
    return checked


def footage_fields(engine, document: dict, values: dict, probes: dict | None = None) -> dict:
    """Path -> its probed footage fields, for each footage param's value in `values`;
    ParamError naming the param whose file cannot be footage there. `probes` keeps what was
    probed across the rows of one render, so a file shared by many rows is opened once."""
    probes = {} if probes is None else probes
    fields = {}
    for name, path in footage_paths(document, values).items():
        if path not in probes:
            try:
                found = probed(engine, path)
            except CommandError as error:
                raise ParamError(name, str(error).rstrip(".")) from None
            found.pop("warnings", None)
            probes[path] = found
        _check_kind(document, name, probes[path])
        fields[path] = probes[path]
    return fields


def row_document(engine, document: dict, given: dict, probes: dict | None = None,
                 require: bool = True) -> dict:
    """A copy of `document` with a row's values (checked ones, as a queue item stores them)
    over the params' defaults (every required param given, unless not `require`: a preview);
    ParamError, TargetError, or CommandError for footage a confined session may not draw
    (checked on the copy, as Engine.snapshot checks its own)."""
    values = resolved_values(document, check_row(document, given), require)  # stored, again
    applied = apply_values(document, values, footage_fields(engine, document, values, probes))
    check_document(engine, applied)
    return applied


def _footage_path(engine, name: str, path: str, folder: str | None) -> str:
    if engine.confined:
        try:
            engine.check_path(path, "read")  # as given: confined, a path must be absolute
        except CommandError as error:
            raise ParamError(name, str(error).rstrip(".")) from None
    elif folder is not None and not os.path.isabs(path):
        path = os.path.join(folder, path)
    return os.path.normpath(os.path.abspath(path))


def _check_kind(document: dict, name: str, fields: dict) -> None:
    param = find_param(document, name)
    target_kinds(document, param)  # TargetError when a footage target is gone
    for target in param["targets"]:
        footage = next(f for f in document["footage"] if f["id"] == target["footage"])
        if not all(still_shown(layer_type, fields)
                   for layer_type in layer_types_showing(document, footage)):
            raise ParamError(name, f"{fields['path']} is {fields['kind']} footage, but "
                                   f"{footage['name']!r} is {footage['kind']} footage, which "
                                   "another type of layer shows; give a file of the same kind")


def row_digest(given: dict, applied: dict) -> str:
    """A short digest of what a row's document adds to its snapshot's: the row's values and
    the footage they point at as probed now (a file replaced on disk between two renders of
    one revision is probed again, and its document must not take the other's name)."""
    text = compact([given, applied["footage"]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]
