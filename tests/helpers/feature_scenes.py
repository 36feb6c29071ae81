"""Comps that use every feature the compositor draws, built with the engine's own commands, for
the tests that hold a render plan (and its kept still layers) to the document walk
(tests/compositor/test_plan_pixels.py, test_still_layers.py).

`feature_engine(folder)`: "Main", 320x180 at 30 fps for 2 s, bottom to top: still layers (a
gradient shape, a solid, a still text, an SVG logo, a still image, a still precomp), then a
video, a Lottie animation, a precomp with keyed time remapping around a nested precomp, a
text with a per-character animator, a path with a keyed trim and dashes, a masked solid with
a keyed feather, a track matte, a parented, auto-oriented layer on a curved motion path,
blended and faded shapes, keyed effects, a layer that ends half way. "Blurred": the same sort
of motion under motion blur. "Still": only still layers (for the kept still bottom).
"""

from __future__ import annotations

import json
import os

import av
import numpy as np
import skia

from supervisor.engine.engine import Engine
from tests.helpers.lottie_documents import moving_square

SIZE = (320, 180)
RATE, DURATION = 30, 2.0
LOGO = (b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
        b'<rect width="40" height="20" fill="#2060ff"/>'
        b'<circle cx="20" cy="10" r="6" fill="#ff4020"/></svg>')


def write_picture(path: str, width: int = 48, height: int = 32) -> str:
    y, x = np.mgrid[0:height, 0:width]
    pixels = np.empty((height, width, 4), np.uint8)
    pixels[..., 0] = x * 255 // (width - 1)
    pixels[..., 1] = y * 255 // (height - 1)
    pixels[..., 2] = ((x // 8 + y // 8) % 2) * 200
    pixels[..., 3] = 255
    skia.Image.fromarray(pixels, colorType=skia.kRGBA_8888_ColorType).save(path, skia.kPNG)
    return path


def write_video(path: str, frames: int = 30) -> str:
    """A clip whose frames differ (a bar moving across), so a frame shown is a frame read."""
    with av.open(path, "w") as container:
        stream = container.add_stream("libx264", rate=RATE)
        stream.width, stream.height = 64, 48
        stream.pix_fmt = "yuv444p"
        stream.options = {"qp": "0", "g": "10"}
        for index in range(frames):
            pixels = np.full((48, 64, 3), 40, np.uint8)
            pixels[:, (index * 2) % 56:(index * 2) % 56 + 8] = (250, 200, 30)
            for packet in stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return path


def _keys(run, comp: str, layer: str, path: str, *pairs, **key) -> None:
    for time, value in pairs:
        run("prop.addKey", {"comp": comp, "layer": layer, "path": path, "time": time,
                            "value": value, **key})


def _still_layers(run, comp: str, folder: str) -> None:
    """The bottom of a comp, nothing of it moving (each new layer goes on top)."""
    run("layer.add", {"comp": comp, "type": "shape", "name": "Backdrop", "shape": "rect",
                      "size": list(SIZE), "position": [SIZE[0] / 2, SIZE[1] / 2],
                      "fill": {"type": "linear", "start": [0, 0], "end": [320, 180],
                               "stops": [[0, [0.1, 0.1, 0.3, 1]], [1, [0.4, 0.1, 0.2, 1]]]}})
    run("layer.add", {"comp": comp, "type": "solid", "name": "Panel", "color": "#204030",
                      "width": 120, "height": 60, "position": [80, 50], "rotation": 8,
                      "opacity": 80})
    run("layer.add", {"comp": comp, "type": "text", "name": "Caption", "text": "still words",
                      "font": "Lato", "size": 18, "position": [240, 30], "fill": "#e0e0a0",
                      "stroke": "#000000", "strokeWidth": 2})
    run("layer.add", {"comp": comp, "type": "image", "name": "Logo",
                      "path": _write(folder, "logo.svg", LOGO), "position": [40, 150]})
    run("layer.add", {"comp": comp, "type": "image", "name": "Picture",
                      "path": write_picture(os.path.join(folder, "picture.png")),
                      "position": [280, 150], "scale": [80, 80]})


def _write(folder: str, name: str, data: bytes) -> str:
    path = os.path.join(folder, name)
    with open(path, "wb") as handle:
        handle.write(data)
    return path


def feature_engine(folder: str) -> Engine:
    engine = Engine()
    run = engine.run
    run("comp.new", {"name": "Inner", "width": 100, "height": 60, "frameRate": RATE,
                     "duration": 1.0, "background": [0, 0, 0, 0]})
    run("layer.add", {"comp": "Inner", "type": "solid", "name": "Dot", "color": "#ffffff",
                      "width": 12, "height": 12})
    _keys(run, "Inner", "Dot", "transform.position", (0, [10, 30]), (1, [90, 30]))
    run("comp.new", {"name": "Outer", "width": 120, "height": 80, "frameRate": RATE,
                     "duration": 2.0})
    run("layer.add", {"comp": "Outer", "type": "precomp", "name": "Nested", "source": "Inner",
                      "loop": True})
    _keys(run, "Outer", "Nested", "transform.rotation", (0, 0), (2, 45))
    run("comp.new", {"name": "Held", "width": 60, "height": 40, "frameRate": RATE,
                     "duration": 2.0})
    run("layer.add", {"comp": "Held", "type": "solid", "name": "Square", "color": "#ff8000",
                      "width": 30, "height": 30, "rotation": 20})

    run("comp.new", {"name": "Main", "width": SIZE[0], "height": SIZE[1], "frameRate": RATE,
                     "duration": DURATION, "background": "#101018"})
    _still_layers(run, "Main", folder)
    run("layer.add", {"comp": "Main", "type": "precomp", "name": "Still precomp",
                      "source": "Held", "position": [160, 150]})
    run("layer.add", {"comp": "Main", "type": "video", "name": "Clip",
                      "path": write_video(os.path.join(folder, "clip.mp4")),
                      "position": [60, 100]})
    run("layer.add", {"comp": "Main", "type": "lottie", "name": "Anim", "scale": [30, 30],
                      "path": _write(folder, "anim.json", json.dumps(moving_square()).encode()),
                      "position": [250, 100]})
    run("layer.add", {"comp": "Main", "type": "precomp", "name": "Remapped", "source": "Outer",
                      "position": [160, 90], "opacity": 90})
    _keys(run, "Main", "Remapped", "timeRemap", (0, 0.0), (1, 1.5), (2, 0.5))
    run("layer.add", {"comp": "Main", "type": "text", "name": "Title", "text": "Plan frames",
                      "font": "Poppins", "size": 28, "position": [160, 40], "fill": "#ffffff"})
    run("text.animate", {"comp": "Main", "layer": "Title", "preset": "pop", "start": 0.0,
                         "duration": 1.5})
    run("layer.add", {"comp": "Main", "type": "shape", "name": "Trace", "shape": "path",
                      "points": [[0, 40], [40, 0], [80, 40], [120, 0]], "closed": False,
                      "inTangents": [[0, 0], [-10, 0], [0, 0], [-10, 0]],
                      "outTangents": [[10, 0], [0, 0], [10, 0], [0, 0]],
                      "size": [120, 40], "fill": None, "stroke": "#40ff80", "strokeWidth": 3,
                      "dashes": [8, 4], "position": [170, 120]})
    _keys(run, "Main", "Trace", "trimEnd", (0, 0), (1.5, 100))
    _keys(run, "Main", "Trace", "dashOffset", (0, 0), (2, 24))
    run("layer.add", {"comp": "Main", "type": "solid", "name": "Masked", "color": "#ff40a0",
                      "width": 80, "height": 50, "position": [90, 110]})
    run("mask.add", {"comp": "Main", "layer": "Masked", "shape": "ellipse", "mode": "add",
                     "feather": 4})
    _keys(run, "Main", "Masked", "masks.1.feather", (0, 0), (2, 20))
    run("layer.add", {"comp": "Main", "type": "solid", "name": "Matted", "color": "#30c0ff",
                      "width": 100, "height": 40, "position": [240, 60]})
    run("layer.add", {"comp": "Main", "type": "text", "name": "Matte", "text": "MATTE",
                      "font": "Roboto", "bold": True, "size": 30, "position": [240, 60]})
    run("layer.set", {"comp": "Main", "layer": "Matted", "trackMatte": "luma"})
    _keys(run, "Main", "Matte", "transform.position", (0, [220, 60]), (2, [260, 60]))
    run("layer.add", {"comp": "Main", "type": "solid", "name": "Pivot", "color": "#000000",
                      "width": 1, "height": 1, "position": [160, 90], "enabled": False})
    _keys(run, "Main", "Pivot", "transform.rotation", (0, 0), (2, 30))
    run("layer.add", {"comp": "Main", "type": "shape", "name": "Arrow", "shape": "polygon",
                      "points": 3, "size": [16, 16], "fill": "#ffe040", "parent": "Pivot",
                      "autoOrient": True})
    run("prop.addKey", {"comp": "Main", "layer": "Arrow", "path": "transform.position",
                        "time": 0, "value": [-120, 40], "spatialOut": [60, -80]})
    run("prop.addKey", {"comp": "Main", "layer": "Arrow", "path": "transform.position",
                        "time": 2, "value": [120, -40], "spatialIn": [-60, 80],
                        "interpolation": "easyEase"})
    for index, (mode, x) in enumerate((("screen", 40), ("multiply", 90), ("add", 140))):
        run("layer.add", {"comp": "Main", "type": "shape", "name": f"Blend {index}",
                          "shape": "ellipse", "size": [40, 40], "fill": "#a060ff",
                          "stroke": "#ffffff", "strokeWidth": 2, "blendMode": mode,
                          "position": [x, 70]})
        _keys(run, "Main", f"Blend {index}", "transform.opacity", (0, 100), (2, 30),
              interpolation="easeIn")
    run("layer.add", {"comp": "Main", "type": "shape", "name": "Glowing", "shape": "star",
                      "points": 5, "size": [40, 40], "fill": "#ffffff", "position": [280, 40],
                      "outPoint": 1.0})
    run("effect.add", {"comp": "Main", "layer": "Glowing", "effect": "glow"})
    run("effect.add", {"comp": "Main", "layer": "Glowing", "effect": "gaussianBlur",
                       "params": {"radius": 2}})
    _keys(run, "Main", "Glowing", "effects.2.radius", (0, 0), (1, 6))
    run("layer.add", {"comp": "Main", "type": "shape", "name": "Shadowed", "shape": "rect",
                      "size": [30, 20], "cornerRadius": 4, "fill": "#80ff80",
                      "position": [20, 20]})
    run("effect.add", {"comp": "Main", "layer": "Shadowed", "effect": "dropShadow"})
    _keys(run, "Main", "Shadowed", "transform.position", (0, [20, 20]), (2, [300, 160]),
          interpolation={"spring": {"stiffness": 120, "damping": 8, "mass": 1}})

    run("comp.new", {"name": "Blurred", "width": SIZE[0], "height": SIZE[1],
                     "frameRate": RATE, "duration": DURATION, "background": "#000000"})
    run("comp.set", {"comp": "Blurred", "motionBlur": {"enabled": True, "samples": 6,
                                                       "shutterAngle": 180}})
    _still_layers(run, "Blurred", folder)
    run("layer.add", {"comp": "Blurred", "type": "solid", "name": "Fast", "color": "#ffffff",
                      "width": 30, "height": 30})
    _keys(run, "Blurred", "Fast", "transform.position", (0, [0, 90]), (2, [320, 90]))

    run("comp.new", {"name": "Still", "width": SIZE[0], "height": SIZE[1], "frameRate": RATE,
                     "duration": DURATION, "background": "#202020"})
    _still_layers(run, "Still", folder)
    return engine


def frame_times(comp: dict, step: int = 1) -> list[float]:
    count = int(round(comp["duration"] * comp["frameRate"]))
    return [number / comp["frameRate"] for number in range(0, count, step)]
