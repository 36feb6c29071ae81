"""How `rendervisor render` shows a render: a progress bar on a terminal, plain lines when
stderr is a file or a pipe (a farm manager's log), JSON lines on stdout with --json, nothing
with --quiet. Progress goes to stderr (or, as JSON, stdout); the final per-item summary goes to
stdout, so `render ... > log` keeps what was made.

One class per kind of display, all with the same methods, called from any thread:
`progress(done, total, message)`, `item(item_id, status, progress)` (an item started, wrote a
frame, ended), `finished(report)`, `interrupted()`; and `name_rows(rows)` before the render,
for a render of template rows (--set, --data: item id -> (row number, output)), whose items
are then shown as rows: JSON `row` events, and the row beside each item of the summary.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any, TextIO

# Plain lines and JSON events at most this often (the last one always goes): a 10 000-frame
# render should leave a readable log, not 10 000 lines.
# What an interrupted render left, and how to go on from there (docs/outputs.md, "Cancel and
# failure"): a farm manager preempts a task with SIGTERM, and its rerun must not start over.
INTERRUPTED = ("interrupted; the frames and video segments that were finished are kept and "
               "half-written files removed; run the same command with --skip-existing to "
               "render only the rest")
PLAIN_INTERVAL = 2.0
JSON_INTERVAL = 0.1


class Quiet:
    rows: dict[str, tuple[int, str]] = {}

    def name_rows(self, rows: dict[str, tuple[int, str]]) -> None:
        self.rows = rows

    def progress(self, done: int, total: int, message: str | None) -> None:
        pass

    def item(self, item_id: str, status: str, progress: float) -> None:
        pass

    def finished(self, report: dict) -> None:
        pass

    def interrupted(self) -> None:
        pass

    def with_rows(self, report: dict) -> dict:
        """The report with each row's number beside its item."""
        items = [dict(entry, row=self.rows[entry["item"]][0]) if entry["item"] in self.rows
                 else entry for entry in report.get("items", [])]
        return {**report, "items": items}


class JsonLines(Quiet):
    """`{"event": "progress", ...}` lines, then one `{"event": "done", ...}` (or
    `{"event": "interrupted"}`), each one whole line on stdout."""

    def __init__(self, stream: TextIO = sys.stdout) -> None:
        self.stream = stream
        self._lock = threading.Lock()
        self._last = 0.0
        self._row_last: dict[str, float] = {}  # item id -> when its row last said anything

    def emit(self, event: dict) -> None:
        with self._lock:
            self.stream.write(json.dumps(event) + "\n")
            self.stream.flush()

    def progress(self, done: int, total: int, message: str | None) -> None:
        now = time.monotonic()
        if done < total and now - self._last < JSON_INTERVAL:
            return
        self._last = now
        self.emit({"event": "progress", "done": done, "total": total,
                   "fraction": round(done / total, 4) if total else 1.0, "message": message})

    def item(self, item_id: str, status: str, progress: float) -> None:
        """`{"event": "row", "row", "item", "output", "status", "fraction"}` as a row's item
        starts (status started), writes frames (rendering, at most 10 a second each) and ends
        (done, failed, stopped)."""
        if item_id not in self.rows:
            return
        now = time.monotonic()
        with self._lock:
            last = self._row_last.get(item_id)
            if status == "rendering" and last is not None and now - last < JSON_INTERVAL:
                return
            self._row_last[item_id] = now
        row, output = self.rows[item_id]
        shown = "started" if status == "rendering" and last is None else status
        self.emit({"event": "row", "row": row, "item": item_id, "output": output,
                   "status": shown, "fraction": round(progress, 4)})

    def finished(self, report: dict) -> None:
        self.emit({"event": "done", **self.with_rows(report)})

    def interrupted(self) -> None:
        self.emit({"event": "interrupted", "message": INTERRUPTED})


class PlainLines(Quiet):
    """`rendering: 120/300 frames (40%)` every few seconds on stderr, then the summary."""

    def __init__(self, stream: TextIO = sys.stderr, out: TextIO = sys.stdout) -> None:
        self.stream, self.out = stream, out
        self._last = 0.0

    def progress(self, done: int, total: int, message: str | None) -> None:
        now = time.monotonic()
        if done < total and now - self._last < PLAIN_INTERVAL:
            return
        self._last = now
        percent = 100 * done // total if total else 100
        print(f"rendering: {done}/{total} frames ({percent}%)", file=self.stream, flush=True)

    def finished(self, report: dict) -> None:
        print_summary(self.with_rows(report), self.out)

    def interrupted(self) -> None:
        print(f"rendervisor render: {INTERRUPTED}.", file=self.stream)


class Bar(PlainLines):
    """A tqdm bar on the terminal, counting frames written."""

    def __init__(self, stream: TextIO = sys.stderr, out: TextIO = sys.stdout) -> None:
        super().__init__(stream, out)
        self._bar: Any = None
        self._lock = threading.Lock()

    def progress(self, done: int, total: int, message: str | None) -> None:
        from tqdm import tqdm
        with self._lock:
            if self._bar is None:
                self._bar = tqdm(total=total, unit="frame", file=self.stream, leave=False,
                                 dynamic_ncols=True)
            self._bar.update(done - self._bar.n)

    def _close(self) -> None:
        with self._lock:
            if self._bar is not None:
                self._bar.close()
                self._bar = None

    def finished(self, report: dict) -> None:
        self._close()
        super().finished(report)

    def interrupted(self) -> None:
        self._close()
        super().interrupted()


def print_summary(report: dict, out: TextIO) -> None:
    """One line per item: its status, name (a template row by its number) and output, and
    what it wrote (the error of a failed one, and the warnings of any, a mix that clips,
    below it)."""
    for entry in report.get("items", []):
        who = f"row {entry['row']}" if "row" in entry else entry["item"]
        print(f"{entry['status']:<7} {who}  {entry.get('output', '')}  "
              f"{what_was_written(entry)}", file=out)
        if entry.get("error"):
            print(f"        {entry['error']}", file=out)
        for warning in entry.get("warnings", []):
            print(f"        warning: {warning}", file=out)
    out.flush()


def what_was_written(entry: dict) -> str:
    written, skipped = entry.get("framesWritten", 0), entry.get("framesSkipped", 0)
    if entry.get("skipped"):
        return "the video exists; nothing was written"
    if not written and skipped and entry["status"] == "done":
        return f"all {_frames(skipped)} exist; nothing was written"
    if not written and not skipped and entry["status"] == "done":  # a wav: sound, no frames
        return f"its sound written in {entry.get('seconds', 0):.1f} s"
    said = f"{_frames(written)} written"
    if skipped:
        said += f", {skipped} existed"
    if entry.get("failedFrames"):
        said += (f"; frames {entry['failedFrames']} failed (render them again with "
                 "--skip-existing)")
    return said + f" in {entry.get('seconds', 0):.1f} s"


def _frames(count: int) -> str:
    return f"{count} frame{'' if count == 1 else 's'}"


def display_for(args) -> Quiet:
    if args.json:
        return JsonLines()
    if args.quiet:
        return Quiet()
    return Bar() if sys.stderr.isatty() else PlainLines()
