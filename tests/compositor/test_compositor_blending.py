"""Blend modes' arithmetic on two solids, and track mattes (the layer above, not drawn)."""

import numpy as np
import pytest

from tests.helpers.compositor_documents import comp, document, shape, solid
from workers.compositor import render_frame

BOTTOM = np.array([0.3, 0.7, 0.5])
TOP = np.array([0.6, 0.2, 0.9])

EXPECTED = {
    "normal": TOP,
    "add": np.minimum(1.0, TOP + BOTTOM),
    "multiply": TOP * BOTTOM,
    "screen": TOP + BOTTOM - TOP * BOTTOM,
    # The backdrop (bottom) decides: multiply below half, screen above.
    "overlay": np.where(BOTTOM <= 0.5, 2 * TOP * BOTTOM, 1 - 2 * (1 - TOP) * (1 - BOTTOM)),
    "darken": np.minimum(TOP, BOTTOM),
    "lighten": np.maximum(TOP, BOTTOM),
    "difference": np.abs(TOP - BOTTOM),
}


def two_solids(mode: str, opacity: float = 100) -> dict:
    top = solid("top", [*TOP, 1], 0, 0, 160, 90, blendMode=mode, opacity=opacity)
    bottom = solid("bottom", [*BOTTOM, 1], 0, 0, 160, 90)
    return document(comp("c", [top, bottom]))


@pytest.mark.parametrize("mode", sorted(EXPECTED))
def test_blend_mode_arithmetic_on_two_solids(mode):
    pixels = render_frame(two_solids(mode), "c", 0.0).pixels
    assert np.abs(pixels[45, 80, :3] - EXPECTED[mode] * 255).max() <= 1.5
    assert (pixels[..., 3] == 255).all()
    assert (pixels == pixels[45, 80]).all()  # uniform: the mode applied everywhere


@pytest.mark.parametrize("mode", ["multiply", "screen", "difference"])
def test_blend_mode_at_half_opacity_mixes_with_the_backdrop(mode):
    pixels = render_frame(two_solids(mode, opacity=50), "c", 0.0).pixels
    expected = (BOTTOM + 0.5 * (EXPECTED[mode] - BOTTOM)) * 255
    assert np.abs(pixels[45, 80, :3] - expected).max() <= 1.5


def test_faded_shape_with_fill_and_stroke_is_faded_as_one_layer():
    # Fill and stroke overlap; fading each separately would show the fill through the stroke.
    ring = shape("shape", "rect", 20, 20, 60, 40, fill=[1, 0, 0, 1], stroke=[0, 0, 1, 1],
                 strokeWidth=10)
    ring["transform"]["opacity"] = 50
    pixels = render_frame(document(comp("c", [ring])), "c", 0.0).pixels.astype(int)
    # On the stroke's inner half (over the fill): only the stroke, at half strength.
    assert np.abs(pixels[40, 22, :3] - [0, 0, 128]).max() <= 1
    assert np.abs(pixels[40, 50, :3] - [128, 0, 0]).max() <= 1


def matted(matte_kind: str, matte_layer: dict) -> np.ndarray:
    layer = solid("layer", (0, 1, 0, 1), 0, 0, 160, 90, trackMatte=matte_kind)
    background = solid("bg", (0, 0, 1, 1), 0, 0, 160, 90)
    return render_frame(document(comp("c", [matte_layer, layer, background])), "c", 0.0).pixels


def green_share(pixel) -> float:
    return pixel[1] / 255.0


@pytest.mark.parametrize("kind, left, right", [
    ("alpha", 0.5, 0.0),
    ("alphaInverted", 0.5, 1.0),
])
def test_alpha_matte_keeps_the_layer_where_the_matte_is_opaque(kind, left, right):
    # The matte: white over the left half, at 50% opacity.
    matte = solid("matte", (1, 1, 1, 1), 0, 0, 80, 90, opacity=50)
    pixels = matted(kind, matte)
    assert green_share(pixels[45, 40]) == pytest.approx(left, abs=1 / 255)
    assert green_share(pixels[45, 120]) == pytest.approx(right, abs=1 / 255)
    # The matte layer itself is not drawn: no red or white anywhere.
    assert (pixels[..., 0] == 0).all()
    # What the layer does not cover shows the layer below.
    assert pixels[45, 40, 2] / 255 == pytest.approx(1 - left, abs=1 / 255)


@pytest.mark.parametrize("kind, left, right", [
    ("luma", 0.25, 0.0),
    ("lumaInverted", 0.75, 1.0),
])
def test_luma_matte_uses_the_matte_brightness(kind, left, right):
    # The matte: a 25% grey (sRGB value 0.25 on every channel: luma 0.25) over the left half;
    # nothing on the right, which counts as black.
    matte = solid("matte", (0.25, 0.25, 0.25, 1), 0, 0, 80, 90)
    pixels = matted(kind, matte)
    assert green_share(pixels[45, 40]) == pytest.approx(left, abs=1.5 / 255)
    assert green_share(pixels[45, 120]) == pytest.approx(right, abs=1 / 255)


def test_luma_matte_weighs_green_above_blue():
    green_matte = matted("luma", solid("matte", (0, 1, 0, 1), 0, 0, 160, 90))
    blue_matte = matted("luma", solid("matte", (0, 0, 1, 1), 0, 0, 160, 90))
    assert green_share(green_matte[45, 80]) == pytest.approx(0.7152, abs=2 / 255)
    assert green_share(blue_matte[45, 80]) == pytest.approx(0.0722, abs=2 / 255)


def test_matte_switched_off_still_mattes_and_one_outside_its_time_hides_the_layer():
    off = solid("matte", (1, 1, 1, 1), 0, 0, 80, 90, enabled=False)
    pixels = matted("alpha", off)
    assert green_share(pixels[45, 40]) == 1.0 and green_share(pixels[45, 120]) == 0.0
    gone = solid("matte", (1, 1, 1, 1), 0, 0, 80, 90, inPoint=5.0)
    assert (matted("alpha", gone)[..., 1] == 0).all()


def test_matted_layer_keeps_its_blend_mode():
    matte = solid("matte", (1, 1, 1, 1), 0, 0, 80, 90)
    layer = solid("layer", (0.5, 0.5, 0.5, 1), 0, 0, 160, 90, trackMatte="alpha",
                  blendMode="multiply")
    background = solid("bg", (1, 0.5, 0, 1), 0, 0, 160, 90)
    pixels = render_frame(document(comp("c", [matte, layer, background])), "c", 0.0).pixels
    assert np.abs(pixels[45, 40, :3].astype(int) - [128, 64, 0]).max() <= 1
    assert (pixels[45, 120, :3] == [255, 128, 0]).all()
