"""The first example: a title card (text, shapes, easing), built with engine commands.

    python examples/title_card.py        # rewrites examples/title_card.rvproj
    rendervisor render examples/title_card.rvproj    # -> examples/renders/title_card.mp4

1280x720, 30 fps, 3 s, so it renders in seconds: a gradient background, a ring that springs
open, a turning star, a bar that wipes in under a title that rises and fades in (easeOut, with
a drop shadow), and a kerned subtitle whose words rise into place one by one (a text animator).
Everything is made by the same commands an agent sends over MCP (`comp.new`, `layer.add`,
`prop.addKey`, `effect.add`, `text.animate`, `renderQueue.add`, `project.save`), so the example
doubles as a check that they produce a project the renderer draws. The output path is stored relative to the project file
(docs/document.md, "Paths in a saved file"), so the project renders from any clone.
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMP = "Title Card"
WIDTH, HEIGHT, FPS, DURATION = 1280, 720, 30, 3.0
ACCENT = "#ffb347"


def add_keys(run, layer: str, path: str, keys: list[tuple[float, object, str]]) -> None:
    for time, value, interpolation in keys:
        run("prop.addKey", {"comp": COMP, "layer": layer, "path": path, "time": time,
                            "value": value, "interpolation": interpolation})


def build(folder: str = HERE) -> str:
    """Write title_card.rvproj into `folder`; its path."""
    sys.path.insert(0, os.path.dirname(HERE))
    from supervisor.engine.engine import Engine

    engine = Engine()
    run = engine.run
    run("project.new", {"name": "Title card"})
    run("comp.new", {"name": COMP, "width": WIDTH, "height": HEIGHT, "frameRate": FPS,
                     "duration": DURATION, "background": "#101018"})
    cx, cy = WIDTH / 2, HEIGHT / 2

    # Layers are added bottom first: each new layer goes on top.
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Background", "shape": "rect",
                      "size": [WIDTH, HEIGHT],
                      "fill": {"type": "linear", "start": [0, 0], "end": [WIDTH, HEIGHT],
                               "stops": [[0, "#1b2550"], [1, "#4a1d5c"]]}})
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Ring", "shape": "ellipse",
                      "size": [420, 420], "fill": None, "stroke": ACCENT, "strokeWidth": 6,
                      "position": [cx, cy - 20], "opacity": 60})
    add_keys(run, "Ring", "transform.scale", [(0.0, [0, 0], "easeOut"),
                                              (0.8, [100, 100], "linear")])
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Star", "shape": "star",
                      "size": [90, 90], "points": 5, "innerRadius": 0.45, "fill": ACCENT,
                      "position": [WIDTH - 140, 130]})
    add_keys(run, "Star", "transform.rotation", [(0.0, 0, "easyEase"), (DURATION, 144, "linear")])
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Bar", "shape": "rect",
                      "size": [560, 8], "cornerRadius": 4, "fill": ACCENT,
                      "position": [cx, cy + 40]})
    add_keys(run, "Bar", "transform.scale", [(0.4, [0, 100], "easeOut"),
                                             (1.1, [100, 100], "linear")])
    run("layer.add", {"comp": COMP, "type": "text", "name": "Title", "text": "rendervisor",
                      "font": "Poppins", "bold": True, "size": 112, "fill": "#ffffff"})
    add_keys(run, "Title", "transform.position", [(0.3, [cx, cy - 10], "easeOut"),
                                                  (1.1, [cx, cy - 50], "linear")])
    add_keys(run, "Title", "transform.opacity", [(0.3, 0, "easeOut"), (1.0, 100, "linear")])
    run("effect.add", {"comp": COMP, "layer": "Title", "effect": "dropShadow",
                       "params": {"distance": 6, "softness": 12, "opacity": 60}})
    # Lato kerns "Ty" and "ra" (HarfBuzz applies the font's kerning to all text); the words
    # rise into place one after another through a text animator (the slideUp preset).
    run("layer.add", {"comp": COMP, "type": "text", "name": "Subtitle",
                      "text": "Type, kerned and animated, rendered headless", "font": "Lato",
                      "size": 34, "tracking": 2, "fill": "#d8dcf0", "position": [cx, cy + 95]})
    run("text.animate", {"comp": COMP, "layer": "Subtitle", "preset": "slideUp", "start": 0.8,
                         "duration": 1.4})

    run("renderQueue.add", {"comp": COMP,
                            "output": os.path.join(folder, "renders", "title_card.mp4")})
    path = os.path.join(folder, "title_card.rvproj")
    run("project.save", {"path": path})
    return path


if __name__ == "__main__":
    print(build())
