"""A segment's encoder on its own thread (workers/exporter/encoder_thread.py): it codes frame N
while the caller makes frame N+1, in order, and its failures reach the caller."""

import threading

import numpy as np
import pytest

from workers.exporter import OpenedFiles, SegmentError, encode_segment
from workers.exporter import segments
from workers.exporter.encoder_thread import DEPTH, EncoderThread

# A bound on waits that only a broken implementation reaches: never a timing assertion.
WAIT = 30.0


def test_the_encoder_codes_a_frame_while_the_caller_makes_the_next():
    next_put = threading.Event()
    encoded = []

    def encode(frame, index):
        if index == 0:
            # Coded on the caller's thread, this would wait for a put that never comes.
            assert next_put.wait(WAIT), "frame 1 was not made while frame 0 was encoded"
        encoded.append(index)

    encoder = EncoderThread(encode)
    encoder.put("frame 0", 0)
    encoder.put("frame 1", 1)
    next_put.set()
    for index in range(2, 10):
        encoder.put(f"frame {index}", index)
    encoder.finish()
    assert encoded == list(range(10))
    assert not encoder._thread.is_alive()


def test_an_encoder_failure_reaches_the_caller_at_its_next_put_or_at_finish():
    failed = threading.Event()

    def encode(frame, index):
        if index == 1:
            failed.set()
            raise SegmentError("the encoder refused frame 1")

    encoder = EncoderThread(encode)
    encoder.put("frame 0", 0)
    encoder.put("frame 1", 1)
    assert failed.wait(WAIT)
    with pytest.raises(SegmentError, match="refused frame 1"):
        for index in range(2, 2 + DEPTH + 2):
            encoder.put(f"frame {index}", index)
        encoder.finish()
    encoder.stop()
    assert not encoder._thread.is_alive()


def test_stop_drops_the_frames_not_encoded_and_ends_the_thread():
    release = threading.Event()
    encoded = []

    def encode(frame, index):
        release.wait(WAIT)
        encoded.append(index)

    encoder = EncoderThread(encode)
    for index in range(DEPTH + 1):  # one being encoded, DEPTH waiting
        encoder.put(index, index)
    release.set()
    encoder.stop()
    assert not encoder._thread.is_alive()
    assert encoded == [0]


def frames(count: int, width: int = 64, height: int = 48):
    for index in range(count):
        pixels = np.zeros((height, width, 4), np.uint8)
        pixels[..., 0] = (np.arange(width) * 4 + index * 9) % 256
        pixels[..., 1] = index * 12
        pixels[..., 3] = 255
        yield pixels


class _OnCallerThread:
    """EncoderThread's interface, encoding on the caller's thread: how segments were made."""

    def __init__(self, encode):
        self.put = encode

    def finish(self):
        pass

    def stop(self):
        pass


def test_a_segment_encoded_beside_the_drawing_is_the_one_encoded_after_it(tmp_path,
                                                                          monkeypatch):
    def segment(name):
        path = str(tmp_path / name)
        encode_segment(frames(20), 0, 30, "h264", {"threads": "1"}, path, OpenedFiles(),
                       keyframe_interval=8)
        with open(path, "rb") as handle:
            return handle.read()

    threaded = segment("threaded.mp4")
    with monkeypatch.context() as patch:
        patch.setattr(segments, "EncoderThread", _OnCallerThread)
        inline = segment("inline.mp4")
    assert threaded == inline


def test_a_failing_frame_source_leaves_no_encoder_thread(tmp_path):
    def failing():
        yield from frames(5)
        raise RuntimeError("the compositor failed on frame 5")

    before = set(threading.enumerate())
    with pytest.raises(RuntimeError, match="frame 5"):
        encode_segment(failing(), 0, 30, "h264", {"threads": "1"}, str(tmp_path / "s.mp4"),
                       OpenedFiles(), keyframe_interval=8)
    assert not [thread for thread in set(threading.enumerate()) - before
                if thread.name == "segment encoder"]
