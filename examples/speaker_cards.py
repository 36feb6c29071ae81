"""The template example: a speaker card whose name, role, accent color and badge picture are
template params, and a CSV beside it with a row per speaker.

    python examples/speaker_cards.py     # rewrites speaker_cards.rvproj, .csv and speakers/*.png
    rendervisor render examples/speaker_cards.rvproj --data examples/speaker_cards.csv
        # -> examples/renders/speakers/1_Ada Lovelace.mp4, 2_Grace Hopper.mp4, ...

1280x720, 30 fps, 3 s: a badge fades in inside a ring, an accent bar wipes down beside it, and
the name and the role slide in. `accent` drives two properties (the bar's fill and the ring's
stroke), `photo` is a footage param: each row names its own picture, relative to the CSV's
folder. Without --data the project renders its defaults (the first speaker). The badges are
drawn here with Skia, so the example needs nothing else. Paths are stored relative to the
project file, so it renders from any clone.
"""

from __future__ import annotations

import csv
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMP = "Speaker Card"
WIDTH, HEIGHT, FPS, DURATION = 1280, 720, 30, 3.0
BADGE = 240
SPEAKERS = [  # name, role, accent, badge file, badge corners (0: a circle)
    ("Ada Lovelace", "Analytical engines", "#ffb347", "ada.png", 0),
    ("Grace Hopper", "Compilers", "#4fc3f7", "grace.png", 3),
    ("Alan Turing", "Computability", "#81c784", "alan.png", 4),
]
BADGE_FOLDER = "speakers"


def write_badge(path: str, accent: str, corners: int) -> str:
    """A badge: the accent as a disc, a white polygon (or a smaller disc) on it."""
    import skia
    surface = skia.Surface(BADGE, BADGE)
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorTRANSPARENT)
    paint = skia.Paint(AntiAlias=True, Color=skia.Color(*(int(accent[i:i + 2], 16)
                                                          for i in (1, 3, 5))))
    canvas.drawCircle(BADGE / 2, BADGE / 2, BADGE / 2, paint)
    paint.setColor(skia.ColorWHITE)
    if corners:
        angles = [-math.pi / 2 + 2 * math.pi * corner / corners for corner in range(corners)]
        points = [skia.Point(BADGE / 2 + 70 * math.cos(a), BADGE / 2 + 70 * math.sin(a))
                  for a in angles]
        canvas.drawPath(skia.Path.Polygon(points, True), paint)
    else:
        canvas.drawCircle(BADGE / 2, BADGE / 2, 50, paint)
    surface.makeImageSnapshot().save(path, skia.kPNG)
    return path


def add_keys(run, layer: str, path: str, keys: list[tuple[float, object, str]]) -> None:
    for time, value, interpolation in keys:
        run("prop.addKey", {"comp": COMP, "layer": layer, "path": path, "time": time,
                            "value": value, "interpolation": interpolation})


def build(folder: str = HERE) -> str:
    """Write speaker_cards.rvproj, speaker_cards.csv and the badges into `folder`; the
    project's path."""
    sys.path.insert(0, os.path.dirname(HERE))
    from supervisor.engine.engine import Engine

    os.makedirs(os.path.join(folder, BADGE_FOLDER), exist_ok=True)
    badges = [write_badge(os.path.join(folder, BADGE_FOLDER, badge), accent, corners)
              for _name, _role, accent, badge, corners in SPEAKERS]
    name, role, accent, _badge, _corners = SPEAKERS[0]

    engine = Engine()
    run = engine.run
    run("project.new", {"name": "Speaker cards"})
    run("comp.new", {"name": COMP, "width": WIDTH, "height": HEIGHT, "frameRate": FPS,
                     "duration": DURATION, "background": "#12141c"})
    center = [330, HEIGHT / 2]
    run("layer.add", {"comp": COMP, "type": "image", "name": "Badge", "path": badges[0],
                      "position": center})
    add_keys(run, "Badge", "transform.opacity", [(0.0, 0, "easeOut"), (0.6, 100, "linear")])
    add_keys(run, "Badge", "transform.scale", [(0.0, [85, 85], "easeOut"),
                                               (0.8, [100, 100], "linear")])
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Ring", "shape": "ellipse",
                      "size": [BADGE + 40, BADGE + 40], "fill": None, "stroke": accent,
                      "strokeWidth": 6, "position": center})
    add_keys(run, "Ring", "trimEnd", [(0.2, 0, "easyEase"), (1.2, 100, "linear")])
    run("layer.add", {"comp": COMP, "type": "shape", "name": "Bar", "shape": "rect",
                      "size": [8, 240], "fill": accent, "position": [540, HEIGHT / 2]})
    add_keys(run, "Bar", "transform.scale", [(0.4, [100, 0], "easeOut"),
                                             (1.0, [100, 100], "linear")])
    for layer, text, size, fill, y, start in (("Name", name, 72, "#ffffff", 330, 0.6),
                                              ("Role", role, 36, "#c8ccdc", 400, 0.8)):
        run("layer.add", {"comp": COMP, "type": "text", "name": layer, "text": text,
                          "font": "Poppins", "bold": layer == "Name", "size": size,
                          "fill": fill, "align": "left"})
        add_keys(run, layer, "transform.position", [(start, [600, y], "easeOut"),
                                                    (start + 0.6, [572, y], "linear")])
        add_keys(run, layer, "transform.opacity", [(start, 0, "easeOut"),
                                                   (start + 0.5, 100, "linear")])

    # The params: a row of the CSV gives each one a value; their defaults are the first row.
    run("template.addParam", {"name": "name", "comp": COMP, "layer": "Name", "path": "text",
                              "default": name, "description": "the speaker's name"})
    run("template.addParam", {"name": "role", "comp": COMP, "layer": "Role", "path": "text",
                              "default": role, "description": "one line under the name"})
    run("template.addParam", {"name": "accent", "comp": COMP, "layer": "Bar", "path": "fill",
                              "default": accent, "description": "the bar's and ring's color"})
    run("template.addParam", {"name": "accent", "comp": COMP, "layer": "Ring",
                              "path": "stroke"})
    run("template.addParam", {"name": "photo", "comp": COMP, "layer": "Badge",
                              "path": "footage", "default": badges[0],
                              "description": "the badge picture, 240x240"})

    run("renderQueue.add", {"comp": COMP, "output": os.path.join(
        folder, "renders", "speakers", "[row]_[param:name].mp4")})
    path = os.path.join(folder, "speaker_cards.rvproj")
    run("project.save", {"path": path})
    with open(os.path.join(folder, "speaker_cards.csv"), "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["name", "role", "accent", "photo"])
        for name, role, accent, badge, _corners in SPEAKERS:
            writer.writerow([name, role, accent, f"{BADGE_FOLDER}/{badge}"])
    return path


if __name__ == "__main__":
    print(build())
