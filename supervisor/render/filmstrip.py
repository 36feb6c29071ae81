"""A filmstrip: frames across a comp (or at given times) drawn at once on the preview worker and
idle render workers (supervisor/render/frame_jobs.py), laid out on one labelled contact sheet
(workers/contact_sheets.py, drawn on a worker too), so motion can be seen at a glance in one
call.
"""

from __future__ import annotations

from protocol.cancel import Cancel
from protocol.cancel import Cancelled
from protocol.model.keyframes import frame_count
from protocol.model.sheet_grid import frame_side
from supervisor.errors import CommandError
from supervisor.render.frame_jobs import spread_results
from supervisor.render.stills import frame_at
from supervisor.runtime.pool import JobFailed, Pool

DEFAULT_COUNT = 8
# A sheet is one image in an agent's context: past a few dozen frames each cell is too small to
# read and the call costs as many preview frames.
MAX_FRAMES = 36
# Cells per row: 4 (or 3 when that leaves fewer empty cells: 6 frames are 3 x 2, not 4 + 2).
DEFAULT_COLUMNS = 4
# The sheet's longer side: eight 16:9 frames in four columns come out about 370 px wide each.
DEFAULT_MAX_SIDE = 1536
MIN_MAX_SIDE, MAX_MAX_SIDE = 256, 4096


def filmstrip_frames(comp: dict, count: int | None, times: list | None) -> list[int]:
    """The frame numbers to show: the frame at each of `times` (floored, refused outside the
    comp), or `count` frames spread evenly from the first to the last; each frame once."""
    if times is not None:
        if not times or len(times) > MAX_FRAMES:
            raise CommandError(f"times lists 1 to {MAX_FRAMES} comp times in seconds, got "
                               f"{len(times)}.")
        frames = [frame_at(comp, float(time)) for time in times]
    else:
        count = DEFAULT_COUNT if count is None else count
        if not 1 <= count <= MAX_FRAMES:
            raise CommandError(f"count is 1 to {MAX_FRAMES} frames, got {count}.")
        total = frame_count(comp["duration"], comp["frameRate"])
        if total == 0:
            raise CommandError(f"comp {comp['name']!r} has no frames to show.")
        count = min(count, total)
        frames = [0] if count == 1 else [round(i * (total - 1) / (count - 1))
                                         for i in range(count)]
    return list(dict.fromkeys(frames))


def default_columns(count: int) -> int:
    return min((DEFAULT_COLUMNS, DEFAULT_COLUMNS - 1),
               key=lambda columns: -count % columns)


def draw_filmstrip(pool: Pool, snapshot_id: str, document: dict, comp: dict, frames: list[int],
                   columns: int | None, max_side: int | None, cancel: Cancel) -> dict:
    """{png, info}: the contact sheet of `frames` and the JSON that lists them. CommandError
    with a sentence for a frame that could not be drawn; Cancelled when `cancel` is."""
    columns = min(len(frames), default_columns(len(frames)) if columns is None else columns)
    if columns < 1:
        raise CommandError("columns must be at least 1.")
    max_side = DEFAULT_MAX_SIDE if max_side is None else max_side
    if not MIN_MAX_SIDE <= max_side <= MAX_MAX_SIDE:
        raise CommandError(f"max_side (the sheet's longer side) is {MIN_MAX_SIDE} to "
                           f"{MAX_MAX_SIDE} px, got {max_side}.")
    rate = comp["frameRate"]
    side = frame_side(len(frames), columns, (comp["width"], comp["height"]), max_side)
    payloads = [{"comp": comp["id"], "time": frame / rate, "max_side": side} for frame in frames]
    results = spread_results(pool, "preview", payloads, snapshot_id, document, cancel, comp,
                             "max_side or count")
    labels = [f"{frame / rate:.2f} s · frame {frame}" for frame in frames]
    sheet = _sheet(pool, {"frames": [result["png"] for result in results], "labels": labels,
                          "columns": columns}, cancel)
    grid = sheet["grid"]
    cells = []
    for index, frame in enumerate(frames):
        row, column = divmod(index, columns)
        cells.append({"time": round(frame / rate, 6), "frame": frame, "row": row,
                      "column": column})
    info = {"comp": comp["name"], "frames": cells, **grid}
    missing = sorted({path for result in results for path in result["missing"]})
    if missing:
        info["missing"] = missing
    return {"png": sheet["png"], "info": info}


def _sheet(pool: Pool, payload: dict, cancel: Cancel) -> dict:
    """The contact sheet drawn on an idle render worker, else the preview worker."""
    worker = pool.borrow_idle("render")
    try:
        return pool.run("preview", "contact_sheet", payload, cancel=cancel, worker=worker)
    except JobFailed as error:
        if cancel.cancelled:
            raise Cancelled(cancel.reason) from None
        raise CommandError(f"the frames were drawn, but their sheet could not be: {error}.") \
            from None
    finally:
        if worker is not None:
            pool.release(worker)
