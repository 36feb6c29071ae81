"""A template's data file (`rendervisor render --data FILE`): the rows a template renders.

A data file is a CSV with a header (its first row names the columns; an empty cell gives no
value, so the param's default applies), a JSON array of objects, or JSON lines (one object a
line). The kind is the extension's (`.csv`, `.json`, `.jsonl`, `.ndjson`), else the first
character's (`[` an array, `{` lines, anything else CSV).

Values stay as the file gives them (a CSV cell is a text, a JSON value a value), each within
the bounds every row's value has (protocol/model/template_params.py, `value_problem`: its
length, no NUL, how deep it nests), so nothing unbounded reaches the supervisor; the params'
types check them there. Every problem is one sentence naming the file and the row.
"""

from __future__ import annotations

import csv
import io
import json
import os

from protocol.model.template_params import value_problem
from workers.probes.opened import read_whole
from workers.tasks import TaskError

KINDS = {".csv": "csv", ".json": "json", ".jsonl": "lines", ".ndjson": "lines"}


def probe_data_rows(job_file: dict, limit: int) -> dict:
    """{columns, rows}: a CSV's header (every key of JSON rows) and the rows, in order (column
    -> value, empty CSV cells left out)."""
    name = job_file["name"]
    raw = read_whole(job_file, limit)
    try:
        text = raw.decode("utf-8-sig")  # -sig: a spreadsheet's byte order mark
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        raise TaskError(f"{name} line {line} is not UTF-8 text; save the data as UTF-8.") \
            from None
    kind = KINDS.get(os.path.splitext(job_file["path"])[1].lower()) or _sniffed(text)
    columns, rows = {"csv": _csv_rows, "json": _json_rows, "lines": _json_lines}[kind](text, name)
    for number, row in enumerate(rows, start=1):
        for column, value in row.items():
            problem = value_problem(value)
            if problem is not None:
                raise TaskError(f"row {number} of {name}, column {column}: the value "
                                f"{problem}.")
    return {"columns": columns, "rows": rows}


def _sniffed(text: str) -> str:
    start = text.lstrip()[:1]
    return "json" if start == "[" else "lines" if start == "{" else "csv"


def _csv_rows(text: str, name: str) -> tuple[list[str], list[dict]]:
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        raise TaskError(f"{name} line {line} holds a NUL character, which no CSV cell may; "
                        "save the data as text.")
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, None)
        if header is None:
            return [], []
        header = [column.strip() for column in header]
        doubled = sorted({column for column in header if header.count(column) > 1})
        if doubled:
            raise TaskError(f"{name} has the column {doubled[0]!r} twice; give each column its "
                            "own name.")
        rows = []
        for cells in reader:
            if not any(cell.strip() for cell in cells):
                continue  # a blank line, as spreadsheets leave at the end
            if len(cells) > len(header):
                raise TaskError(f"row {len(rows) + 1} of {name} has {len(cells)} cells but the "
                                f"header names {len(header)} columns; quote a cell that holds "
                                "a comma.")
            rows.append({column: cell for column, cell in zip(header, cells) if cell != ""})
        return header, rows
    except csv.Error as error:
        raise TaskError(f"{name} is not a CSV file the header and rows can be read from (line "
                        f"{reader.line_num}: {error}).") from None


def _json_rows(text: str, name: str) -> tuple[list[str], list[dict]]:
    rows = _json(text, name)
    if not isinstance(rows, list):
        raise TaskError(f"{name} holds {type(rows).__name__}, not a JSON array of rows "
                        "[{\"NAME\": VALUE, ...}, ...].")
    rows = [_object(row, number, name) for number, row in enumerate(rows, start=1)]
    return _keys(rows), rows


def _json_lines(text: str, name: str) -> tuple[list[str], list[dict]]:
    rows: list[dict] = []
    for line in text.splitlines():
        if line.strip():
            row = _json(line, f"row {len(rows) + 1} of {name}")
            rows.append(_object(row, len(rows) + 1, name))
    return _keys(rows), rows


def _json(text: str, what: str):
    try:
        return json.loads(text)
    except ValueError as error:
        raise TaskError(f"{what} is not JSON ({error}).") from None
    except RecursionError:
        raise TaskError(f"{what} nests its JSON too deeply to be rows of values (a value nests "
                        "a few lists deep at most); fix the file.") from None


def _keys(rows: list[dict]) -> list[str]:
    return list(dict.fromkeys(key for row in rows for key in row))


def _object(row, number: int, name: str) -> dict:
    if not isinstance(row, dict):
        raise TaskError(f"row {number} of {name} is {json.dumps(row)[:40]}, not an object "
                        "{\"NAME\": VALUE, ...}.")
    return row
