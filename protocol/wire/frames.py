"""The wire between the supervisor and one worker: length-delimited msgpack frames, each a small
typed class.

Each worker has its own socket pair, one writer per direction; nothing here is shared between
workers, so a bad frame is an error on that worker's channel only. A frame is a 4-byte
big-endian length, then a msgpack map whose "kind" says which class it is:

  supervisor → worker
    Job             job        {id, task, payload}   run a task; one job at a time
    CancelJob       cancel     {id}                  stop that job at its next safe point
  worker → supervisor
    Ready           ready      {pid}                 the worker is up and waiting for jobs
    Progress        progress   {id, data}            task-defined progress (a frame written,
                                                     a shell's output)
    CommandStarted  started    {id, pid}             a shell's command started; it leads a
                                                     session of its own, whose group the
                                                     supervisor kills even if the worker dies
    Heartbeat       heartbeat  {id}                  the job is alive; absence past the
                                                     deadline = wedged
    Log             log        {record}              a logging record's dict, for
                                                     logging.makeLogRecord
    Result          result     {id, value}           the job finished
    JobError        error      {id, type, message}   the job failed; message is a sentence
                                                     for a person, type one of ERROR_TYPES,
                                                     which says what the supervisor does next

The classes are the one list of kinds: `FRAMES` is built from them, and a frame's fields and
their types are the class's. Sans-IO: `encode` makes bytes, `FrameReader.feed` takes bytes and
returns typed frames. Both enforce MAX_FRAME, so an oversized or garbage frame is a
`FrameError`, never a hang or a memory blow-up; a map that decodes but lacks a field, or carries
one of the wrong type, fails the same way.
"""

from __future__ import annotations

import dataclasses
import struct
import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Union

import msgpack

# Large enough for a project document or a 4K preview PNG; small enough that a worker writing
# garbage cannot make the supervisor allocate gigabytes.
MAX_FRAME = 256 * 1024 * 1024
HEADER = struct.Struct(">I")

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

# What a log frame's record must hold for logging.makeLogRecord: a record that is not such a
# map would otherwise raise inside the supervisor's logging, leaving the worker in the pool
# with a half-read pipe.
LOG_RECORD: dict[str, type] = {"name": str, "levelno": int, "msg": str}


class FrameError(Exception):
    """The channel carried something that is not a valid frame; the channel is unusable."""


# -- the frames ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Job:
    id: int
    task: str
    payload: Any = None
    KIND: ClassVar[str] = "job"


@dataclass(frozen=True)
class CancelJob:
    id: int
    KIND: ClassVar[str] = "cancel"


@dataclass(frozen=True)
class Ready:
    pid: int
    KIND: ClassVar[str] = "ready"


@dataclass(frozen=True)
class Progress:
    id: int
    data: Any = None
    KIND: ClassVar[str] = "progress"


@dataclass(frozen=True)
class CommandStarted:
    id: int
    pid: int
    KIND: ClassVar[str] = "started"


@dataclass(frozen=True)
class Heartbeat:
    id: int
    KIND: ClassVar[str] = "heartbeat"


@dataclass(frozen=True)
class Log:
    record: dict
    KIND: ClassVar[str] = "log"


@dataclass(frozen=True)
class Result:
    id: int
    value: Any = None
    KIND: ClassVar[str] = "result"


@dataclass(frozen=True)
class JobError:
    id: int
    type: str
    message: str
    KIND: ClassVar[str] = "error"


Frame = Union[Job, CancelJob, Ready, Progress, CommandStarted, Heartbeat, Log, Result, JobError]
# Every frame class by its kind: the one list (a misspelt kind is an AttributeError in code,
# and a FrameError on the wire).
FRAMES: dict[str, type] = {cls.KIND: cls for cls in typing.get_args(Frame)}
# The frames that answer a job: after one of these, the job is over.
ANSWERS = (Result, JobError)


def _checked_fields(cls: type) -> dict[str, tuple[type, bool]]:
    """name -> (type to check, required) for a frame class's fields; Any is not checked."""
    hints = typing.get_type_hints(cls)
    return {field.name: (hints[field.name], field.default is dataclasses.MISSING)
            for field in dataclasses.fields(cls)}


_FIELDS = {kind: _checked_fields(cls) for kind, cls in FRAMES.items()}


def encode(frame: Frame) -> bytes:
    body = {"kind": frame.KIND}
    for name in _FIELDS[frame.KIND]:
        body[name] = getattr(frame, name)
    packed = msgpack.packb(body, use_bin_type=True)
    if len(packed) > MAX_FRAME:
        raise FrameError(f"a {frame.KIND} frame of {len(packed)} bytes is over the "
                         f"{MAX_FRAME}-byte limit")
    return HEADER.pack(len(packed)) + packed


def decode_body(body: bytes) -> Frame:
    try:
        data = msgpack.unpackb(body, raw=False, strict_map_key=False)
    except Exception as exc:  # msgpack raises several unrelated types for bad input
        raise FrameError(f"a frame could not be decoded ({type(exc).__name__}: {exc})") from None
    if not isinstance(data, dict) or data.get("kind") not in FRAMES:
        raise FrameError("a frame is not a map with a known \"kind\"")
    kind = data["kind"]
    values = {}
    for name, (kind_of, required) in _FIELDS[kind].items():
        if name not in data:
            if required:
                raise FrameError(f"a {kind} frame lacks {name!r}")
            continue
        value = data[name]
        if kind_of is not Any and (not isinstance(value, kind_of)
                                   or (kind_of is int and isinstance(value, bool))):
            raise FrameError(f"a {kind} frame's {name!r} is not a {kind_of.__name__}")
        values[name] = value
    if kind == Log.KIND:
        record = values["record"]
        if not all(isinstance(record.get(name), of) for name, of in LOG_RECORD.items()) \
                or not all(isinstance(name, str) for name in record):
            raise FrameError("a log frame's record lacks a str name, an int levelno or a str msg")
    return FRAMES[kind](**values)


class FrameReader:
    """Accumulates bytes from a channel and yields whole frames."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Frame]:
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
