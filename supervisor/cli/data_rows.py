"""`rendervisor render --data FILE [--rows SPEC]`: the rows a template renders, one output per
row (docs/farm.md, "Templates").

A data file is a CSV with a header, a JSON array of objects, or JSON lines. It is read on a
probe worker (workers/probes/data_rows.py), never here: it must be a regular file within its
size limit (supervisor/engine/probes.py), and every value in it within the bounds of any row's
value (its length, no NUL, how deep it nests), so a device, a FIFO or a file built to make a
parser recurse is one line, exit 2. Rows are numbered from 1, the header not counted; `--rows`
picks some, as `--frames` picks frames (`3`, `1-10`, `5-`, `1,4-6`).

Values stay as the file gives them (a CSV cell is a text, a JSON value a value); the template
params' types parse and check them (protocol/model/template_params.py). Every problem with the
file itself is one UsageError line naming it and the row.
"""

from __future__ import annotations

from protocol.model.frame_spec import FrameSpecError, frame_ranges
from supervisor.engine.probes import Probes
from supervisor.errors import CommandError, UsageError

PREFIX = "rendervisor render: "


def read_rows(probes: Probes, path: str) -> tuple[list[str], list[dict]]:
    """The columns of a data file (a CSV's header, every key of JSON rows) and its rows, in
    order: column -> value, empty CSV cells left out."""
    try:
        found = probes.read("data", path, f"--data {path}")
    except CommandError as error:
        raise UsageError(PREFIX + str(error)) from None
    if not found["rows"]:
        raise UsageError(f"{PREFIX}--data {path} has no rows to render.")
    return found["columns"], found["rows"]


def pick_rows(rows: list[dict], spec: str | None) -> list[tuple[int, dict]]:
    """(number from 1, row) of the rows `spec` picks (all of them without one)."""
    if spec is None:
        return list(enumerate(rows, start=1))
    try:
        ranges = frame_ranges(spec, len(rows) + 1)  # numbers 0..N; 0 is refused below
    except FrameSpecError:
        raise UsageError(f"{PREFIX}--rows {spec!r} is not N, A-B, A- or a comma "
                         f"list of them within rows 1-{len(rows)} of the data (rows are "
                         "numbered from 1, the header not counted).") from None
    if ranges and ranges[0][0] == 0:
        raise UsageError(f"{PREFIX}--rows {spec!r} asks for row 0, but rows are "
                         "numbered from 1 (the header is not counted).")
    return [(number, rows[number - 1]) for first, last, step in ranges
            for number in range(first, last + 1, step)]
