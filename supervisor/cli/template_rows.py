"""`rendervisor render --set NAME=VALUE --data FILE --rows SPEC`: the rows a template renders,
checked before anything renders, and the queue they become (docs/farm.md, "Templates").

    --set and every picked row ─► checked (template_values.checked_values: types, targets,
        │                          footage files, fonts), each error one line naming the row
        │                          and the column; every required param given
        ▼
    each queue item x each row ─► one queue item with the row's params, its output's [row]
        │                          filled in (in this process's memory only)
        ▼
    two rows naming one file ─► refused, naming both rows, before anything is written

Rows are then ordinary queue items, so the render's units of work are rows x chunks, on the
render workers or a Dask cluster, each row on a snapshot of its own
(supervisor/render/item_snapshots.py). A value given by `--set` is every row's, over its cell.
Paths in a data file are relative to its folder, those of `--set` to the working directory.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass

from protocol.model.document import ITEM_AUDIO_KEYS, ITEM_OPTIONS
from protocol.model.output_names import expand_row, find_clash, queue_outputs
from protocol.model.template_params import (ParamError, TargetError, find_param, names_listed,
                                            resolved_values)
from supervisor.cli.data_rows import pick_rows, read_rows
from supervisor.cli.flag_pairs import flag_pairs
from supervisor.engine.template_values import checked_values
from supervisor.errors import CommandError, UsageError

PREFIX = "rendervisor render: "


@dataclass(frozen=True)
class Row:
    number: int  # from 1, as --rows counts
    values: dict  # checked: what the row's queue items store as params
    where: str = "--set"  # the row, as a refusal names it: "row 3 of rows.csv"


def template_rows(engine, args) -> list[Row] | None:
    """The rows the flags ask for, every value checked; None without --set and --data."""
    if args.rows is not None and args.data is None:
        raise UsageError(PREFIX + "--rows picks rows of --data FILE; give the data file.")
    if not args.set and args.data is None:
        return None
    sets = _checked(engine, flag_pairs(args.set, "--set", "NAME=VALUE", "title=Hello"),
                    os.getcwd(), lambda column: f"--set {column}")
    if args.data is None:
        picked, source = [(1, {})], "--set"
    else:
        columns, data = read_rows(engine.probes, args.data)
        source = os.path.basename(args.data)
        _refuse_unknown_columns(engine, columns, source)
        picked = pick_rows(data, args.rows)
    folder = os.path.dirname(os.path.abspath(args.data)) if args.data else None
    rows = []
    for number, cells in picked:
        where = (lambda column, number=number: f"row {number} of {source}, column {column}")
        values = {**_checked(engine, cells, folder, where), **sets}
        try:
            resolved_values(engine.doc, values)
        except ParamError as error:
            who, fill = ((f"row {number} of {source}", "fill in its column, or give")
                         if args.data else ("--set", "give"))
            raise UsageError(f"{PREFIX}{who} gives no value for {error.name}, which has no "
                             f"default; {fill} --set {error.name}=VALUE.") from None
        rows.append(Row(number, values, f"row {number} of {source}" if args.data else "--set"))
    return rows


def queue_rows(engine, rows: list[Row], args) -> dict[str, int]:
    """Replace each queue item by one item per row (its params the row's values, `[row]` in
    its output the row's number, --output and --format over the item's own); item id -> row
    number. Refuses a row whose values make no safe name, and two rows naming one file."""
    items = list(engine.doc["renderQueue"])
    output = os.path.abspath(args.output) if args.output else None
    engine.edit_quietly(lambda doc: doc["renderQueue"].clear())
    row_of = {}
    for row in rows:
        for item in items:
            try:
                fmt = item["format"] if output is None else args.format
                # The item's own settings (a sequence's startNumber, resume, its sound, its
                # view and tags) go with each row; only its output, format and params change.
                kept = {key: item[key] for key in (*ITEM_OPTIONS, *ITEM_AUDIO_KEYS)
                        if key in item}
                added = engine.run("renderQueue.add", {
                    **kept,
                    "comp": item["comp"], "output": expand_row(output or item["output"],
                                                               row.number),
                    **({"format": fmt} if fmt else {}), "frames": item["frames"],
                    "skipExisting": item["skipExisting"], "codecOptions": item["codecOptions"],
                    "params": row.values})
            except CommandError as error:
                raise UsageError(f"{PREFIX}{row.where}: {error} Nothing was rendered.") \
                    from None
            row_of[added["item"]] = row.number
    _refuse_clashes(engine, row_of)
    return row_of


def _refuse_clashes(engine, row_of: dict[str, int]) -> None:
    # With --skip-existing the queue lets a later item leave an earlier one's file alone; two
    # rows naming one file are a mistake all the same (the second row would never render).
    outputs = [dataclasses.replace(planned, skip_existing=False)
               for planned in queue_outputs(engine.doc)]
    clash = find_clash(outputs)
    if clash is None:
        return
    first, second = row_of[clash.first], row_of[clash.second]
    who = (f"rows {first} and {second} both write" if first != second else
           f"row {first}'s items {clash.first} and {clash.second} both write")
    more = f" (and {clash.shared - 1} more)" if clash.shared > 1 else ""
    raise UsageError(f"{PREFIX}{who} {clash.path}{more}, so one would overwrite the other; put "
                     "[row] or [param:NAME] in the output so that each row names its own file. "
                     "Nothing was rendered.")


def _refuse_unknown_columns(engine, columns: list[str], source: str) -> None:
    """Every column must be a param: a misspelt header would otherwise leave its param at
    the default in every row, without a word."""
    for column in columns:
        if find_param(engine.doc, column) is None:
            raise UsageError(f"{PREFIX}{source} has a column {column!r}, which is not a param "
                             f"of the project (its params are {names_listed(engine.doc)}); "
                             "rename the column to a param's name, or remove it.")


def _checked(engine, given: dict, folder: str | None, where) -> dict:
    """`given` checked as template values; one line naming `where(column)` otherwise."""
    try:
        return checked_values(engine, engine.doc, given, folder)
    except ParamError as error:
        raise UsageError(f"{PREFIX}{where(error.name)}: {error}.") from None
    except TargetError as error:
        raise UsageError(f"{PREFIX}{error}.") from None
