"""Masks, by the area they leave of a white layer over black: each mode against the set
arithmetic of its rectangles, inversion, feather width, opacity, expansion, and the order
against effects."""

import math

import numpy as np
import pytest

from tests.helpers.compositor_documents import (box_path, comp, document, effect, layer, mask, solid,
                                        text)
from workers.compositor import render_frame

WHITE = (1, 1, 1, 1)
# Two overlapping rectangles in the layer's coordinates: A is 60x40 at (20, 20), B is 60x40 at
# (50, 30); their overlap is 30x30.
A, B = box_path(20, 20, 60, 40), box_path(50, 30, 60, 40)
AREA_A = AREA_B = 60 * 40
OVERLAP = 30 * 30


def shown(*masks, effects=(), width=160, height=90, time=0.0) -> np.ndarray:
    white = solid("s", WHITE, 0, 0, width, height, effects=effects)
    white["masks"] = list(masks)
    pixels = render_frame(document(comp("c", [white], width=width, height=height)), "c",
                          time).pixels
    return pixels[..., 0].astype(float) / 255.0


@pytest.mark.parametrize("modes, area", [
    (("add",), AREA_A),
    (("add", "add"), AREA_A + AREA_B - OVERLAP),
    (("add", "subtract"), AREA_A - OVERLAP),
    (("add", "intersect"), OVERLAP),
    (("add", "difference"), AREA_A + AREA_B - 2 * OVERLAP),
    (("add", "none"), AREA_A),
    (("subtract",), 160 * 90 - AREA_A),
    (("intersect",), AREA_A),
    (("subtract", "add"), 160 * 90 - AREA_A + OVERLAP),
])
def test_each_mask_mode_combines_with_the_masks_above_it(modes, area):
    masks = [mask(f"m{i}", path, mode) for i, (path, mode) in enumerate(zip((A, B), modes))]
    assert shown(*masks).sum() == pytest.approx(area, abs=2)


def test_a_layer_whose_masks_are_all_none_shows_whole():
    assert shown(mask("m", A, "none")).sum() == pytest.approx(160 * 90, abs=1)


def test_an_inverted_mask_keeps_the_outside_of_its_outline():
    assert shown(mask("m", A, inverted=True)).sum() == pytest.approx(160 * 90 - AREA_A, abs=2)
    both = shown(mask("m", A), mask("n", B, "intersect", inverted=True))
    assert both.sum() == pytest.approx(AREA_A - OVERLAP, abs=2)


def test_mask_opacity_scales_its_coverage():
    half = shown(mask("m", A, opacity=50))
    assert half[40, 50] == pytest.approx(0.5, abs=0.01) and half[5, 5] == 0
    inverted = shown(mask("m", A, opacity=50, inverted=True))
    assert inverted[5, 5] == pytest.approx(0.5, abs=0.01) and inverted[40, 50] == 0


@pytest.mark.parametrize("feather", [8, 20])
def test_feather_makes_a_soft_edge_of_the_asked_width_centered_on_the_outline(feather):
    # A mask far wider than its feather: its left edge at x = 100 is a straight ramp.
    pixels = shown(mask("m", box_path(100, -50, 400, 300), feather=feather), width=300,
                   height=200)
    row = pixels[100]
    low, high = np.flatnonzero(row > 0.023)[0], np.flatnonzero(row > 0.977)[0]
    assert high - low == pytest.approx(feather, abs=1.5)
    assert (row[99] + row[100]) / 2 == pytest.approx(0.5, abs=0.01)  # pixels either side
    assert row[:100 - feather].max() < 0.01 and row[100 + feather:].min() > 0.99


def test_a_feathered_mask_keeps_its_area():
    assert shown(mask("m", A, feather=6)).sum() == pytest.approx(AREA_A, rel=0.02)


def test_expansion_grows_the_outline_with_round_corners_and_shrinks_it_below_zero():
    grown = shown(mask("m", A, expansion=10)).sum()
    assert grown == pytest.approx(80 * 60 - (4 - math.pi) * 10 * 10, rel=0.01)
    assert shown(mask("m", A, expansion=-10)).sum() == pytest.approx(40 * 20, abs=2)
    assert shown(mask("m", A, expansion=-30)).sum() == 0  # shrunk past its own size


def test_masks_cut_the_layer_before_its_effects_blur_it():
    blurred = shown(mask("m", A), effects=[effect("fx", "gaussianBlur", radius=8)])
    # Blurred after masking, the mask's edge goes soft on both sides of the outline.
    assert 0.05 < blurred[40, 17] < 0.5 and 0.5 < blurred[40, 22] < 0.95
    assert blurred.sum() == pytest.approx(AREA_A, rel=0.03)


def test_an_animated_mask_path_morphs():
    small, large = box_path(20, 20, 40, 40), box_path(20, 20, 80, 60)
    animated = mask("m", {"keys": [{"time": 0.0, "value": small, "interpolation": "linear"},
                                   {"time": 1.0, "value": large, "interpolation": "linear"}]})
    assert shown(animated, time=0.5).sum() == pytest.approx(60 * 50, abs=2)


def test_a_mask_follows_its_layers_transform():
    white = solid("s", WHITE, 0, 0, 80, 45, position=(80, 45), scale=(200, 200))
    white["masks"] = [mask("m", box_path(0, 0, 20, 10))]
    pixels = render_frame(document(comp("c", [white])), "c", 0.0).pixels[..., 0]
    assert (pixels > 127).sum() == pytest.approx(40 * 20, abs=2)
    assert pixels[50, 90] == 255 and pixels[44, 90] == 0


def test_text_and_precomps_take_masks_too():
    words = text("t", "MMMM", 80, 45, size=40)
    bare = render_frame(document(comp("c", [words])), "c", 0.0).pixels[..., 0]
    words["masks"] = [mask("m", box_path(-200, -100, 200, 200))]  # the left half of the text
    masked = render_frame(document(comp("c", [words])), "c", 0.0).pixels[..., 0]
    assert masked[:, :80].sum() == bare[:, :80].sum() and masked[:, 81:].sum() == 0
    inner = comp("inner", [solid("fill", WHITE, 0, 0, 160, 90)])
    shown_inner = layer("pre", "precomp", {"source": "inner"}, anchor=(0, 0))
    shown_inner["masks"] = [mask("m", box_path(10, 10, 50, 20))]
    pixels = render_frame(document(comp("c", [shown_inner]), inner), "c", 0.0).pixels[..., 0]
    assert (pixels > 127).sum() == 50 * 20
