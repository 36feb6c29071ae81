"""Bezier paths, morphs, trimmed and dashed strokes, checked by area and by pixel runs against
the geometry they must cover."""

import math

import numpy as np
import pytest

from tests.helpers.compositor_documents import bezier, comp, document, keys, shape
from workers.compositor import render_frame

WHITE = [1, 1, 1, 1]
# The handle length that makes four cubics a circle (4/3 (sqrt 2 - 1)), written out here
# rather than taken from the code under test.
CIRCLE_HANDLE = 0.5522847498


def coverage(layer, time=0.0, width=240, height=120) -> np.ndarray:
    frame = render_frame(document(comp("c", [layer], width=width, height=height)), "c", time)
    return frame.pixels[..., 0].astype(float) / 255.0


def circle(cx, cy, r):
    k = r * CIRCLE_HANDLE
    return bezier([[cx, cy - r], [cx + r, cy], [cx, cy + r], [cx - r, cy]],
                  in_tangents=[[-k, 0], [0, -k], [k, 0], [0, k]],
                  out_tangents=[[k, 0], [0, k], [-k, 0], [0, -k]])


def line(length=200, **stroke):
    """A horizontal open path from (20, 60) to (20 + length, 60), stroked 4 px with butt caps."""
    return shape("l", "path", 20, 60, length, 1, fill=None, stroke=WHITE, strokeWidth=4,
                 path=bezier([[0, 0], [length, 0]], closed=False), **stroke)


def runs(row: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) columns of each stretch of a row more than half covered."""
    on = np.concatenate([[False], row > 0.5, [False]])
    edges = np.flatnonzero(np.diff(on.astype(int)))
    return [(int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2])]


def test_a_four_point_bezier_circle_covers_pi_r_squared():
    r = 50
    area = coverage(shape("c", "path", 0, 0, 120, 120, path=circle(60, 60, r)), width=120).sum()
    assert area == pytest.approx(math.pi * r * r, rel=0.02)
    assert area == pytest.approx(math.pi * r * r, rel=0.002)  # the cubic circle is that close


def test_a_morph_between_two_paths_is_their_average_at_the_midpoint():
    small = bezier([[10, 10], [50, 10], [50, 50], [10, 50]])
    large = bezier([[0, 0], [80, 0], [80, 80], [0, 80]])
    morphing = shape("m", "path", 0, 0, 100, 100,
                     path=keys((0.0, small), (1.0, large)))
    assert coverage(morphing, 0.0).sum() == pytest.approx(40 * 40, abs=1)
    half = coverage(morphing, 0.5)
    assert half.sum() == pytest.approx(60 * 60, abs=1)  # corners (5, 5) to (65, 65)
    assert half[5:65, 5:65].min() > 0.99 and half[66:, :].max() == 0


def test_a_morph_moves_tangents_too_so_a_square_can_round_into_a_circle():
    r = 40
    square = bezier([[60, 60 - r], [60 + r, 60], [60, 60 + r], [60 - r, 60]])  # a diamond
    morph = shape("m", "path", 0, 0, 120, 120, path=keys((0.0, square), (1.0, circle(60, 60, r))))
    diamond, round_ = coverage(morph, 0.0, width=120).sum(), coverage(morph, 1.0, width=120).sum()
    assert diamond == pytest.approx(2 * r * r, rel=0.01)
    assert round_ == pytest.approx(math.pi * r * r, rel=0.01)
    assert diamond < coverage(morph, 0.5, width=120).sum() < round_


def test_paths_of_different_point_counts_hold_instead_of_morphing():
    triangle = bezier([[0, 0], [40, 0], [0, 40]])
    square = bezier([[0, 0], [40, 0], [40, 40], [0, 40]])
    held = shape("h", "path", 0, 0, 40, 40, path=keys((0.0, triangle), (1.0, square)))
    assert coverage(held, 0.5).sum() == pytest.approx(800, rel=0.01)
    assert coverage(held, 1.0).sum() == pytest.approx(1600, rel=0.01)


def test_trim_end_at_half_of_a_200_px_stroke_draws_100_px():
    full, half = coverage(line()), coverage(line(trimEnd=50))
    assert full.sum() == pytest.approx(200 * 4, abs=1)
    assert half.sum() == pytest.approx(100 * 4, abs=1)
    assert runs(half[60]) == [(20, 119)]


def test_trim_start_and_end_keep_the_stretch_between_them_either_way_round():
    assert runs(coverage(line(trimStart=25, trimEnd=75))[60]) == [(70, 169)]
    assert runs(coverage(line(trimStart=75, trimEnd=25))[60]) == [(70, 169)]
    assert coverage(line(trimStart=40, trimEnd=40)).max() == 0


def test_an_animated_trim_draws_on_at_the_speed_of_its_keys():
    drawing_on = line(trimEnd=keys((0.0, 0), (1.0, 100)))
    assert coverage(drawing_on, 0.0).max() == 0
    assert runs(coverage(drawing_on, 0.25)[60]) == [(20, 69)]
    assert runs(coverage(drawing_on, 0.75)[60]) == [(20, 169)]


def test_trim_offset_turns_the_kept_stretch_and_wraps_past_the_end():
    # A quarter of the line, turned by 90 degrees (a quarter of the way along).
    assert runs(coverage(line(trimEnd=25, trimOffset=90))[60]) == [(70, 119)]
    # Turned by 324 degrees (90%), the quarter runs past the end and wraps to the start.
    assert runs(coverage(line(trimEnd=25, trimOffset=324))[60]) == [(20, 49), (200, 219)]


def test_twenty_twenty_dashes_on_200_px_make_five_dashes():
    dashed = runs(coverage(line(dashes=[20, 20]))[60])
    assert dashed == [(20 + 40 * i, 39 + 40 * i) for i in range(5)]


def test_the_dash_offset_shifts_the_pattern_along_the_stroke():
    shifted = runs(coverage(line(dashes=[20, 20], dashOffset=10))[60])
    assert shifted[0] == (20, 29) and shifted[1] == (50, 69)


def test_dashes_run_along_what_the_trim_kept():
    assert runs(coverage(line(trimStart=50, dashes=[20, 20]))[60]) == \
        [(120 + 40 * i, 139 + 40 * i) for i in range(3)]


@pytest.mark.parametrize("kind", ["rect", "ellipse", "polygon", "star"])
def test_every_kind_of_shape_trims_its_stroke_by_its_outline_length(kind):
    extra = {"points": 5} if kind in ("polygon", "star") else {}
    whole = shape("s", kind, 20, 20, 80, 80, fill=None, stroke=WHITE, strokeWidth=2, **extra)
    half = shape("s", kind, 20, 20, 80, 80, fill=None, stroke=WHITE, strokeWidth=2,
                 trimEnd=50, **extra)
    assert coverage(half).sum() == pytest.approx(coverage(whole).sum() / 2, rel=0.03)


def test_an_ellipse_stroke_starts_at_its_top_and_runs_clockwise():
    half = coverage(shape("e", "ellipse", 20, 20, 80, 80, fill=None, stroke=WHITE,
                          strokeWidth=2, trimEnd=50))
    assert half[:, 62:].sum() > 100 and half[:, :58].sum() == 0  # the right half only
    assert half.sum() == pytest.approx(math.pi * 40 * 2, rel=0.03)


def test_trim_leaves_the_fill_whole():
    filled = coverage(shape("r", "rect", 20, 20, 80, 80, fill=WHITE, stroke=WHITE,
                            strokeWidth=2, trimEnd=10))
    assert filled[25:95, 25:95].min() > 0.99


def test_dashes_too_fine_to_cut_draw_the_stroke_at_their_share_of_on():
    # 200 px of 0.004 px periods would be 50,000 dashes, past the limit of 25,000 a stroke.
    fine = coverage(line(dashes=[0.001, 0.003]))
    assert fine[58:62, 20:220].mean() == pytest.approx(0.25, abs=0.01)
    assert fine.sum() == pytest.approx(200 * 4 * 0.25, rel=0.02)
