"""Wide blurs drawn in float (workers/compositor/float_effects.py): the same picture as Skia's
8-bit chain, to within its own approximation, wherever the layer sits and however it is drawn."""

import math

import numpy as np
import pytest

from tests.helpers.compositor_documents import box_path, comp, document, effect, mask, solid
from workers.compositor import float_effects, render_frame
from workers.compositor.float_blur import blur_step, gaussian_blur, reduce, residual_sigma

CHAINS = {
    "blur": [effect("b", "gaussianBlur", radius=40)],
    "shadow": [effect("s", "dropShadow", distance=30, direction=135, softness=30,
                      color=[0, 0, 0, 1], opacity=80)],
    "glow": [effect("g", "glow", radius=40, intensity=1.5, threshold=30)],
    "chain": [effect("t", "tint", amount=50), effect("b", "gaussianBlur", radius=20),
              effect("f", "fill", color=[0.2, 0.5, 1, 1], opacity=50),
              effect("s", "dropShadow", softness=20, distance=15)],
}
PLACES = {  # (rotation, scale): as drawn, turned, shrunk unevenly, grown and turned
    "plain": (0, [100, 100]), "turned": (25, [100, 100]), "shrunk": (0, [60, 45]),
    "grown": (30, [150, 120]),
}


def rect(effects, rotation=0, scale=(100, 100), **attributes) -> dict:
    """A 240x160 orange rect centred on (320, 200), turned and scaled about its centre."""
    return solid("r", [0.9, 0.6, 0.2, 1], 0, 0, 240, 160, position=(320, 200),
                 anchor=(120, 80), rotation=rotation, scale=scale, effects=effects,
                 **attributes)


def both(monkeypatch, *layers, background=(0.1, 0.1, 0.12, 1)) -> tuple:
    """The frame drawn as it is, and drawn with every chain left to Skia."""
    doc = document(comp("c", list(layers), width=640, height=400, background=background))
    ours = render_frame(doc, "c", 0.0).pixels.astype(float)
    with monkeypatch.context() as patch:
        patch.setattr(float_effects, "FLOAT_BLUR_FROM", math.inf)
        skia_drawn = render_frame(doc, "c", 0.0).pixels.astype(float)
    return ours, skia_drawn


def assert_close(ours, skia_drawn):
    difference = np.abs(ours - skia_drawn)[..., :3]
    # Two approximations of a Gaussian (Skia's three boxes, ours a coarse step) and our
    # dither: under a level apart on average, a few at most. A blur 15% too wide is 1.1 apart
    # on average and 10 at the 99th percentile.
    assert difference.mean() < 0.8
    assert np.percentile(difference, 99) <= 5
    assert difference.max() <= 10


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("chain", CHAINS)
def test_a_wide_chain_in_float_draws_skias_picture(monkeypatch, chain, place):
    rotation, scale = PLACES[place]
    ours, skia_drawn = both(monkeypatch, rect(CHAINS[chain], rotation, scale))
    assert not np.array_equal(ours, skia_drawn)  # drawn by the float path, not by Skia
    assert_close(ours, skia_drawn)


@pytest.mark.parametrize("shadow", [
    # Far from its layer: its blurred tail, moved into view, was cut at the work's edge.
    {"distance": 60, "direction": 180, "softness": 40},
    # An opacity over 100 counts as 100, as Skia's color does.
    {"distance": 30, "softness": 30, "color": [0, 0, 0, 1], "opacity": 150},
])
def test_a_shadow_on_white_draws_skias_shadow(monkeypatch, shadow):
    ours, skia_drawn = both(monkeypatch, rect([effect("s", "dropShadow", **shadow)]),
                            background=(1, 1, 1, 1))
    assert_close(ours, skia_drawn)


def test_a_glow_that_saturates_draws_skias_glow(monkeypatch):
    # Intensity over 1 clamps: clamped before being scaled back up, its edge came out 24 off.
    ours, skia_drawn = both(monkeypatch, rect([effect("g", "glow", radius=40, intensity=5,
                                                      threshold=0)]))
    assert_close(ours, skia_drawn)


def test_the_flat_inside_of_a_shadowed_layer_stays_flat(monkeypatch):
    # Float steps that move an exact level (half floats did) would let the dither speckle it.
    ours, skia_drawn = both(monkeypatch, rect(CHAINS["shadow"]))
    inside = (slice(140, 260), slice(220, 420))
    assert np.array_equal(ours[inside], skia_drawn[inside])


def test_a_blur_too_wide_to_work_in_float_is_left_to_skia(monkeypatch):
    # Its margin would be gigabytes of pixels; Skia's chain draws it in a fraction of one.
    huge = rect([effect("b", "gaussianBlur", radius=8000)])
    ours, skia_drawn = both(monkeypatch, huge)
    assert np.array_equal(ours, skia_drawn)


def test_opacity_blend_mode_and_masks_apply_as_in_skias_chain(monkeypatch):
    blurred = rect(CHAINS["blur"], opacity=60, blendMode="screen",
                   masks=[mask("m", box_path(20, 20, 150, 100), feather=10)])
    under = solid("under", [0.2, 0.7, 0.4, 1], 100, 80, 300, 200)
    ours, skia_drawn = both(monkeypatch, blurred, under)
    assert_close(ours, skia_drawn)


@pytest.mark.parametrize("inverted,opacity,blend", [(False, 100, "normal"),
                                                    (True, 100, "normal"),
                                                    (True, 70, "multiply")])
def test_a_wide_feather_cuts_in_float_as_skia_cuts(monkeypatch, inverted, opacity, blend):
    # A vignette: a plate with a feathered ellipse, inverted or not, turned with its layer, over
    # another layer through its opacity and blend mode.
    cut = mask("m", {"points": [[120, 0], [240, 80], [120, 160], [0, 80]],
                     "inTangents": [[-66, 0], [0, -44], [66, 0], [0, 44]],
                     "outTangents": [[66, 0], [0, 44], [-66, 0], [0, -44]], "closed": True},
               feather=60, inverted=inverted)
    plate = rect([], rotation=15, scale=(200, 200), masks=[cut], opacity=opacity,
                 blendMode=blend)
    under = solid("under", [0.2, 0.7, 0.4, 1], 100, 80, 300, 200)
    ours, skia_drawn = both(monkeypatch, plate, under)
    assert not np.array_equal(ours, skia_drawn)
    assert_close(ours, skia_drawn)


def test_a_layer_mostly_off_the_canvas_is_blurred_from_what_lies_off_it(monkeypatch):
    # Only the part that reaches the canvas is computed, with the margin a blur reads.
    layer = rect([effect("b", "gaussianBlur", radius=120)])
    layer["transform"]["position"] = [-60, 200]
    ours, skia_drawn = both(monkeypatch, layer)
    assert ours[:, :40, 0].max() > 30  # the glow of the rect off the left edge shows
    assert_close(ours, skia_drawn)


def test_a_narrow_blur_is_left_to_skia(monkeypatch):
    # Under FLOAT_BLUR_FROM device pixels a ramp has no band to see; Skia draws it alone.
    assert np.array_equal(*both(monkeypatch, rect([effect("b", "gaussianBlur", radius=6)])))
    # A wide blur on a layer drawn small is narrow where it lands.
    shrunk = rect([effect("b", "gaussianBlur", radius=40)], scale=[15, 15])
    assert np.array_equal(*both(monkeypatch, shrunk))


def test_a_coarse_blur_is_a_gaussian_to_within_a_level():
    # An edge blurred at a coarse step and drawn back up by linear filtering, against the
    # exact Gaussian's error function.
    sigma = 40.0
    step = blur_step(sigma)
    assert step == 16 and sigma / step >= 2
    edge = np.zeros((32, 2048, 1), np.float32)
    edge[:, 1024:1536] = 1.0  # a bar: its left edge is looked at, its light all stays in
    # Across only: down the rows, a 32 px tall edge in clear space would lose light.
    coarse = gaussian_blur(reduce(edge, step), residual_sigma(sigma, step, 1), 0.0)
    row = coarse[1, :, 0]
    centers = (np.arange(row.size) + 0.5) * step
    x = np.arange(700, 1350) + 0.5
    drawn_up = np.interp(x, centers, row)
    exact = np.array([0.5 * (1 + math.erf((v - 1024) / (sigma * math.sqrt(2)))) for v in x])
    assert np.abs(drawn_up - exact).max() * 255 < 1.0
    assert abs(row.sum() * step - 512) < 0.5  # no light made or lost
