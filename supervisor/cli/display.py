"""How `rendervisor render` shows a render: a progress bar on a terminal, plain lines when
stderr is a file or a pipe (a farm manager's log), Open Job Description lines on stdout with
--progress openjd (AWS Deadline Cloud and other OpenJD runners read them), JSON lines on stdout
with --json, nothing with --quiet. Progress goes to stderr (or, as JSON or OpenJD, stdout); the
final per-item summary goes to stdout, so `render ... > log` keeps what was made.

Plain progress lines begin with the local ISO time and say the rate and what is left:
`2025-06-01T14:03:07+02:00 rendering: 120/300 frames (40%), 12.5 frames/s, ETA 0:00:14`.
With `--log FILE`, whatever the display, every plain line (progress, the summary, an
interruption) is also appended to FILE with its time (supervisor/cli/log_lines.py). The error
that stops a command before it renders (exit 2) is said by supervisor/cli/main.py, in each
display's form.

One class per kind of display, all with the same methods, called from any thread:
`progress(done, total, message)`, `item(item_id, status, progress)` (an item started, wrote a
frame, ended), `finished(report)`, `interrupted()`; and `name_rows(rows)` before the render, for a render of template rows (--set,
--data: item id -> (row number, output)), whose items are then shown as rows: JSON `row`
events, and the row beside each item of the summary.
"""

from __future__ import annotations

import io
import json
import sys
import threading
import time
from typing import Any, TextIO

from supervisor.cli.log_lines import LogLines

# Plain lines and JSON events at most this often (the last one always goes): a 10 000-frame
# render should leave a readable log, not 10 000 lines.
PLAIN_INTERVAL = 2.0
JSON_INTERVAL = 0.1
# What an interrupted render left, and how to go on from there (docs/outputs.md, "Cancel and
# failure"): a farm manager preempts a task with SIGTERM, and its rerun must not start over.
INTERRUPTED = ("interrupted; the frames and video segments that were finished are kept and "
               "half-written files removed; run the same command with --skip-existing to "
               "render only the rest")
PROGRESS_STYLES = ("auto", "bar", "lines", "openjd")


class Throughput:
    """Frames a second since the first report, and the seconds left at that rate."""

    def __init__(self) -> None:
        self._first: tuple[float, int] | None = None

    def update(self, done: int, total: int) -> tuple[float | None, float | None]:
        now = time.monotonic()
        if self._first is None:
            self._first = (now, done)
            return None, None
        seconds, frames = now - self._first[0], done - self._first[1]
        if seconds <= 0 or frames <= 0:
            return None, None
        rate = frames / seconds
        return rate, max(0, total - done) / rate


def clock(seconds: float) -> str:
    """`0:01:05` for 65 seconds."""
    whole = int(round(seconds))
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def progress_line(done: int, total: int, rate: float | None, eta: float | None) -> str:
    percent = 100 * done // total if total else 100
    line = f"rendering: {done}/{total} frames ({percent}%)"
    if rate is not None:
        line += f", {rate:.1f} frames/s"
        if done < total:
            line += f", ETA {clock(eta)}"
    return line


class Quiet:
    """Nothing on the terminal; the plain lines to the --log file alone, if one is given."""

    rows: dict[str, tuple[int, str]] = {}

    def __init__(self, log: str | None = None) -> None:
        self.log = LogLines(None, log)
        self.throughput = Throughput()
        self._log_last = 0.0

    def name_rows(self, rows: dict[str, tuple[int, str]]) -> None:
        self.rows = rows

    def progress(self, done: int, total: int, message: str | None) -> None:
        rate, eta = self.throughput.update(done, total)
        self.log_progress(done, total, rate, eta)

    def log_progress(self, done: int, total: int, rate, eta) -> bool:
        """Log a progress line (at most every PLAIN_INTERVAL, the last always); whether it
        was time for one."""
        now = time.monotonic()
        if done < total and now - self._log_last < PLAIN_INTERVAL:
            return False
        self._log_last = now
        self.log.say(progress_line(done, total, rate, eta))
        return True

    def item(self, item_id: str, status: str, progress: float) -> None:
        pass

    def finished(self, report: dict) -> None:
        self.log_summary(report)

    def log_summary(self, report: dict) -> None:
        summary = io.StringIO()
        print_summary(self.with_rows(report), summary)
        for line in summary.getvalue().splitlines():
            self.log.say(line)

    def interrupted(self) -> None:
        self.log.say(f"rendervisor render: {INTERRUPTED}.")

    def close(self) -> None:
        self.log.close()

    def with_rows(self, report: dict) -> dict:
        """The report with each row's number beside its item."""
        items = [dict(entry, row=self.rows[entry["item"]][0]) if entry["item"] in self.rows
                 else entry for entry in report.get("items", [])]
        return {**report, "items": items}


class JsonLines(Quiet):
    """`{"event": "progress", ...}` lines, then one `{"event": "done", ...}` (or
    `{"event": "interrupted"}`), each one whole line on stdout."""

    def __init__(self, stream: TextIO = sys.stdout, log: str | None = None) -> None:
        super().__init__(log)
        self.stream = stream
        self._lock = threading.Lock()
        self._last = 0.0
        self._row_last: dict[str, float] = {}  # item id -> when its row last said anything

    def emit(self, event: dict) -> None:
        with self._lock:
            self.stream.write(json.dumps(event) + "\n")
            self.stream.flush()

    def progress(self, done: int, total: int, message: str | None) -> None:
        rate, eta = self.throughput.update(done, total)
        self.log_progress(done, total, rate, eta)
        now = time.monotonic()
        if done < total and now - self._last < JSON_INTERVAL:
            return
        self._last = now
        self.emit({"event": "progress", "done": done, "total": total,
                   "fraction": round(done / total, 4) if total else 1.0, "message": message,
                   "framesPerSecond": None if rate is None else round(rate, 2),
                   "etaSeconds": None if eta is None else round(eta, 1)})

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
        self.log_summary(report)
        self.emit({"event": "done", **self.with_rows(report)})

    def interrupted(self) -> None:
        super().interrupted()
        self.emit({"event": "interrupted", "message": INTERRUPTED})


class PlainLines(Quiet):
    """`TIME rendering: 120/300 frames (40%), 12.5 frames/s, ETA 0:00:14` every few seconds on
    stderr, then the summary."""

    def __init__(self, stream: TextIO = sys.stderr, out: TextIO = sys.stdout,
                 log: str | None = None) -> None:
        super().__init__(log)
        self.log = LogLines(stream, log)  # the progress lines go to the stream and the log
        self.stream, self.out = stream, out

    def finished(self, report: dict) -> None:
        print_summary(self.with_rows(report), self.out)
        self.log.stream = None  # the summary is on stdout already: to the log alone
        self.log_summary(report)


class OpenJobDescription(Quiet):
    """Open Job Description's lines on stdout, as a farm's worker agent reads them from a
    task's output: `openjd_progress: 40.0` (percent) and `openjd_status: ...` (what it is
    doing, with the rate and the time left) every few seconds, the summary, and
    `openjd_fail: ...` for a failed item."""

    def __init__(self, out: TextIO = sys.stdout, log: str | None = None) -> None:
        super().__init__(log)
        self.out = out
        self._lock = threading.Lock()

    def say(self, *lines: str) -> None:
        with self._lock:
            for line in lines:
                # One line each: a message with a newline would end the directive early.
                self.out.write(" ".join(line.splitlines()) + "\n")
            self.out.flush()

    def progress(self, done: int, total: int, message: str | None) -> None:
        rate, eta = self.throughput.update(done, total)
        if self.log_progress(done, total, rate, eta):
            percent = 100 * done / total if total else 100.0
            self.say(f"openjd_progress: {percent:.1f}",
                     f"openjd_status: {progress_line(done, total, rate, eta)}")

    def finished(self, report: dict) -> None:
        self.log_summary(report)
        print_summary(self.with_rows(report), self.out)
        failed = [entry for entry in report.get("items", []) if entry["status"] == "failed"]
        if failed:
            self.say(f"openjd_fail: {failed[0].get('error') or 'an item failed'}"
                     + (f" (and {len(failed) - 1} more failed)" if len(failed) > 1 else ""))
        else:
            self.say("openjd_progress: 100.0",
                     f"openjd_status: done: {report.get('completed', 0)} of "
                     f"{len(report.get('items', []))} items rendered")

    def interrupted(self) -> None:
        super().interrupted()
        self.say(f"openjd_status: {INTERRUPTED}")


class Bar(PlainLines):
    """A tqdm bar on the terminal, counting frames written (with its own rate and time left)."""

    def __init__(self, stream: TextIO = sys.stderr, out: TextIO = sys.stdout,
                 log: str | None = None) -> None:
        super().__init__(stream, out, log)
        self.log.stream = None  # the bar is the terminal's; the log gets the lines
        self._bar: Any = None
        self._lock = threading.Lock()

    def progress(self, done: int, total: int, message: str | None) -> None:
        from tqdm import tqdm
        rate, eta = self.throughput.update(done, total)
        self.log_progress(done, total, rate, eta)
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
        self.log.stream = self.stream
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
    log = getattr(args, "log", None)
    style = getattr(args, "progress", "auto")
    if args.json:
        return JsonLines(log=log)
    if args.quiet:
        return Quiet(log)
    if style == "openjd":
        return OpenJobDescription(log=log)
    if style == "bar" or (style == "auto" and sys.stderr.isatty()):
        return Bar(log=log)
    return PlainLines(log=log)
