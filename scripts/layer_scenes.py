"""The scenes of scripts/bench_layers.py: comps of many layers at 1080p, as project documents
and as the plain numbers the Skia peer (scripts/peers/plain_skia_reference.py) draws from.

Each layer kind is made once by the engine's own commands (`layer.add`, `prop.addKey`), then
repeated with a motion and color of its own and checked by the document model, so a scene of
400 layers is built in a moment and is still a document the engine would make.

    motions(count)                 where each layer goes: start, end, turn, color
    solids(count), ellipses(count), texts(count)
    moving_over_still(count), moving_alone()
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass

COMP = "Layers"
WIDTH, HEIGHT, FPS, DURATION = 1920, 1080, 30, 3.0
BACKGROUND = [0.05, 0.05, 0.08, 1.0]
SOLID_SIZE = (80.0, 60.0)
STROKE = [1.0, 1.0, 1.0, 1.0]
STROKE_WIDTH = 4.0
TEXT_SIZE = 40
FONT = "Roboto"
STILL_SIZE = (240.0, 160.0)
MOVER_SIZE = (300.0, 200.0)  # the one moving layer over the still ones
MOVER_COLOR = [0.95, 0.75, 0.2, 1.0]


@dataclass(frozen=True)
class Motion:
    start: tuple[float, float]  # the layer's center at 0 s
    end: tuple[float, float]  # and at the comp's end
    turn: float  # degrees turned over the comp, clockwise
    color: list


def motions(count: int, seed: int = 20) -> list[Motion]:
    chance = random.Random(seed)
    margin_x, margin_y = 60, 40

    def point() -> tuple[float, float]:
        return (chance.uniform(margin_x, WIDTH - margin_x),
                chance.uniform(margin_y, HEIGHT - margin_y))

    return [Motion(point(), point(), chance.uniform(-360, 360),
                   [chance.uniform(0.2, 1), chance.uniform(0.2, 1), chance.uniform(0.2, 1), 1.0])
            for _ in range(count)]


def text_of(index: int) -> str:
    return f"Layer {index + 1}"


def _engine():
    # Imported only to build documents: the plain Skia peer takes motions() alone, without
    # rendervisor on its path.
    from supervisor.engine.engine import Engine
    engine = Engine()
    engine.run("comp.new", {"name": COMP, "width": WIDTH, "height": HEIGHT, "frameRate": FPS,
                            "duration": DURATION, "background": BACKGROUND})
    return engine


def _repeated(template: dict, count: int, vary) -> dict:
    """The template document with its one layer repeated `count` times, each `vary`-ed."""
    from protocol.model.document import load_document  # as in _engine
    document = copy.deepcopy(template)
    comp = document["comps"][0]
    layer = comp["layers"][0]
    layers = []
    for index in range(count):
        clone = copy.deepcopy(layer)
        clone["id"], clone["name"] = f"{layer['id']}_{index}", f"{layer['name']} {index + 1}"
        vary(index, clone)
        layers.append(clone)
    comp["layers"] = layers
    document["nextId"] = document.get("nextId", 1) + count
    return load_document(document)


def _moving(kind: str, count: int, **content) -> dict:
    engine = _engine()
    engine.run("layer.add", {"comp": COMP, "type": kind, "name": kind, **content})
    for path, start, end in (("transform.position", [0, 0], [1, 1]),
                             ("transform.rotation", 0, 1)):
        for time, value in ((0.0, start), (DURATION, end)):
            engine.run("prop.addKey", {"comp": COMP, "layer": kind, "path": path, "time": time,
                                       "value": value, "interpolation": "linear"})
    paths = motions(count)

    def vary(index: int, layer: dict) -> None:
        motion = paths[index]
        transform = layer["transform"]
        first, last = transform["position"]["keys"]
        first["value"], last["value"] = list(motion.start), list(motion.end)
        first, last = transform["rotation"]["keys"]
        first["value"], last["value"] = 0.0, motion.turn
        if kind == "solid":
            layer["content"]["color"] = motion.color
        elif kind == "shape":
            layer["content"]["fill"] = motion.color
        else:
            layer["content"]["fill"] = motion.color
            layer["content"]["text"] = text_of(index)

    return _repeated(engine.snapshot()[1], count, vary)


def solids(count: int) -> dict:
    """`count` 80x60 solids, each moving and turning across the comp."""
    width, height = SOLID_SIZE
    return _moving("solid", count, color=[1, 1, 1, 1], width=width, height=height)


def ellipses(count: int) -> dict:
    """`count` 80x60 ellipses, filled and stroked 4 px, each moving and turning."""
    return _moving("shape", count, shape="ellipse", size=list(SOLID_SIZE), fill=[1, 1, 1, 1],
                   stroke=STROKE, strokeWidth=STROKE_WIDTH)


def texts(count: int) -> dict:
    """`count` one-line texts (Roboto 40 px), each moving and turning."""
    return _moving("text", count, text="Layer", font=FONT, size=TEXT_SIZE, fill=[1, 1, 1, 1])


def moving_over_still(count: int = 100) -> dict:
    """`count` still 240x160 solids, turned and spread over the frame, under one 300x200 rect
    moving and turning across it."""
    engine = _engine()
    engine.run("layer.add", {"comp": COMP, "type": "solid", "name": "still",
                             "color": [1, 1, 1, 1], "width": STILL_SIZE[0],
                             "height": STILL_SIZE[1]})
    places = motions(count, seed=7)

    def vary(index: int, layer: dict) -> None:
        layer["transform"]["position"] = list(places[index].start)
        layer["transform"]["rotation"] = places[index].turn
        layer["content"]["color"] = places[index].color

    document = _repeated(engine.snapshot()[1], count, vary)
    document["comps"][0]["layers"].insert(0, _mover())
    return document


def moving_alone() -> dict:
    """The moving rect of moving_over_still, alone over the background."""
    document = moving_over_still(0)
    return document


def _mover() -> dict:
    engine = _engine()
    engine.run("layer.add", {"comp": COMP, "type": "shape", "name": "mover", "shape": "rect",
                             "size": list(MOVER_SIZE), "fill": MOVER_COLOR})
    for path, start, end in (("transform.position", list(mover_motion().start),
                              list(mover_motion().end)),
                             ("transform.rotation", 0.0, mover_motion().turn)):
        for time, value in ((0.0, start), (DURATION, end)):
            engine.run("prop.addKey", {"comp": COMP, "layer": "mover", "path": path,
                                       "time": time, "value": value, "interpolation": "linear"})
    return engine.snapshot()[1]["comps"][0]["layers"][0]


def mover_motion() -> Motion:
    return Motion((300.0, 300.0), (1600.0, 800.0), 90.0, MOVER_COLOR)
