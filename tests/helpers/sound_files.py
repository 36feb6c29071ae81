"""Sound files made in a test (the wave module and PyAV encode numpy signals), and a way to
decode what a render wrote, so the audio tests measure real files both ways."""

from __future__ import annotations

import fractions
import wave

import av
import numpy as np

RATE = 48000


def tone(seconds: float, frequency: float = 440.0, amplitude: float = 0.5,
         rate: int = RATE) -> np.ndarray:
    """A sine, float32, one channel."""
    t = np.arange(int(round(seconds * rate))) / rate
    return (amplitude * np.sin(2 * np.pi * frequency * t)).astype(np.float32)


def write_wav(path, signal: np.ndarray, rate: int = RATE) -> str:
    """16-bit PCM through the wave module; `signal` is (n,) mono or (channels, n)."""
    channels = signal.reshape(-1, signal.shape[-1])
    samples = np.round(np.clip(channels, -1, 1) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(channels.shape[0])
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.T.tobytes())
    return str(path)


def write_sound(path, signal: np.ndarray, codec: str, rate: int = RATE,
                container: str | None = None, bitrate: int = 192000) -> str:
    """`signal` ((n,) or (channels, n)) encoded with PyAV: flac, libmp3lame, aac, libopus..."""
    channels = np.ascontiguousarray(signal.reshape(-1, signal.shape[-1]), np.float32)
    layout = "mono" if channels.shape[0] == 1 else "stereo"
    with av.open(str(path), "w", format=container) as out:
        stream = out.add_stream(codec, rate=rate, layout=layout)
        if codec not in ("flac",):
            stream.bit_rate = bitrate
        _encode_all(out, stream, channels, rate, layout)
    return str(path)


def write_video_with_sound(path, frames: int, frame_rate: int, signal: np.ndarray | None,
                           size: tuple[int, int] = (64, 36), rate: int = RATE,
                           sound_start: float = 0.0) -> str:
    """An H.264 clip of `frames` grey frames, with `signal` as its AAC sound (or none),
    starting `sound_start` seconds after the first frame."""
    width, height = size
    with av.open(str(path), "w") as out:
        video = out.add_stream("libx264", rate=frame_rate)
        video.width, video.height, video.pix_fmt = width, height, "yuv420p"
        sound = None
        if signal is not None:
            channels = np.ascontiguousarray(signal.reshape(-1, signal.shape[-1]), np.float32)
            layout = "mono" if channels.shape[0] == 1 else "stereo"
            sound = out.add_stream("aac", rate=rate, layout=layout)
        for index in range(frames):
            picture = np.full((height, width, 3), (index * 7) % 256, np.uint8)
            for packet in video.encode(av.VideoFrame.from_ndarray(picture, format="rgb24")):
                out.mux(packet)
        for packet in video.encode(None):
            out.mux(packet)
        if sound is not None:
            _encode_all(out, sound, channels, rate, layout, round(sound_start * rate))
    return str(path)


def _encode_all(out, stream, channels: np.ndarray, rate: int, layout: str,
                first_pts: int = 0) -> None:
    step = 4096
    for start in range(0, channels.shape[1], step):
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(channels[:, start:start + step]),
                                           format="fltp", layout=layout)
        frame.sample_rate = rate
        frame.pts = first_pts + start
        frame.time_base = fractions.Fraction(1, rate)
        for packet in stream.encode(frame):
            out.mux(packet)
    for packet in stream.encode(None):
        out.mux(packet)


def decode_sound(path) -> tuple[np.ndarray, int]:
    """Every channel of a file's first audio stream as float (channels, n), and its rate."""
    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        rate = stream.codec_context.sample_rate
        chunks = []
        for frame in container.decode(stream):
            array = frame.to_ndarray()
            if not frame.format.is_planar:
                array = array.reshape(-1, len(frame.layout.channels)).T
            if array.dtype.kind == "i":
                array = array / float(np.iinfo(array.dtype).max + 1)
            chunks.append(array.astype(np.float64))
    return np.concatenate(chunks, axis=1), rate


def stream_seconds(path) -> float:
    """The audio stream's length as its container states it."""
    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        if stream.duration is not None:
            return float(stream.duration * stream.time_base)
        return container.duration / av.time_base


def rms(signal: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(signal)))) if signal.size else 0.0


def onset(signal: np.ndarray, threshold: float = 0.01) -> int:
    """The first sample whose magnitude (any channel) passes `threshold`."""
    loud = np.flatnonzero(np.abs(signal).max(axis=0) > threshold)
    return int(loud[0]) if loud.size else -1
