"""protocol/wire/frames.py: the msgpack wire between supervisor and workers, with bytes alone."""

import struct

import msgpack
import pytest

from protocol.wire import frames


def test_frames_round_trip_in_any_chunking():
    data = b"".join(frames.encode({"kind": "progress", "id": i, "data": b"x" * i})
                    for i in range(50))
    for step in (1, 7, 4096, len(data)):
        reader = frames.FrameReader()
        got = []
        for start in range(0, len(data), step):
            got.extend(reader.feed(data[start:start + step]))
        assert [frame["id"] for frame in got] == list(range(50))
        assert got[49]["data"] == b"x" * 49


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
        frames.encode({"kind": "result", "id": 1, "value": b"x" * 200})
