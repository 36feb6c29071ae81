"""The comp the render, reliability and soak tests draw when they need frames that cost work:
a solid crossing the comp at mid-height from its left edge to its right over the whole
duration, blurred when a frame should cost more, so no frame can be kept from the one before."""

from __future__ import annotations


def moving_solid_steps(comp: str, width: int, height: int, rate: float, seconds: float, *,
                       blur: float | None = None, layer: str = "Mover",
                       color: str = "#f0c020") -> list[dict]:
    """command_batch steps for such a comp: the solid is a quarter of the comp's width and half
    its height, and `blur` is its gaussianBlur radius (none when None)."""
    steps = [
        {"id": "comp.new", "params": {"name": comp, "width": width, "height": height,
                                      "frameRate": rate, "duration": seconds}},
        {"id": "layer.add", "params": {"comp": comp, "type": "solid", "name": layer,
                                       "color": color, "width": width // 4,
                                       "height": height // 2}},
        {"id": "prop.addKey", "params": {"comp": comp, "layer": layer,
                                         "path": "transform.position", "time": 0,
                                         "value": [0, height / 2]}},
        {"id": "prop.addKey", "params": {"comp": comp, "layer": layer,
                                         "path": "transform.position", "time": seconds,
                                         "value": [width, height / 2]}},
    ]
    if blur is not None:
        steps.append({"id": "effect.add", "params": {"comp": comp, "layer": layer,
                                                     "effect": "gaussianBlur",
                                                     "params": {"radius": blur}}})
    return steps
