"""Documents for the compositor's tests and goldens, built by hand as docs/document.md
describes them (the engine commands are not used, so these tests do not depend on them).

Every builder returns plain dicts; nothing here renders.
"""

from __future__ import annotations

import copy

WIDTH, HEIGHT = 160, 90


def layer(layer_id: str, layer_type: str, content: dict, *, position=(0.0, 0.0),
          anchor=(0.0, 0.0), scale=(100.0, 100.0), rotation=0.0, opacity=100.0,
          effects=(), **attributes) -> dict:
    result = {
        "id": layer_id, "name": layer_id, "type": layer_type, "enabled": True,
        "inPoint": 0.0, "outPoint": 10.0, "startTime": 0.0, "parent": None,
        "blendMode": "normal", "trackMatte": None,
        "transform": {"anchor": _prop(anchor), "position": _prop(position),
                      "scale": _prop(scale), "rotation": rotation, "opacity": opacity},
        "content": content,
        "effects": [dict(effect) for effect in effects],
    }
    result.update(attributes)
    return result


def _prop(value):
    """A vector property as stored: a list, or an animated property as given."""
    return value if isinstance(value, dict) else list(value)


def solid(layer_id: str, color, x: float, y: float, width: float, height: float,
          **kwargs) -> dict:
    """A solid whose anchor is its top-left corner, so it covers [x, x+w) x [y, y+h)."""
    kwargs.setdefault("position", (x, y))
    return layer(layer_id, "solid", {"color": list(color), "width": width, "height": height},
                 **kwargs)


def shape(layer_id: str, kind: str, x: float, y: float, width: float, height: float,
          *, effects=(), **content) -> dict:
    """A shape whose content box's top-left is at (x, y); `content` over a white fill."""
    content = {"shape": kind, "size": [width, height], "fill": [1, 1, 1, 1], "stroke": None,
               "strokeWidth": 0, **content}
    return layer(layer_id, "shape", content, position=(x, y), effects=effects)


def bezier(points, *, closed=True, in_tangents=None, out_tangents=None) -> dict:
    """A path shape's or mask's path value as stored: tangents default to zero (straight)."""
    zeros = [[0.0, 0.0] for _ in points]
    return {"points": [list(p) for p in points],
            "inTangents": [list(t) for t in in_tangents] if in_tangents else zeros,
            "outTangents": [list(t) for t in out_tangents] if out_tangents else zeros,
            "closed": closed}


def mask(mask_id: str, path: dict, mode: str = "add", *, inverted=False, feather=0,
         opacity=100, expansion=0) -> dict:
    return {"id": mask_id, "name": mask_id, "mode": mode, "inverted": inverted, "path": path,
            "feather": feather, "opacity": opacity, "expansion": expansion}


def box_path(x: float, y: float, width: float, height: float) -> dict:
    """A closed rectangle path from (x, y), clockwise."""
    return bezier([[x, y], [x + width, y], [x + width, y + height], [x, y + height]])


def text(layer_id: str, words: str, x: float, y: float, **content) -> dict:
    transform = {key: content.pop(key) for key in ("opacity", "rotation", "scale")
                 if key in content}
    content = {"text": words, "font": "Roboto", "size": 24, "fill": [1, 1, 1, 1],
               "align": "center", **content}
    return layer(layer_id, "text", content, position=(x, y), **transform)


def effect(effect_id: str, name: str, **params) -> dict:
    return {"id": effect_id, "effect": name, "enabled": True, "params": params}


def comp(comp_id: str, layers: list, *, width=WIDTH, height=HEIGHT, background=(0, 0, 0, 1),
         frame_rate=30, duration=10.0, motion_blur=None, name=None) -> dict:
    return {
        "id": comp_id, "name": name or comp_id, "width": width, "height": height,
        "frameRate": frame_rate, "duration": duration, "background": list(background),
        "motionBlur": motion_blur or {"enabled": False, "samples": 8, "shutterAngle": 180},
        "proxy": None, "layers": layers,
    }


def document(*comps: dict, footage=()) -> dict:
    return {"version": 1, "name": "test", "nextId": 1000, "footage": list(footage),
            "comps": [copy.deepcopy(c) for c in comps], "renderQueue": []}


def footage_item(footage_id: str, path: str, kind: str, width: int, height: int,
                 **extra) -> dict:
    return {"id": footage_id, "name": path.rsplit("/", 1)[-1], "path": path, "kind": kind,
            "width": width, "height": height, **extra}


def keys(*pairs, interpolation="linear") -> dict:
    """An animated property from (time, value) pairs."""
    return {"keys": [{"time": t, "value": v, "interpolation": interpolation} for t, v in pairs]}
