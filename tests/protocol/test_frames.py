"""protocol/wire/frames.py: the msgpack wire between supervisor and workers, with bytes alone."""

import struct

import msgpack
import pytest

from protocol.wire import frames


def test_frames_round_trip_in_any_chunking():
    data = b"".join(frames.encode(frames.Progress(i, b"x" * i)) for i in range(50))
    for step in (1, 7, 4096, len(data)):
        reader = frames.FrameReader()
        got = []
        for start in range(0, len(data), step):
            got.extend(reader.feed(data[start:start + step]))
        assert [frame.id for frame in got] == list(range(50))
        assert got[49] == frames.Progress(49, b"x" * 49)


def test_an_oversized_announced_length_is_an_error_before_any_allocation():
    reader = frames.FrameReader()
    with pytest.raises(frames.FrameError, match="over the"):
        reader.feed(struct.pack(">I", frames.MAX_FRAME + 1) + b"abc")


def test_garbage_bytes_are_a_frame_error():
    reader = frames.FrameReader()
    with pytest.raises(frames.FrameError):
        reader.feed(struct.pack(">I", 3) + b"\xc1\xc1\xc1")


def test_a_map_without_a_known_kind_is_refused():
    body = msgpack.packb({"kind": "launch_missiles"})
    with pytest.raises(frames.FrameError, match="kind"):
        frames.FrameReader().feed(struct.pack(">I", len(body)) + body)


def test_encoding_an_oversized_frame_is_refused(monkeypatch):
    monkeypatch.setattr(frames, "MAX_FRAME", 100)
    with pytest.raises(frames.FrameError):
        frames.encode(frames.Result(1, b"x" * 200))


EVERY_KIND = [frames.Job(1, "shell", {"command": "true"}), frames.CancelJob(1), frames.Ready(42),
              frames.Progress(1, {"stream": "stdout", "data": b"ok"}),
              frames.CommandStarted(1, 4242), frames.Heartbeat(1),
              frames.Log({"name": "rendervisor", "levelno": 30, "msg": "hello"}),
              frames.Result(1, [1, 2]), frames.JobError(1, frames.TASK_ERROR, "no such comp")]


def test_every_kind_is_one_class_and_round_trips_as_itself():
    assert sorted(frames.FRAMES) == sorted(type(frame).KIND for frame in EVERY_KIND)
    data = b"".join(frames.encode(frame) for frame in EVERY_KIND)
    assert frames.FrameReader().feed(data) == EVERY_KIND


def test_a_commands_start_is_a_frame_of_its_own_not_progress_carrying_a_pid():
    """A task's progress that happens to hold a "pid" is progress; only CommandStarted names a
    command's group to kill."""
    [progress] = frames.FrameReader().feed(frames.encode(frames.Progress(3, {"pid": 1})))
    assert isinstance(progress, frames.Progress) and not isinstance(progress,
                                                                     frames.CommandStarted)
    [started] = frames.FrameReader().feed(frames.encode(frames.CommandStarted(3, 77)))
    assert started == frames.CommandStarted(3, 77)


@pytest.mark.parametrize("body, problem", [
    ({"kind": "started", "id": 1}, "lacks 'pid'"),
    ({"kind": "started", "id": 1, "pid": "12"}, "'pid' is not a int"),
    ({"kind": "result", "id": True}, "'id' is not a int"),
    ({"kind": "error", "id": 1, "message": "m"}, "lacks 'type'"),
    ({"kind": "log", "record": "not a map"}, "'record' is not a dict"),
    ({"kind": "log", "record": {"name": "x"}}, "record lacks"),
])
def test_a_frame_missing_a_field_or_with_one_of_the_wrong_type_is_refused(body, problem):
    packed = msgpack.packb(body)
    with pytest.raises(frames.FrameError, match=problem):
        frames.FrameReader().feed(struct.pack(">I", len(packed)) + packed)
