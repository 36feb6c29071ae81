"""Comps that between them use every feature lottie.export writes, built through the engine's
own commands (160x90, 24 fps, 2 s, opaque backgrounds so every player's frame is comparable)."""

from __future__ import annotations

import skia

W, H, RATE = 160, 90, 24


def _comp(engine, name: str, background="#1d2440") -> str:
    engine.run("comp.new", {"name": name, "width": W, "height": H, "frameRate": RATE,
                            "duration": 2, "background": background})
    return name


def _key(engine, comp, layer, path, time, value, interpolation="linear", **spatial):
    engine.run("prop.addKey", {"comp": comp, "layer": layer, "path": path, "time": time,
                               "value": value, "interpolation": interpolation, **spatial})


def shapes(engine) -> str:
    """Rect (stroke, trim, dashes, rounded), ellipse, star (linear gradient with alpha),
    polygon, bezier path (radial gradient), a stroke's trim animated."""
    c = _comp(engine, "Shapes")
    add = lambda **p: engine.run("layer.add", {"comp": c, "type": "shape", **p})  # noqa: E731
    add(name="Box", shape="rect", size=[40, 24], fill="#3fa7ff", stroke="#ffffff",
        strokeWidth=3, dashes=[6, 3], position=[30, 20])
    add(name="Round", shape="rect", size=[30, 20], fill="#ff6f3f", cornerRadius=6,
        position=[80, 20])
    add(name="Dot", shape="ellipse", size=[26, 18], fill="#7fff5f", stroke="#202020",
        strokeWidth=2, strokeCap="round", trimEnd=70, position=[130, 20])
    _key(engine, c, "Dot", "content.trimEnd", 0, 10)
    _key(engine, c, "Dot", "content.trimEnd", 2, 100)
    add(name="Star", shape="star", size=[36, 36], points=5, innerRadius=0.45,
        fill={"type": "linear", "start": [0, 0], "end": [36, 0],
              "stops": [[0, "#ff2060"], [1, "#2060ffc0"]]}, position=[30, 62])
    add(name="Hex", shape="polygon", size=[30, 30], points=6, fill="#ffd23f",
        stroke="#7a3cff", strokeWidth=2, strokeJoin="round", position=[80, 62])
    add(name="Leaf", shape="path", size=[40, 30], points=[[0, 30], [20, 0], [40, 30]],
        inTangents=[[0, 0], [-12, 0], [0, 0]], outTangents=[[0, 0], [12, 0], [0, 0]],
        closed=True,
        fill={"type": "radial", "center": [20, 18], "radius": 20,
              "stops": [[0, "#ffffff"], [1, "#22aa66"]]}, position=[130, 62])
    return c


def motion(engine) -> str:
    """Keys with bezier eases, spring, hold, a motion path's tangents; scale and rotation;
    parenting to a turning null; opacity; a masked solid."""
    c = _comp(engine, "Motion")
    engine.run("layer.add", {"comp": c, "type": "null", "name": "Pivot"})
    _key(engine, c, "Pivot", "transform.rotation", 0, 0, "easyEase")
    _key(engine, c, "Pivot", "transform.rotation", 2, 45)
    engine.run("layer.add", {"comp": c, "type": "solid", "name": "Card", "color": "#e04a5f",
                             "width": 40, "height": 30})
    engine.run("layer.set", {"comp": c, "layer": "Card", "parent": "Pivot"})
    engine.run("mask.add", {"comp": c, "layer": "Card", "shape": "ellipse", "mode": "add"})
    _key(engine, c, "Card", "transform.scale", 0, [60, 60], {"spring": {"stiffness": 120,
                                                                        "damping": 8}})
    _key(engine, c, "Card", "transform.scale", 1, [120, 100])
    engine.run("layer.add", {"comp": c, "type": "shape", "name": "Ball", "shape": "ellipse",
                             "size": [14, 14], "fill": "#f5f5a0"})
    _key(engine, c, "Ball", "transform.position", 0, [10, 80], {"bezier": [0.2, 0.8, 0.4, 1]},
         spatialOut=[40, -70])
    _key(engine, c, "Ball", "transform.position", 1.5, [150, 80], spatialIn=[-40, -70])
    _key(engine, c, "Ball", "transform.opacity", 0, 100, "hold")
    _key(engine, c, "Ball", "transform.opacity", 1.2, 40)
    engine.run("layer.add", {"comp": c, "type": "shape", "name": "Bar", "shape": "rect",
                             "size": [60, 6], "fill": "#44ddee"})
    _key(engine, c, "Bar", "transform.rotation", 0, -30, "bounce")
    _key(engine, c, "Bar", "transform.rotation", 1.5, 90)
    return c


def text(engine) -> str:
    """Text as glyph shapes: a filled line and a stroked one."""
    c = _comp(engine, "Text")
    engine.run("layer.add", {"comp": c, "type": "text", "name": "Title", "text": "Lottie",
                             "size": 30, "fill": "#ffffff", "position": [80, 35]})
    engine.run("layer.add", {"comp": c, "type": "text", "name": "Outline", "text": "shapes",
                             "size": 22, "fill": "#ffcc33", "stroke": "#aa2200",
                             "strokeWidth": 2, "position": [80, 70]})
    _key(engine, c, "Outline", "transform.position", 0, [60, 70], "easeOut")
    _key(engine, c, "Outline", "transform.position", 2, [100, 70])
    return c


def nesting(engine, image_path: str) -> str:
    """A precomp (its own background left out) moving, starting late and playing fast, an
    alpha track matte, an embedded still image."""
    inner = _comp(engine, "Inner", background="#00000000")
    engine.run("layer.add", {"comp": inner, "type": "shape", "name": "Spinner", "shape": "star",
                             "size": [30, 30], "fill": "#ff9933"})
    _key(engine, inner, "Spinner", "transform.rotation", 0, 0)
    _key(engine, inner, "Spinner", "transform.rotation", 2, 144)
    c = _comp(engine, "Nesting", background="#d0d8e0")
    engine.run("layer.add", {"comp": c, "type": "image", "name": "Photo", "path": image_path})
    engine.run("layer.set", {"comp": c, "layer": "Photo", "position": [40, 45]})
    engine.run("layer.add", {"comp": c, "type": "solid", "name": "Fill", "color": "#30c060",
                             "width": 50, "height": 50, "position": [120, 45]})
    engine.run("layer.add", {"comp": c, "type": "shape", "name": "Hole", "shape": "ellipse",
                             "size": [40, 40], "fill": "#ffffff", "position": [120, 45]})
    engine.run("layer.set", {"comp": c, "layer": "Fill", "trackMatte": "alpha"})
    engine.run("layer.add", {"comp": c, "type": "precomp", "source": inner, "name": "Nest",
                             "scale": [50, 50], "startTime": 0.25, "speed": 150})
    _key(engine, c, "Nest", "transform.position", 0, [40, 30])
    _key(engine, c, "Nest", "transform.position", 2, [120, 60])
    return c


def write_image(path) -> str:
    """A 40x30 PNG of a gradient with a dark corner."""
    surface = skia.Surface(40, 30)
    canvas = surface.getCanvas()
    paint = skia.Paint(Shader=skia.GradientShader.MakeLinear(
        [skia.Point(0, 0), skia.Point(40, 30)], [skia.ColorRED, skia.ColorYELLOW]))
    canvas.drawPaint(paint)
    canvas.drawRect(skia.Rect.MakeXYWH(0, 0, 12, 10), skia.Paint(Color=skia.ColorBLACK))
    surface.makeImageSnapshot().save(str(path), skia.kPNG)
    return str(path)


def blending(engine) -> str:
    """Blend modes over a gradient plate (rlottie draws every layer normal, so only ThorVG
    plays this one as rendervisor does)."""
    c = _comp(engine, "Blending", background="#d0d8e0")
    engine.run("layer.add", {"comp": c, "type": "shape", "name": "Plate", "shape": "rect",
                             "size": [160, 90], "fill": {"type": "linear", "start": [0, 0],
                                                         "end": [160, 0], "stops": [
                                 [0, "#203040"], [1, "#f0e0a0"]]}})
    for index, mode in enumerate(("multiply", "screen", "add", "difference")):
        engine.run("layer.add", {"comp": c, "type": "solid", "name": mode, "color": "#60a0ff",
                                 "width": 30, "height": 60, "blendMode": mode,
                                 "position": [25 + index * 37, 45]})
    return c
