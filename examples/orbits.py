"""The expressions example: a scene moved by After Effects expressions instead of keys, built
with engine commands.

    python examples/orbits.py        # rewrites examples/orbits.rvproj
    rendervisor render examples/orbits.rvproj    # -> examples/renders/orbits.mp4

1280x720, 30 fps, 3 s: a hub that wiggles (`wiggle`), six satellites circling it (each reads
the hub's position with `thisComp.layer("Hub")`, and its own `index`), a ring that breathes
(`Math.sin` of `time`) and turns through the hues (`hslToRgb`), twinkling stars at seeded
random places (`seedRandom`, `random`), a title that fades in and out forever (`loopOut` over
two keys), and a frame counter whose text is an expression (`timeToFrames`). Every expression
is set by `prop.setExpression`, as an agent sets one over MCP (docs/expressions.md).
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMP = "Orbits"
WIDTH, HEIGHT, FPS, DURATION = 1280, 720, 30, 3.0
SATELLITES = 6
STARS = 12


def build(folder: str = HERE) -> str:
    """Write orbits.rvproj into `folder`; its path."""
    sys.path.insert(0, os.path.dirname(HERE))
    from supervisor.engine.engine import Engine

    engine = Engine()
    run = engine.run

    def express(layer: str, path: str, expression: str) -> None:
        run("prop.setExpression", {"comp": COMP, "layer": layer, "path": path,
                                   "expression": expression})

    run("project.new", {"name": "Orbits"})
    run("comp.new", {"name": COMP, "width": WIDTH, "height": HEIGHT, "frameRate": FPS,
                     "duration": DURATION, "background": "#0b0d1a"})
    # Layers are added bottom first: each new layer goes on top.
    for number in range(1, STARS + 1):
        name = f"Star {number}"
        run("layer.add", {"comp": COMP, "type": "shape", "name": name, "shape": "star",
                          "size": [14, 14], "points": 4, "innerRadius": 0.35,
                          "fill": "#fff6d8"})
        # A place of its own, the same at every frame (timeless); a new brightness each frame.
        express(name, "transform.position",
                f"seedRandom({number}, true); [random(40, {WIDTH - 40}), random(40, {HEIGHT - 40})]")
        express(name, "transform.opacity", "random(25, 100)")
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Ring", "shape": "ellipse",
                      "size": [460, 460], "fill": None, "stroke": "#ffffff",
                      "strokeWidth": 5})
    express("Ring", "transform.position", "thisComp.layer('Hub').transform.position")
    express("Ring", "transform.scale", "var s = 100 + 8 * Math.sin(time * 2 * Math.PI); [s, s]")
    express("Ring", "stroke", "hslToRgb([(time / 3) % 1, 0.7, 0.6, 1])")
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Hub", "shape": "ellipse",
                      "size": [90, 90], "fill": "#ffb347"})
    express("Hub", "transform.position", "wiggle(1.5, 24)")
    for number in range(1, SATELLITES + 1):
        name = f"Satellite {number}"
        run("layer.add", {"comp": COMP, "type": "shape", "name": name, "shape": "ellipse",
                          "size": [34, 34], "fill": "#6fd3ff"})
        express(name, "transform.position",
                "var hub = thisComp.layer('Hub').transform.position;\n"
                f"var angle = degreesToRadians(time * 90 + index * {360 / SATELLITES:g});\n"
                "add(hub, [Math.cos(angle) * 230, Math.sin(angle) * 230])")
    run("layer.add", {"comp": COMP, "type": "text", "name": "Title", "text": "expressions",
                      "font": "Poppins", "bold": True, "size": 64, "fill": "#ffffff",
                      "position": [WIDTH / 2, 70]})
    for time, value in ((0.0, 30), (0.75, 100)):
        run("prop.addKey", {"comp": COMP, "layer": "Title", "path": "transform.opacity",
                            "time": time, "value": value, "interpolation": "easyEase"})
    express("Title", "transform.opacity", "loopOut('pingpong')")
    run("layer.add", {"comp": COMP, "type": "text", "name": "Counter", "text": "frame 0",
                      "font": "Roboto", "size": 28, "fill": "#9aa3c7",
                      "position": [WIDTH / 2, HEIGHT - 50]})
    express("Counter", "text", "'frame ' + timeToFrames()")

    run("renderQueue.add", {"comp": COMP, "output": os.path.join(folder, "renders", "orbits.mp4")})
    path = os.path.join(folder, "orbits.rvproj")
    run("project.save", {"path": path})
    return path


if __name__ == "__main__":
    print(build())
