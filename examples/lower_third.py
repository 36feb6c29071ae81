"""The second example: a lower third (name and role on a sliding plate) over a video clip and
a sound bed, built with engine commands; the clip and the bed are made here too, so the
example needs nothing else.

    python examples/lower_third.py       # rewrites the clip, the bed and lower_third.rvproj
    rendervisor render examples/lower_third.rvproj   # -> examples/renders/lower_third.mp4

The clip (640x360, 3 s at 30 fps, H.264, about 100 KB) is drifting soft lights over a slow
gradient, drawn with numpy and encoded with PyAV. The bed (3 s, 24 kHz mono WAV, 144 KB,
written with the wave module) is a soft A minor chord that swells and breathes, with a little
filtered noise for air. The comp (1280x720, 30 fps, 3 s) shows the clip at 200%, and a plate slides in
from the left (easeOut) and out again (easeIn), carrying an accent bar and two lines of text
as child layers (`parent`), so one animation moves them all; the bed fades in as the plate
arrives and out as it leaves (audio.level keys), under the picture, so the render's mp4
carries AAC sound. Footage and output paths are stored relative to the project file, so it
renders from any clone.
"""

from __future__ import annotations

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
COMP = "Lower Third"
WIDTH, HEIGHT, FPS, DURATION = 1280, 720, 30, 3.0
CLIP_NAME = "lower_third_clip.mp4"
CLIP_WIDTH, CLIP_HEIGHT = 640, 360
BED_NAME = "lower_third_bed.wav"
BED_RATE = 24000  # a soft pad needs no more; the mix resamples it to 48 kHz
# The bed's chord (A minor: A3, C4, E4) in Hz, each with its share of the amplitude.
CHORD = [(220.0, 0.5), (261.63, 0.3), (329.63, 0.25)]
ACCENT = "#3fd0c9"
# Soft lights: (x, y) at t=0 as fractions of the frame, drift in px per frame, radius, color.
LIGHTS = [((0.2, 0.3), (1.2, 0.2), 70, (255, 190, 120)),
          ((0.7, 0.6), (-0.8, -0.3), 90, (120, 200, 255)),
          ((0.5, 0.2), (0.5, 0.4), 50, (255, 140, 200)),
          ((0.9, 0.2), (-1.0, 0.5), 60, (180, 255, 170))]


def clip_frame(index: int) -> np.ndarray:
    """Frame `index` of the clip as RGB uint8: a gradient that shifts, plus additive lights."""
    y, x = np.mgrid[0:CLIP_HEIGHT, 0:CLIP_WIDTH].astype(np.float32)
    shift = index / (FPS * DURATION)
    image = np.empty((CLIP_HEIGHT, CLIP_WIDTH, 3), np.float32)
    image[..., 0] = 20 + 30 * (x / CLIP_WIDTH) + 20 * shift
    image[..., 1] = 25 + 25 * (y / CLIP_HEIGHT)
    image[..., 2] = 60 + 50 * (1 - y / CLIP_HEIGHT) - 20 * shift
    for (fx, fy), (dx, dy), radius, color in LIGHTS:
        cx, cy = fx * CLIP_WIDTH + dx * index, fy * CLIP_HEIGHT + dy * index
        glow = np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * radius ** 2))
        image += glow[..., None] * (np.array(color, np.float32) * 0.6)
    return np.clip(image, 0, 255).astype(np.uint8)


def write_clip(path: str) -> str:
    import av
    with av.open(path, "w") as container:
        stream = container.add_stream("libx264", rate=FPS)
        stream.width, stream.height, stream.pix_fmt = CLIP_WIDTH, CLIP_HEIGHT, "yuv420p"
        # Soft, slow pictures compress well; crf 24 keeps the committed file small.
        stream.options = {"crf": "24", "preset": "slow"}
        for index in range(int(FPS * DURATION)):
            frame = av.VideoFrame.from_ndarray(clip_frame(index), format="rgb24")
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return path


def bed_samples() -> np.ndarray:
    """The bed as int16 mono: the chord under a slow swell, a gentle tremolo on it, and
    noise smoothed to a soft hiss (a fixed seed, so the file is the same on every machine)."""
    t = np.arange(int(BED_RATE * DURATION)) / BED_RATE
    chord = sum(share * np.sin(2 * np.pi * hz * t) for hz, share in CHORD)
    swell = 0.6 + 0.4 * np.sin(np.pi * t / DURATION)
    tremolo = 1 + 0.08 * np.sin(2 * np.pi * 3.0 * t)
    noise = np.random.default_rng(2024).standard_normal(t.size)
    air = np.convolve(noise, np.ones(24) / 24, mode="same") * 0.6
    signal = 0.3 * (chord * swell * tremolo + air)
    return np.round(np.clip(signal, -1, 1) * 32767).astype("<i2")


def write_bed(path: str) -> str:
    import wave
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(BED_RATE)
        out.writeframes(bed_samples().tobytes())
    return path


def build(folder: str = HERE, clip: str | None = None, bed: str | None = None) -> str:
    """Write the clip and the bed (unless `clip` and `bed` name ones already written) and
    lower_third.rvproj into `folder`; the project's path."""
    sys.path.insert(0, os.path.dirname(HERE))
    from supervisor.engine.engine import Engine

    clip = clip or write_clip(os.path.join(folder, CLIP_NAME))
    bed = bed or write_bed(os.path.join(folder, BED_NAME))
    engine = Engine()
    run = engine.run
    run("project.new", {"name": "Lower third"})
    run("comp.new", {"name": COMP, "width": WIDTH, "height": HEIGHT, "frameRate": FPS,
                     "duration": DURATION})
    run("layer.add", {"comp": COMP, "type": "video", "name": "Clip", "path": clip,
                      "scale": [200, 200]})

    plate_w, plate_h = 560, 120
    rest_x = 80 + plate_w / 2
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Plate", "shape": "rect",
                      "size": [plate_w, plate_h], "fill": "#0c1020d9", "cornerRadius": 6,
                      "position": [rest_x, HEIGHT - 140]})
    for time, x, interpolation in [(0.2, -plate_w / 2, "easeOut"), (0.9, rest_x, "hold"),
                                   (2.3, rest_x, "easeIn"), (2.9, -plate_w / 2, "linear")]:
        run("prop.addKey", {"comp": COMP, "layer": "Plate", "path": "transform.position",
                            "time": time, "value": [x, HEIGHT - 140],
                            "interpolation": interpolation})
    # Children sit in the plate's own coordinates: (0, 0) is its top-left corner.
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Accent", "shape": "rect",
                      "size": [8, plate_h], "fill": ACCENT, "parent": "Plate",
                      "position": [4, plate_h / 2]})
    run("layer.add", {"comp": COMP, "type": "text", "name": "Name", "text": "Ada Lovelace",
                      "font": "Raleway", "bold": True, "size": 44, "align": "left",
                      "fill": "#ffffff", "parent": "Plate", "position": [34, 44]})
    run("layer.add", {"comp": COMP, "type": "text", "name": "Role",
                      "text": "Analyst, Analytical Engine", "font": "Raleway", "size": 26,
                      "align": "left", "fill": ACCENT, "parent": "Plate",
                      "position": [34, 88]})
    run("prop.addKey", {"comp": COMP, "layer": "Role", "path": "transform.opacity",
                        "time": 0.6, "value": 0, "interpolation": "linear"})
    run("prop.addKey", {"comp": COMP, "layer": "Role", "path": "transform.opacity",
                        "time": 1.1, "value": 100, "interpolation": "linear"})

    # The bed, under everything: up from a whisper (-60 dB) as the plate arrives, down again
    # as it leaves; a level eases in dB, so a fade from -60 rather than from silence (-96)
    # is heard from its start.
    run("layer.add", {"comp": COMP, "type": "audio", "name": "Bed", "path": bed,
                      "index": 6})
    for time, level in ((0.0, -60), (0.9, -6), (2.3, -6), (3.0, -60)):
        run("prop.addKey", {"comp": COMP, "layer": "Bed", "path": "audio.level",
                            "time": time, "value": level})

    run("renderQueue.add", {"comp": COMP,
                            "output": os.path.join(folder, "renders", "lower_third.mp4")})
    path = os.path.join(folder, "lower_third.rvproj")
    run("project.save", {"path": path})
    return path


if __name__ == "__main__":
    print(build())
