"""The supervisor's door to the probe workers: every file nobody vouches for is read there, never
here (docs/architecture.md, "Who may parse what").

    engine command / template row / --data       Probes.read(kind, path, subject, verify)
         │                                          │ open the file here (checked_files:
         │                                          │ the roots approve what was opened; a
         ▼                                          │ FIFO or device is refused unread); its
    one sentence, or a small summary  ◄───────────  │ size against the kind's limit; then a
                                                    ▼ job on a probe worker (workers/probes/)
                                        the worker opens the same file again and reads it;
                                        this descriptor stays open until the job ends

A probe worker runs under the probe memory limit and the probe deadline and is killed with its
tree when the caller's call is cancelled (supervisor/runtime/worker_kinds.py): a parser that
crashes, loops or balloons costs one worker, reported as one sentence naming the file, and the
session, its document and its undo history live on.

What a kind of input is bounded by (INPUTS) is one table: its size limit, checked here before a
byte is read, and the task that reads it. Summaries are kept (CACHE_SIZE), named by the file's
identity (device, inode, size, modification time), so a command that looks at a file before
it takes the document's lock (Engine.run) and again under it reads the file once.

Must never parse, decode or decompress a byte of a file itself.
"""

from __future__ import annotations

import collections
import copy
import json
import os
import threading
from dataclasses import dataclass
from typing import Any

from protocol.cancel import Cancel, Cancelled
from protocol.model.limits import (MAX_CUBE_BYTES, MAX_FONT_BYTES, MAX_PROJECT_BYTES,
                                   MAX_VECTOR_FOOTAGE_BYTES)
from protocol.model.timeline_summary import MAX_TIMELINE_BYTES
from protocol.wire.frames import OUT_OF_MEMORY
from supervisor.confinement.checked_files import NotRegularFile, Verify, open_regular
from supervisor.confinement.roots import shown
from supervisor.errors import CommandError
from supervisor.runtime.pool import DEADLINE, JobFailed, Pool, make_context, worker_preload
from supervisor.runtime.worker_memory import describe_bytes

KIND = "probe"  # the worker kind probes run on
# Summaries kept: every footage item, font file and caption file a session touches in a while.
# Each is a few hundred bytes (a font's character ranges a few kilobytes; captions and data
# rows, which can be megabytes, are not kept).
CACHE_SIZE = 256


@dataclass(frozen=True)
class Input:
    """A kind of input file: the task that reads it, the most of it read (None: FFmpeg reads
    the headers it needs, never the whole file), what such a file is and what to give instead
    (for the sentence that refuses one), and whether its summary is kept."""
    task: str
    limit: int | None
    what: str
    hint: str
    kept: bool = True


INPUTS: dict[str, Input] = {
    # A still is read whole to find its header; a 16384-pixel TIFF is a few hundred MB.
    "image": Input("probe_image", 512 * 1024 * 1024, "an image",
                   "convert it or pick another file"),
    "media": Input("probe_media", None, "a media file", "convert it or pick another file"),
    "svg": Input("probe_svg", MAX_VECTOR_FOOTAGE_BYTES, "an SVG file",
                 "check the file, or export it again"),
    "lottie": Input("probe_lottie", MAX_VECTOR_FOOTAGE_BYTES, "a Lottie file",
                    "export it again as Lottie JSON or pick another file"),
    # As much as a compressed font may unpack to (workers/compositor/compressed_fonts.py).
    "font": Input("probe_font", MAX_FONT_BYTES, "a font file",
                  "give a .ttf, .otf, .ttc, .woff or .woff2 file"),
    # A subtitle track of a feature film is about 100 kB.
    "captions": Input("probe_captions", 16 * 1024 * 1024, "a caption file",
                      "give a .srt, .vtt or .json file", kept=False),
    # 100,000 rows of 160 bytes: far more renders than one farm job holds.
    "data": Input("probe_data_rows", 16 * 1024 * 1024, "a data file",
                  "give a CSV, JSON or JSON lines file of rows", kept=False),
    # A 65^3 LUT, the finest the lut effect applies, is about 8 MB of text.
    "lut": Input("probe_lut", MAX_CUBE_BYTES, "a .cube 3D LUT file",
                 "export it again as a 3D .cube LUT (LUT_3D_SIZE 2 to 65)"),
    # An editorial timeline (protocol/model/timeline_summary.py says why this much).
    "timeline": Input("probe_timeline", MAX_TIMELINE_BYTES, "a timeline file",
                      "export it again from its editor", kept=False),
    # Every project rendervisor saves opens again (protocol/model/limits.py says why).
    "project": Input("probe_project", MAX_PROJECT_BYTES, "a project file",
                     "give the path of a .rvproj file", kept=False),
}


class Probes:
    """Reads files on a pool's probe workers. An engine made without a pool (a script, a test)
    gets this process's own small pool on first use, so a probe never runs in-process."""

    def __init__(self, pool: Pool | None = None) -> None:
        self._pool = pool
        self._kept: collections.OrderedDict = collections.OrderedDict()
        self._by_path: dict[str, Any] = {}  # path -> its last kept summary (for warnings)
        self._lock = threading.Lock()

    @property
    def pool(self) -> Pool:
        return self._pool if self._pool is not None else own_pool()

    def read(self, kind: str, path: str, subject: str, verify: Verify = lambda real: None,
             cancel: Cancel | None = None, options: dict | None = None) -> dict:
        """The summary of the `kind` file at `path`, or CommandError: a sentence starting with
        `subject` ("cannot import /x/logo.svg", "fontFile /x/a.woff2"). `verify(real_path)`
        approves the opened file (a confined session's read check); `options` go to the task
        beside the file (a timeline's frameRate)."""
        spec = INPUTS[kind]
        try:
            fd = open_regular(path, verify)
        except NotRegularFile as error:
            raise CommandError(f"{subject}: it is {error.kind}, not {spec.what}; "
                               f"{spec.hint}.") from None
        except FileNotFoundError:
            raise CommandError(f"{subject}: there is no such file; check the path.") from None
        except OSError as error:
            raise CommandError(f"{subject}: it cannot be read ({error.strerror or error}).") \
                from None
        try:
            info = os.fstat(fd)
            if spec.limit is not None and info.st_size > spec.limit:
                raise CommandError(f"{subject}: at {info.st_size:,} bytes it is over the "
                                   f"{describe_bytes(spec.limit)} {spec.what} may be; "
                                   f"{spec.hint}.")
            key = (spec.task, path, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns,
                   json.dumps(options, sort_keys=True))
            payload = {"file": {"path": path, "name": shown(path),
                                "identity": [info.st_dev, info.st_ino]},
                       "limit": spec.limit, **(options or {})}
            return self._answer(key if spec.kept else None, spec.task, payload, subject,
                                cancel, remember=path)
        finally:
            os.close(fd)  # held until the worker has read: the inode it checks stays this one

    def known(self, path: str) -> dict | None:
        """The summary last read of the file at `path` (whatever it is now), or None: for
        warnings that must not wait on a worker (doc_inspect)."""
        with self._lock:
            found = self._by_path.get(path)
        return copy.deepcopy(found) if isinstance(found, dict) else None

    def measure_text(self, content: dict, times: list[float],
                     cancel: Cancel | None = None) -> list[dict]:
        """A text layer's units and ink at each time (workers/probes/text_metrics.py), laid out
        on a probe worker: its font file is read there."""
        font_file = content.get("fontFile")
        stamp = None
        if isinstance(font_file, str):
            try:
                info = os.stat(font_file)
                stamp = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
            except OSError:
                pass
        key = ("measure_text", json.dumps([content, times], sort_keys=True), stamp)
        return self._answer(key, "measure_text", {"content": content, "times": times},
                            "the text could not be measured", cancel)

    def check_output(self, path: str, expected: dict, cancel: Cancel | None = None) -> str | None:
        """What is wrong with a file a render just wrote (workers/probes/outputs.py), read back
        on a probe worker: None when it is whole, else a sentence."""
        try:
            fd = open_regular(path)
        except (NotRegularFile, OSError) as error:
            return f"it cannot be opened again ({error})"
        try:
            info = os.fstat(fd)
            payload = {"file": {"path": path, "name": shown(path),
                                "identity": [info.st_dev, info.st_ino]},
                       "expected": expected}
            found = self._run("check_output", payload, f"reading back {shown(path)}", cancel)
        except CommandError as error:  # the probe deadline: not known to be whole
            return str(error)
        finally:
            os.close(fd)
        return found

    def _answer(self, key: Any, task: str, payload: dict, subject: str,
                cancel: Cancel | None, remember: str | None = None):
        with self._lock:
            found = self._kept.get(key) if key is not None else None
            if found is not None:
                self._kept.move_to_end(key)
        if found is None:
            found = self._run(task, payload, subject, cancel)
            if key is not None:
                with self._lock:
                    self._kept[key] = found
                    if remember is not None:
                        self._by_path[remember] = found
                    while len(self._kept) > CACHE_SIZE:
                        self._kept.popitem(last=False)
                    if len(self._by_path) > CACHE_SIZE:
                        self._by_path.pop(next(iter(self._by_path)))
        if isinstance(found, str):
            raise CommandError(found)
        return copy.deepcopy(found)

    def _run(self, task: str, payload: dict, subject: str, cancel: Cancel | None):
        """The worker's summary, or the sentence refusing the file (a str, kept as a summary
        is: the same file is refused again without being read again). A refusal that the same
        file would earn again is kept: the worker's own sentence, a crash, its memory limit;
        a deadline, which a busy machine can cause, is not."""
        pool = self.pool
        try:
            return pool.run(KIND, task, payload, cancel=cancel)
        except JobFailed as error:
            if cancel is not None and cancel.cancelled:
                raise Cancelled(cancel.reason) from None
            if error.reason == "task":
                return str(error)  # the worker's own sentence, naming the file
            if error.reason in ("died", OUT_OF_MEMORY):
                return failure_sentence(subject, error, pool)
            raise CommandError(failure_sentence(subject, error, pool)) from None


def failure_sentence(subject: str, error: JobFailed, pool: Pool) -> str:
    """One sentence for a probe that ended without an answer: the worker ran past the probe
    deadline or out of its memory, crashed, or failed inside."""
    if error.reason == DEADLINE:
        return (f"{subject}: reading it took longer than the {pool.deadlines[KIND]:g} s probe "
                "deadline, so it was stopped; a file this slow to read is damaged or built to "
                "stall the reader, unless the machine is very busy: check it, or try again.")
    if error.reason == OUT_OF_MEMORY:
        return (f"{subject}: reading it needed more than the "
                f"{describe_bytes(pool.memory_limits[KIND])} a probe may use, so it was "
                "stopped; the file is too large, damaged, or built to inflate: check it or pick "
                "another file.")
    if error.reason == "died":
        return (f"{subject}: the program reading it crashed (its worker "
                f"{getattr(error, 'how', 'died')}); the file is damaged or built to break it: "
                "check it or pick another file.")
    return f"{subject}: it could not be read ({error}); check it or pick another file."


_own: list[Pool] = []
_own_lock = threading.Lock()


def own_pool() -> Pool:
    """This process's own pool, started on first use: for the probes of every Probes made
    without a pool, and for the sound a cluster render mixes on this node. Its forkserver is
    started by exec, so the threads this process may already run are never forked."""
    with _own_lock:
        if not _own:
            preload = worker_preload()
            _own.append(Pool(make_context(preload), 1, preload=preload))
        return _own[0]

