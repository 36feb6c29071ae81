"""Whole comps whose renders are kept as golden images (tests/compositor/golden/NAME.png, 160x90).

Each scene mixes many features, so a change anywhere in the compositor shows up as a changed
golden; the analytic tests say what broke, the goldens say that something did. Read by
tests/compositor/test_compositor_golden.py and by scripts/regenerate_goldens.py, so both render
exactly the same documents.
"""

from __future__ import annotations

import os

import numpy as np
import skia

from tests.helpers.compositor_documents import (bezier, comp, document, effect, footage_item, keys,
                                        layer, shape, solid, text)

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compositor",
                          "golden")


def shapes_scene(workdir: str) -> dict:
    gradient = {"type": "linear", "start": [0, 0], "end": [60, 40],
                "stops": [[0, [1, 0.8, 0.1, 1]], [1, [0.9, 0.1, 0.4, 1]]]}
    radial = {"type": "radial", "center": [20, 20], "radius": 20,
              "stops": [[0, [1, 1, 1, 1]], [1, [0.1, 0.4, 1, 1]]]}
    layers = [
        shape("rect", "rect", 8, 8, 60, 40, fill=gradient, cornerRadius=10,
              stroke=[1, 1, 1, 1], strokeWidth=2),
        shape("ellipse", "ellipse", 80, 6, 40, 40, fill=radial),
        shape("star", "star", 124, 8, 32, 32, fill=[1, 0.9, 0.2, 1], points=5,
              innerRadius=0.45),
        shape("poly", "polygon", 10, 52, 34, 34, fill=None, stroke=[0.3, 1, 0.5, 1],
              strokeWidth=3, strokeJoin="round", points=6),
        shape("path", "path", 52, 56, 100, 28, fill=None, stroke=[1, 0.5, 0.9, 1],
              strokeWidth=4, strokeCap="round", strokeJoin="bevel",
              path=bezier([[0, 28], [25, 0], [50, 28], [75, 0], [100, 28]], closed=False)),
    ]
    layers[2]["transform"]["rotation"] = 12
    return document(comp("shapes", layers, background=(0.08, 0.08, 0.12, 1)))


def text_blend_scene(workdir: str) -> dict:
    title = text("title", "Render\nvisor", 44, 45, size=22, font="Poppins", bold=True,
                 fill=[1, 1, 1, 1], lineHeight=1.0)
    caption = text("caption", "left aligned", 92, 80, size=11, font="Lato", align="left",
                   tracking=1.5, fill=[0.9, 0.9, 0.5, 1], rotation=-8)
    matte = text("matte", "MATTE", 131, 30, size=19, font="Roboto", bold=True)
    matted = solid("matted", (1, 0.3, 0.1, 1), 96, 14, 70, 32, trackMatte="alpha")
    blends = [solid(f"b{i}", color, 96 + i * 16, 46, 24, 22, blendMode=mode)
              for i, (mode, color) in enumerate([("multiply", (1, 0.6, 0.2, 1)),
                                                 ("screen", (0.2, 0.4, 1, 1)),
                                                 ("difference", (1, 1, 1, 1)),
                                                 ("add", (0.3, 0.3, 0.3, 1))])]
    stripes = solid("stripes", (0.25, 0.6, 0.45, 1), 90, 40, 70, 36)
    return document(comp("text_blend", [title, caption, matte, matted, *blends, stripes],
                         background=(0.1, 0.1, 0.15, 1)))


def effects_precomp_scene(workdir: str) -> dict:
    inner_layers = [
        shape("dot", "ellipse", 10, 10, 30, 30, fill=[1, 0.8, 0.2, 1],
              effects=[effect("fx1", "glow", radius=10, intensity=1, threshold=40)]),
        solid("bar", (0.2, 0.7, 1, 1), 0, 20, 60, 10,
              rotation=keys((0.0, 0), (2.0, 90)), position=(30, 25), anchor=(30, 5)),
    ]
    inner = comp("inner", inner_layers, width=60, height=50)
    pre = layer("pre", "precomp", {"source": "inner"}, position=(40, 45), anchor=(30, 25),
                opacity=80, startTime=-0.5,
                effects=[effect("fx2", "dropShadow", distance=6, softness=6,
                                color=[0, 0, 0, 1], opacity=80)])
    blurred = shape("blurred", "rect", 90, 15, 30, 60, fill=[0.9, 0.3, 0.5, 1],
                    effects=[effect("fx3", "gaussianBlur", radius=6)])
    tinted = solid("tinted", (0.8, 0.8, 0.8, 1), 125, 20, 25, 50,
                   effects=[effect("fx4", "tint", black=[0.1, 0, 0.3, 1],
                                   white=[0.3, 1, 0.6, 1], amount=100)])
    return document(comp("effects_precomp", [pre, blurred, tinted],
                         background=(0.85, 0.85, 0.8, 1)), inner)


def footage_scene(workdir: str) -> dict:
    """A procedurally drawn picture (written into `workdir`), scaled, rotated and faded."""
    y, x = np.mgrid[0:40, 0:60]
    pixels = np.zeros((40, 60, 4), np.uint8)
    pixels[..., 0] = x * 4
    pixels[..., 1] = y * 6
    pixels[..., 2] = 255 - x * 2
    pixels[..., 3] = np.where((x // 10 + y // 10) % 2 == 0, 255, 160)
    path = os.path.join(workdir, "golden_footage.png")
    skia.Image.fromarray(pixels, colorType=skia.kRGBA_8888_ColorType).save(path, skia.kPNG)
    item = footage_item("img", path, "image", 60, 40)
    plain = layer("plain", "image", {"footage": "img"}, position=(8, 8))
    turned = layer("turned", "image", {"footage": "img"}, position=(115, 50), anchor=(30, 20),
                   scale=(120, 90), rotation=30, opacity=70, blendMode="screen")
    return document(comp("footage", [turned, plain], background=(0.2, 0.2, 0.25, 1)),
                    footage=[item])


def motion_blur_scene(workdir: str) -> dict:
    mover = shape("mover", "rect", 0, 30, 30, 30, fill=[1, 1, 1, 1])
    mover["transform"]["position"] = keys((0.0, [10, 30]), (1.0, [610, 30]))
    spinner = solid("spin", (1, 0.4, 0.2, 1), 0, 0, 50, 8, position=(120, 60), anchor=(25, 4),
                    rotation=keys((0.0, 0), (1.0, 1080)))
    blur = {"enabled": True, "samples": 12, "shutterAngle": 180}
    return document(comp("motion_blur", [mover, spinner], motion_blur=blur))


# name -> (scene builder, comp id, time)
SCENES = {
    "shapes": (shapes_scene, "shapes", 0.0),
    "text_blend": (text_blend_scene, "text_blend", 0.0),
    "effects_precomp": (effects_precomp_scene, "effects_precomp", 1.0),
    "footage": (footage_scene, "footage", 0.0),
    "motion_blur": (motion_blur_scene, "motion_blur", 0.1),
}


def golden_path(name: str) -> str:
    return os.path.join(GOLDEN_DIR, f"{name}.png")


def read_png(path: str) -> np.ndarray:
    image = skia.Image.open(path)
    return image.toarray(colorType=skia.kRGBA_8888_ColorType,
                         alphaType=skia.kUnpremul_AlphaType)


def write_png(path: str, pixels: np.ndarray) -> None:
    image = skia.Image.fromarray(np.ascontiguousarray(pixels),
                                 colorType=skia.kRGBA_8888_ColorType)
    image.save(path, skia.kPNG)


def difference(a: np.ndarray, b: np.ndarray) -> tuple[int, float]:
    """(max, mean) absolute difference over every channel of every pixel."""
    delta = np.abs(a.astype(int) - b.astype(int))
    return int(delta.max()), float(delta.mean())
