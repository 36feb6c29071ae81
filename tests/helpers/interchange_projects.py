"""Projects for the interchange tests: an editor's cut of real media files (a shot with sound,
one without, a sound bed), built through the engine's own commands."""

from __future__ import annotations

import numpy as np

from tests.helpers.sound_files import tone, write_video_with_sound, write_wav

RATE = 24
SIZE = (64, 36)


def media(folder) -> dict:
    """{"a": a 2 s shot with sound, "b": a 2 s shot without, "bed": 4 s of sound}."""
    return {"a": write_video_with_sound(folder / "a.mp4", 48, RATE, tone(2.0), size=SIZE),
            "b": write_video_with_sound(folder / "b.mp4", 48, RATE, None, size=SIZE),
            "bed": write_wav(folder / "bed.wav", np.stack([tone(4.0, 220)] * 2))}


def cut(engine, files: dict, nested: bool = True) -> str:
    """Comp "Cut", 4 s at 24 fps, from the top: Insert (b, 2.0-2.5 s, over ShotB), Nest (a
    precomp of Inner, 3-4 s, from 0.5 s into it), ShotB (b from 0.5 s, at 200% speed, 1.5-3
    s), ShotA (a with its sound, 0-1.5 s, marker "look"), Bed (the sound at -6 dB); comp
    marker "beat" at 1 s."""
    engine.run("comp.new", {"name": "Cut", "width": SIZE[0], "height": SIZE[1],
                            "frameRate": RATE, "duration": 4})
    engine.run("layer.add", {"comp": "Cut", "type": "audio", "path": files["bed"],
                             "name": "Bed"})
    engine.run("prop.set", {"comp": "Cut", "layer": "Bed", "path": "audio.level",
                            "value": -6})
    engine.run("layer.add", {"comp": "Cut", "type": "video", "path": files["a"],
                             "name": "ShotA"})
    engine.run("layer.set", {"comp": "Cut", "layer": "ShotA", "outPoint": 1.5})
    engine.run("marker.add", {"comp": "Cut", "layer": "ShotA", "time": 0.5, "name": "look",
                              "duration": 0.25})
    engine.run("layer.add", {"comp": "Cut", "type": "video", "path": files["b"],
                             "name": "ShotB"})
    engine.run("layer.set", {"comp": "Cut", "layer": "ShotB", "startTime": 1.25,
                             "inPoint": 1.5, "outPoint": 3.0, "speed": 200})
    if nested:
        engine.run("comp.new", {"name": "Inner", "width": SIZE[0], "height": SIZE[1],
                                "frameRate": RATE, "duration": 2})
        engine.run("layer.add", {"comp": "Inner", "type": "video", "path": files["b"],
                                 "name": "InB"})
        engine.run("layer.add", {"comp": "Cut", "type": "precomp", "source": "Inner",
                                 "name": "Nest"})
        engine.run("layer.set", {"comp": "Cut", "layer": "Nest", "startTime": 2.5,
                                 "inPoint": 3.0, "outPoint": 4.0})
    engine.run("layer.add", {"comp": "Cut", "type": "video", "path": files["b"],
                             "name": "Insert"})
    engine.run("layer.set", {"comp": "Cut", "layer": "Insert", "startTime": 2.0,
                             "inPoint": 2.0, "outPoint": 2.5})
    engine.run("marker.add", {"comp": "Cut", "time": 1.0, "name": "beat"})
    return "Cut"


def layer_timing(comp: dict) -> dict:
    """{name: (type, inPoint, outPoint, startTime, speed)} of a comp's layers, times rounded
    to a hundredth of a frame."""
    def r(value):
        return round(value * RATE, 2)
    return {layer["name"]: (layer["type"], r(layer["inPoint"]), r(layer["outPoint"]),
                            r(layer["startTime"]), layer["content"].get("speed", 100))
            for layer in comp["layers"]}


def markers(owner: dict) -> list:
    return [(m["name"], round(m["time"] * RATE, 2), round(m["duration"] * RATE, 2))
            for m in owner["markers"]]
