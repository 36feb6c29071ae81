"""`rendervisor render --data FILE [--rows SPEC]`: reading the rows a template renders, one
output per row (docs/farm.md, "Templates").

A data file is a CSV with a header (its first row names the columns; an empty cell gives no
value, so the param's default applies), a JSON array of objects, or JSON lines (one object a
line). The kind is the extension's (`.csv`, `.json`, `.jsonl`, `.ndjson`), else the first
character's (`[` an array, `{` lines, anything else CSV). Rows are numbered from 1, the header
not counted; `--rows` picks some, as `--frames` picks frames (`3`, `1-10`, `5-`, `1,4-6`).

Values stay as the file gives them (a CSV cell is a text, a JSON value a value); the template
params' types parse and check them (protocol/model/template_params.py). Every problem with the
file itself is one UsageError line naming it and the row.
"""

from __future__ import annotations

import csv
import io
import json
import os

from protocol.model.frame_spec import FrameSpecError, frame_ranges
from supervisor.errors import UsageError

KINDS = {".csv": "csv", ".json": "json", ".jsonl": "lines", ".ndjson": "lines"}


def read_rows(path: str) -> tuple[list[str], list[dict]]:
    """The columns of a data file (a CSV's header, every key of JSON rows) and its rows, in
    order: column -> value, empty CSV cells left out."""
    name = os.path.basename(path)
    try:
        with open(path, encoding="utf-8-sig") as handle:  # -sig: a spreadsheet's BOM
            text = handle.read()
    except FileNotFoundError:
        raise UsageError(f"rendervisor render: --data {path}: there is no such file.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"rendervisor render: --data {path} cannot be read as UTF-8 text "
                         f"({error}).") from None
    kind = KINDS.get(os.path.splitext(path)[1].lower()) or _sniffed(text)
    columns, rows = {"csv": _csv_rows, "json": _json_rows,
                     "lines": _json_lines}[kind](text, name)
    if not rows:
        raise UsageError(f"rendervisor render: --data {path} has no rows to render.")
    return columns, rows


def pick_rows(rows: list[dict], spec: str | None) -> list[tuple[int, dict]]:
    """(number from 1, row) of the rows `spec` picks (all of them without one)."""
    if spec is None:
        return list(enumerate(rows, start=1))
    try:
        ranges = frame_ranges(spec, len(rows) + 1)  # numbers 0..N; 0 is refused below
    except FrameSpecError:
        raise UsageError(f"rendervisor render: --rows {spec!r} is not N, A-B, A- or a comma "
                         f"list of them within rows 1-{len(rows)} of the data (rows are "
                         "numbered from 1, the header not counted).") from None
    if ranges and ranges[0][0] == 0:
        raise UsageError(f"rendervisor render: --rows {spec!r} asks for row 0, but rows are "
                         "numbered from 1 (the header is not counted).")
    return [(number, rows[number - 1]) for first, last, step in ranges
            for number in range(first, last + 1, step)]


def _sniffed(text: str) -> str:
    start = text.lstrip()[:1]
    return "json" if start == "[" else "lines" if start == "{" else "csv"


def _csv_rows(text: str, name: str) -> list[dict]:
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, None)
        if header is None:
            return [], []
        header = [column.strip() for column in header]
        doubled = sorted({column for column in header if header.count(column) > 1})
        if doubled:
            raise UsageError(f"rendervisor render: {name} has the column {doubled[0]!r} twice; "
                             "give each column its own name.")
        rows = []
        for cells in reader:
            if not any(cell.strip() for cell in cells):
                continue  # a blank line, as spreadsheets leave at the end
            if len(cells) > len(header):
                raise UsageError(f"rendervisor render: row {len(rows) + 1} of {name} has "
                                 f"{len(cells)} cells but the header names {len(header)} "
                                 "columns; quote a cell that holds a comma.")
            rows.append({column: cell for column, cell in zip(header, cells) if cell != ""})
        return header, rows
    except csv.Error as error:
        raise UsageError(f"rendervisor render: {name} is not a CSV file the header and rows "
                         f"can be read from (line {reader.line_num}: {error}).") from None


def _json_rows(text: str, name: str) -> list[dict]:
    try:
        rows = json.loads(text)
    except ValueError as error:
        raise UsageError(f"rendervisor render: {name} is not JSON ({error}).") from None
    if not isinstance(rows, list):
        raise UsageError(f"rendervisor render: {name} holds {type(rows).__name__}, not a JSON "
                         "array of rows [{\"NAME\": VALUE, ...}, ...].")
    rows = [_object(row, number, name) for number, row in enumerate(rows, start=1)]
    return _keys(rows), rows


def _json_lines(text: str, name: str) -> list[dict]:
    rows = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as error:
            raise UsageError(f"rendervisor render: row {len(rows) + 1} of {name} is not a "
                             f"JSON object ({error}).") from None
        rows.append(_object(row, len(rows) + 1, name))
    return _keys(rows), rows


def _keys(rows: list[dict]) -> list[str]:
    return list(dict.fromkeys(key for row in rows for key in row))


def _object(row, number: int, name: str) -> dict:
    if not isinstance(row, dict):
        raise UsageError(f"rendervisor render: row {number} of {name} is {json.dumps(row)[:40]}"
                         ", not an object {\"NAME\": VALUE, ...}.")
    return row
