"""The third example: a logo reveal, the move every motion designer makes first: a curved logo
outline draws itself on (an animated trim path), a dashed ring turns around it, and the name
wipes in under a feathered mask, starting on a marker. Built with engine commands.

    python examples/logo_reveal.py        # rewrites examples/logo_reveal.rvproj
    rendervisor render examples/logo_reveal.rvproj    # -> examples/renders/logo_reveal.mp4

1280x720, 30 fps, 3 s. The logo is one closed bezier path of 30 points with smooth tangents
(the benchmark, scripts/bench_vector.py, renders this same project at 1080p). Everything is
made by commands an agent sends over MCP (`layer.add` with points and tangents,
`prop.addKey` on trimEnd, `mask.add`, `prop.addKey` on masks.1.path at "marker:drawn", ...).
"""

from __future__ import annotations

import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMP = "Logo Reveal"
FPS, DURATION = 30, 3.0
ACCENT, INK = "#ffb347", "#f4f1ea"
LOGO_POINTS = 30


def logo_path(count: int = LOGO_POINTS, radius: float = 150.0) -> dict:
    """A five-lobed flower of `count` points around (radius, radius), each with the tangent
    of the curve r(a) = radius (0.8 + 0.2 sin 5a) through it, so the outline is smooth."""
    points, ins, outs = [], [], []
    step = 2 * math.pi / count
    for k in range(count):
        a = k * step - math.pi / 2
        r = radius * (0.8 + 0.2 * math.sin(5 * a))
        dr = radius * math.cos(5 * a)  # d r / d a
        x, y = radius + r * math.cos(a), radius + r * math.sin(a)
        # d(x, y)/da, scaled to a third of the step: the handle a cubic needs to follow it.
        dx = (dr * math.cos(a) - r * math.sin(a)) * step / 3
        dy = (dr * math.sin(a) + r * math.cos(a)) * step / 3
        points.append([round(x, 3), round(y, 3)])
        outs.append([round(dx, 3), round(dy, 3)])
        ins.append([round(-dx, 3), round(-dy, 3)])
    return {"points": points, "inTangents": ins, "outTangents": outs, "closed": True}


def wipe(width: float, height: float, shown: float) -> dict:
    """The wordmark's mask: a rect from its left edge, `shown` (0..1) of the way across."""
    left, top = -width / 2, -height / 2
    right = left + width * shown
    return {"points": [[left, top], [right, top], [right, -top], [left, -top]]}


def build(folder: str = HERE, width: int = 1280, height: int = 720) -> str:
    """Write logo_reveal.rvproj into `folder` (at `width` x `height`); its path."""
    sys.path.insert(0, os.path.dirname(HERE))
    from supervisor.engine.engine import Engine

    engine = Engine()
    run = engine.run
    run("project.new", {"name": "Logo reveal"})
    run("comp.new", {"name": COMP, "width": width, "height": height, "frameRate": FPS,
                     "duration": DURATION, "background": "#0d1020"})
    zoom = height / 720
    cx, cy = width / 2, height / 2 - 60 * zoom
    run("marker.add", {"comp": COMP, "time": 1.4, "name": "drawn"})

    # Layers are added bottom first: each new layer goes on top.
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Glow", "shape": "rect",
                      "size": [width, height],
                      "fill": {"type": "radial", "center": [width / 2, height / 2 - 60 * zoom],
                               "radius": height * 0.6,
                               "stops": [[0, "#2a2f5a"], [1, "#0d1020"]]}})
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Ring", "shape": "ellipse",
                      "size": [420, 420], "fill": None, "stroke": ACCENT, "strokeWidth": 3,
                      "dashes": [14, 10], "strokeCap": "round", "position": [cx, cy],
                      "scale": [100 * zoom, 100 * zoom], "opacity": 70})
    for time, value, ease in ((0.0, 0, "easeOut"), (1.2, 100, "linear")):
        run("prop.addKey", {"comp": COMP, "layer": "Ring", "path": "trimEnd", "time": time,
                            "value": value, "interpolation": ease})
    for time, value in ((0.0, 0), (DURATION, 120)):
        run("prop.addKey", {"comp": COMP, "layer": "Ring", "path": "dashOffset",
                            "time": time, "value": value})
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Logo", "shape": "path",
                      "size": [300, 300], "fill": None, "stroke": INK, "strokeWidth": 7,
                      "strokeCap": "round", "strokeJoin": "round", "position": [cx, cy],
                      "scale": [100 * zoom, 100 * zoom], **logo_path()})
    for time, value, ease in ((0.2, 0, "easyEase"), ("marker:drawn", 100, "linear")):
        run("prop.addKey", {"comp": COMP, "layer": "Logo", "path": "trimEnd", "time": time,
                            "value": value, "interpolation": ease})
    for time, value in ((0.2, 0), ("marker:drawn", 144)):
        run("prop.addKey", {"comp": COMP, "layer": "Logo", "path": "trimOffset",
                            "time": time, "value": value, "interpolation": "easyEase"})
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Heart", "shape": "star",
                      "size": [70, 70], "points": 5, "innerRadius": 0.45, "fill": ACCENT,
                      "position": [cx, cy], "scale": [0, 0]})
    for time, value, ease in ((1.2, [0, 0], {"spring": {"stiffness": 180, "damping": 12}}),
                              (2.4, [100 * zoom, 100 * zoom], "linear")):
        run("prop.addKey", {"comp": COMP, "layer": "Heart", "path": "transform.scale",
                            "time": time, "value": value, "interpolation": ease})

    run("layer.add", {"comp": COMP, "type": "text", "name": "Name", "text": "rendervisor",
                      "font": "Poppins", "bold": True, "size": 92, "fill": INK,
                      "position": [width / 2, height / 2 + 200 * zoom],
                      "scale": [100 * zoom, 100 * zoom]})
    box = (640, 140)
    run("mask.add", {"comp": COMP, "layer": "Name", "shape": "path", "mode": "add",
                     "feather": 60, **wipe(*box, 0.0)})
    for time, shown, ease in (("marker:drawn", 0.0, "easeOut"), (2.4, 1.0, "linear")):
        run("prop.addKey", {"comp": COMP, "layer": "Name", "path": "masks.1.path",
                            "time": time, "value": wipe(*box, shown), "interpolation": ease})

    run("renderQueue.add", {"comp": COMP,
                            "output": os.path.join(folder, "renders", "logo_reveal.mp4")})
    path = os.path.join(folder, "logo_reveal.rvproj")
    run("project.save", {"path": path})
    return path


if __name__ == "__main__":
    print(build())
