"""The wire between the supervisor and one worker: length-delimited msgpack frames.

Each worker has its own socket pair, one writer per direction; nothing here is shared between
workers, so a bad frame is an error on that worker's channel only. A frame is a 4-byte
big-endian length, then a msgpack map whose "kind" says what it is:

  supervisor → worker
    job        {"id", "task", "payload"}   run a task; the worker runs one job at a time
    cancel     {"id"}                      stop that job at its next safe point
  worker → supervisor
    ready      {"pid"}                     the worker is up and waiting for jobs
    progress   {"id", "data"}              task-defined progress (frames done, output lines)
    heartbeat  {"id"}                      the job is alive; absence past the deadline = wedged
    log        {"record"}                  a logging record's dict, for logging.makeLogRecord
    result     {"id", "value"}             the job finished
    error      {"id", "message", "type"}   the job failed; message is a sentence for a person,
                                           type one of ERROR_TYPES, which says what the
                                           supervisor does next (below)

Sans-IO: `encode` makes bytes, `FrameReader.feed` takes bytes and returns whole frames. Both
enforce MAX_FRAME, so an oversized or garbage frame is a `FrameError`, never a hang or a
memory blow-up.
"""

from __future__ import annotations

import struct

import msgpack

# Large enough for a project document or a 4K preview PNG; small enough that a worker writing
# garbage cannot make the supervisor allocate gigabytes.
MAX_FRAME = 256 * 1024 * 1024
HEADER = struct.Struct(">I")

# The frame kinds, by name: code says JOB, not "job", so a misspelt kind is a NameError.
JOB, CANCEL = "job", "cancel"
READY, PROGRESS, HEARTBEAT, LOG, RESULT, ERROR = (
    "ready", "progress", "heartbeat", "log", "result", "error")
KINDS = frozenset({JOB, CANCEL, READY, PROGRESS, HEARTBEAT, LOG, RESULT, ERROR})

# An error frame's type: what failed, and so what the supervisor does next.
TASK_ERROR = "task"  # the job's input was bad; the message is for a person; the worker is fine
CANCELLED = "cancelled"  # the job stopped on its cancel
INTERNAL_ERROR = "internal"  # a bug in the task, or a result that could not be sent
# The job ran out of its worker's memory limit: the worker may be left with fragmented or
# half-built state, so the supervisor replaces it instead of reusing it.
OUT_OF_MEMORY = "memory"
# The worker does not hold the project snapshot the job names (it was replaced, or holds
# another): the supervisor sends the job once more with the document.
SNAPSHOT_MISSING = "snapshot-missing"
# A sandboxed shell's bubblewrap never ran the command (no namespace, a bind that failed); the
# message is bwrap's own line, which the supervisor turns into what to install or enable.
SANDBOX_FAILED = "sandbox-failed"
ERROR_TYPES = frozenset({TASK_ERROR, CANCELLED, INTERNAL_ERROR, OUT_OF_MEMORY, SNAPSHOT_MISSING,
                         SANDBOX_FAILED})


# The fields each kind must carry. A frame that decodes but lacks them is as unusable as garbage,
# and must fail the same way (a log record that is not a map would otherwise raise inside the
# supervisor's logging, leaving the worker in the pool with a half-read pipe).
FIELDS: dict[str, dict[str, type]] = {
    "job": {"id": int, "task": str}, "cancel": {"id": int}, "ready": {"pid": int},
    "progress": {"id": int}, "heartbeat": {"id": int}, "log": {"record": dict},
    "result": {"id": int}, "error": {"id": int, "message": str},
}
LOG_RECORD: dict[str, type] = {"name": str, "levelno": int, "msg": str}


class FrameError(Exception):
    """The channel carried something that is not a valid frame; the channel is unusable."""


def job(job_id: int, task: str, payload) -> dict:
    return {"kind": JOB, "id": job_id, "task": task, "payload": payload}


def cancel(job_id: int) -> dict:
    return {"kind": CANCEL, "id": job_id}


def result(job_id: int, value) -> dict:
    return {"kind": RESULT, "id": job_id, "value": value}


def error(job_id: int, type: str, message: str) -> dict:
    """A failed job's answer; `type` is one of ERROR_TYPES."""
    return {"kind": ERROR, "id": job_id, "type": type, "message": message}


def encode(frame: dict) -> bytes:
    body = msgpack.packb(frame, use_bin_type=True)
    if len(body) > MAX_FRAME:
        raise FrameError(f"a {frame.get('kind')} frame of {len(body)} bytes is over the "
                         f"{MAX_FRAME}-byte limit")
    return HEADER.pack(len(body)) + body


def decode_body(body: bytes) -> dict:
    try:
        frame = msgpack.unpackb(body, raw=False, strict_map_key=False)
    except Exception as exc:  # msgpack raises several unrelated types for bad input
        raise FrameError(f"a frame could not be decoded ({type(exc).__name__}: {exc})") from None
    if not isinstance(frame, dict) or frame.get("kind") not in KINDS:
        raise FrameError("a frame is not a map with a known \"kind\"")
    for name, kind in FIELDS[frame["kind"]].items():
        if not isinstance(frame.get(name), kind):
            raise FrameError(f"a {frame['kind']} frame lacks a {kind.__name__} {name!r}")
    if frame["kind"] == LOG:
        record = frame["record"]
        if not all(isinstance(record.get(name), kind) for name, kind in LOG_RECORD.items()) \
                or not all(isinstance(name, str) for name in record):
            raise FrameError("a log frame's record lacks a str name, an int levelno or a str msg")
    return frame


class FrameReader:
    """Accumulates bytes from a channel and yields whole frames."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[dict]:
        self._buffer += data
        frames = []
        while len(self._buffer) >= HEADER.size:
            (length,) = HEADER.unpack_from(self._buffer)
            if length > MAX_FRAME:
                raise FrameError(f"a frame announces {length} bytes, over the "
                                 f"{MAX_FRAME}-byte limit")
            end = HEADER.size + length
            if len(self._buffer) < end:
                break
            body = bytes(self._buffer[HEADER.size:end])
            del self._buffer[:end]
            frames.append(decode_body(body))
        return frames
