"""Scene transitions drawn by the compositor, pixel by pixel against their formulas
(protocol/model/scenes.py): at a transition's first frame the picture is the scene before
exactly, at its end the scene after exactly, and at its middle (p = 0.5) every pixel away from
an edge is what the kind's formula says.

Scene A is red with a white bar on its left quarter, scene B blue with a yellow bar on its
right quarter, so a push, a slide and a wipe, which all show B on the left half at p = 0.5, are
told apart by where the bars are. The comp is black behind the scenes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.ndimage import gaussian_filter

from protocol.model.document import load_document
from protocol.model.keyframes import cubic_bezier
from supervisor.engine.engine import Engine
from workers.compositor import render_frame

W, H = 96, 54
RED, WHITE, BLUE, YELLOW = (255, 0, 0), (255, 255, 255), (0, 0, 255), (255, 255, 0)
# The transition runs over [1, 2) s of Main, at 10 fps.
START, MIDDLE, END = 1.0, 1.5, 2.0


def scenes_with(kind: str, **settings) -> dict:
    engine = Engine()
    for name, color, bar, left in (("A", "#ff0000", "#ffffff", 0), ("B", "#0000ff",
                                                                    "#ffff00", 72)):
        engine.run("comp.new", {"name": name, "width": W, "height": H, "duration": 2,
                                "frameRate": 10})
        engine.run("layer.add", {"comp": name, "type": "solid", "color": color})
        engine.run("layer.add", {"comp": name, "type": "solid", "color": bar, "width": 24,
                                 "height": H, "position": [left + 12, H / 2]})
    engine.run("comp.new", {"name": "Main", "width": W, "height": H, "duration": 2,
                            "frameRate": 10})
    engine.run("scene.add", {"comp": "Main", "source": "A"})
    engine.run("scene.add", {"comp": "Main", "source": "B"})
    engine.run("transition.set", {"comp": "Main", "scene": 2, "kind": kind, "duration": 1,
                                  **settings})
    return load_document(engine.doc)


def grid(shift=(0.0, 0.0)):
    """Each pixel's center (moved by `shift`), as x and y arrays."""
    y, x = np.mgrid[0:H, 0:W]
    return x + 0.5 + shift[0], y + 0.5 + shift[1]


def scene_a(x, y):
    """RGBA (premultiplied, 0..255) of scene A at points x, y; transparent off its frame."""
    return _painted(x, y, (x >= 0) & (x < 24), WHITE, RED)


def scene_b(x, y):
    return _painted(x, y, (x >= 72) & (x < 96), YELLOW, BLUE)


def _painted(x, y, on_bar, bar, color):
    inside = (x >= 0) & (x < W) & (y >= 0) & (y < H)
    rgb = np.where(on_bar[..., None], np.array(bar, float), np.array(color, float))
    return np.concatenate([rgb, np.full(x.shape + (1,), 255.0)], axis=-1) * inside[..., None]


def over_black(rgba):
    return rgba[..., :3]  # premultiplied over black: the color channels as they are


def settled(formula) -> np.ndarray:
    """The pixels whose formula gives one color over the whole pixel and a margin around it
    (sampled at its center and eight points 0.75 px away): away from any edge, where
    anti-aliasing and resampling have nothing to blend."""
    center = formula((0.0, 0.0))
    same = np.ones((H, W), bool)
    for dx in (-0.75, 0.0, 0.75):
        for dy in (-0.75, 0.0, 0.75):
            same &= np.all(np.abs(formula((dx, dy)) - center) < 0.5, axis=-1)
    return same


def assert_matches(doc, time, formula, tolerance=2.0, everywhere=False):
    """The frame at `time` against `formula(shift) -> (H, W, 3)` away from its edges (or
    `everywhere`, for a formula that is smooth)."""
    pixels = render_frame(doc, "Main", time).pixels[..., :3].astype(float)
    expected = formula((0.0, 0.0))
    where = np.ones((H, W), bool) if everywhere else settled(formula)
    assert where.mean() > 0.6, "the formula's picture should be mostly away from edges"
    worst = np.abs(pixels[where] - expected[where]).max()
    assert worst <= tolerance, f"a pixel is {worst} levels off the formula"


def mid_formula(kind: str, direction: str | None, shift=(0.0, 0.0)):
    """Each kind's picture at p = 0.5 (A, B as functions of points)."""
    x, y = grid(shift)
    a, b = scene_a(x, y), scene_b(x, y)
    if kind == "crossfade":
        return over_black(0.5 * a + 0.5 * b)
    if kind == "dip":
        return np.zeros((H, W, 3))
    if kind == "push":
        moved_b = scene_b(x + W / 2, y)
        return over_black(np.where((x < W / 2)[..., None], moved_b, scene_a(x - W / 2, y)))
    if kind == "slide":
        return over_black(np.where((x < W / 2)[..., None], scene_b(x + W / 2, y), a))
    if kind == "wipe":
        return over_black(np.where((x < W / 2)[..., None], b, a))
    if kind == "radialWipe":
        inside = np.hypot(x, y) < 0.5 * math.hypot(W, H)
        return over_black(np.where(inside[..., None], b, a))
    if kind == "clockWipe":
        turned = np.mod(np.arctan2(x - W / 2, -(y - H / 2)), 2 * np.pi)
        return over_black(np.where((turned < np.pi)[..., None], b, a))
    if kind == "iris":
        near = np.hypot(x - W / 2, y - H / 2) < 0.5 * math.hypot(W, H) / 2
        first, second = (b, a) if direction == "open" else (a, b)
        return over_black(np.where(near[..., None], first, second))
    if kind == "zoom":
        def scaled(scene, factor):
            return scene(W / 2 + (x - W / 2) / factor, H / 2 + (y - H / 2) / factor)
        return over_black(0.5 * scaled(scene_a, 2 ** 0.5) + 0.5 * scaled(scene_b, 2 ** -0.5))
    if kind == "blurDissolve":
        def blurred(scene):
            rgba = scene(x, y)
            return np.stack([gaussian_filter(rgba[..., c], 1.0, mode="nearest")
                             for c in range(4)], axis=-1)
        return over_black(0.5 * blurred(scene_a) + 0.5 * blurred(scene_b))
    raise AssertionError(kind)


CASES = [("crossfade", None), ("dip", None), ("push", "fromLeft"), ("slide", "fromLeft"),
         ("wipe", "fromLeft"), ("radialWipe", "fromTopLeft"), ("clockWipe", "clockwise"),
         ("iris", "open"), ("iris", "close"), ("zoom", "in"), ("blurDissolve", None)]


@pytest.mark.parametrize("kind,direction", CASES)
def test_a_transition_starts_on_the_scene_before_and_ends_on_the_scene_after(kind, direction):
    doc = scenes_with(kind, **({"direction": direction} if direction else {}))
    x, y = grid()
    start = render_frame(doc, "Main", START).pixels[..., :3]
    end = render_frame(doc, "Main", END).pixels[..., :3]
    assert np.array_equal(start, over_black(scene_a(x, y)).astype(np.uint8))
    assert np.array_equal(end, over_black(scene_b(x, y)).astype(np.uint8))


@pytest.mark.parametrize("kind,direction", CASES)
def test_a_transitions_middle_is_its_formula(kind, direction):
    doc = scenes_with(kind, **({"direction": direction} if direction else {}))
    blur = kind == "blurDissolve"
    assert_matches(doc, MIDDLE, lambda shift: mid_formula(kind, direction, shift),
                   tolerance=4.0 if blur else 2.0, everywhere=blur)


def test_a_dip_mixes_the_scene_before_with_its_color_on_the_way_down():
    doc = scenes_with("dip", color="#00ff00")
    # p = 0.25: A mixed halfway to green.
    assert_matches(doc, 1.25, lambda shift: 0.5 * over_black(scene_a(*grid(shift)))
                   + 0.5 * np.array([0.0, 255.0, 0.0]))


def test_a_crossfade_is_linear_in_time_and_follows_its_easing():
    def mixed(p):
        return lambda shift: (1 - p) * over_black(scene_a(*grid(shift))) + \
            p * over_black(scene_b(*grid(shift)))

    assert_matches(scenes_with("crossfade"), 1.9, mixed(0.9))
    eased = scenes_with("crossfade", easing="easeIn")  # cubic-bezier(0.42, 0, 1, 1)
    p = cubic_bezier(0.42, 0.0, 1.0, 1.0, 0.3)
    assert p < 0.2
    assert_matches(eased, 1.3, mixed(p))


@pytest.mark.parametrize("direction,b_left", [("fromRight", False), ("fromLeft", True)])
def test_a_push_comes_from_its_direction(direction, b_left):
    doc = scenes_with("push", direction=direction)
    pixels = render_frame(doc, "Main", MIDDLE).pixels
    left, right = tuple(pixels[H // 2, 4, :3]), tuple(pixels[H // 2, W - 4, :3])
    # Halfway, fromLeft: B's right half (its yellow bar) has come in on the left, and A's
    # left half (its white bar) has gone out on the right. fromRight: B's left half (blue) is
    # in on the right, A's right half (red) is left on the left.
    if b_left:
        assert left == BLUE and right == RED
    else:
        assert left == RED and right == BLUE
