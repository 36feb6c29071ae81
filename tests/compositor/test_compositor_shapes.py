"""Shape layers: geometry, fill, stroke, joins, caps, gradients, checked by area and pixels."""

import math

import numpy as np
import pytest

from tests.helpers.compositor_documents import bezier, comp, document, shape
from workers.compositor import render_frame


def coverage(pixels: np.ndarray) -> np.ndarray:
    """How much of each pixel a white shape over black covers, 0..1."""
    return pixels[..., 0].astype(float) / 255.0


def render(*layers) -> np.ndarray:
    return render_frame(document(comp("c", list(layers))), "c", 0.0).pixels


def test_rect_fills_its_size_at_its_position():
    pixels = render(shape("r", "rect", 10, 10, 50, 30))
    assert coverage(pixels).sum() == pytest.approx(1500, abs=0.5)
    assert (pixels[10:40, 10:60, 0] == 255).all()


def test_rounded_rect_loses_its_corners():
    pixels = render(shape("r", "rect", 10, 10, 60, 60, cornerRadius=20))
    expected = 60 * 60 - (4 - math.pi) * 20 * 20
    assert coverage(pixels).sum() == pytest.approx(expected, rel=0.01)
    assert pixels[11, 11, 0] == 0 and pixels[40, 11, 0] == 255


def test_ellipse_area_is_pi_a_b():
    pixels = render(shape("e", "ellipse", 10, 5, 80, 60))
    assert coverage(pixels).sum() == pytest.approx(math.pi * 40 * 30, rel=0.01)


def test_polygon_of_four_corners_is_a_diamond_pointing_up():
    pixels = render(shape("p", "polygon", 20, 10, 60, 60, points=4))
    assert coverage(pixels).sum() == pytest.approx(60 * 60 / 2, rel=0.01)
    assert pixels[11, 50, 0] > 0 and pixels[11, 25, 0] == 0  # the top corner is centered


def test_star_area_matches_its_inner_radius():
    points, outer, inner = 5, 30.0, 15.0
    pixels = render(shape("s", "star", 20, 10, 60, 60, points=points, innerRadius=0.5))
    # 2n triangles between the center, an outer and an inner corner.
    expected = 2 * points * 0.5 * outer * inner * math.sin(math.pi / points)
    assert coverage(pixels).sum() == pytest.approx(expected, rel=0.01)


def test_path_draws_its_points_closed_or_open():
    triangle = [[0, 0], [40, 0], [0, 40]]
    closed = render(shape("p", "path", 10, 10, 40, 40, path=bezier(triangle)))
    assert coverage(closed).sum() == pytest.approx(800, rel=0.01)
    stroked = render(shape("p", "path", 10, 10, 40, 40, path=bezier(triangle, closed=False),
                           fill=None, stroke=[1, 1, 1, 1], strokeWidth=2))
    # The top edge and the diagonal, 2 px wide; no closing edge down the left side.
    assert coverage(stroked).sum() == pytest.approx((40 + 40 * math.sqrt(2)) * 2, rel=0.03)
    assert stroked[35, 10, 0] == 0 and closed[35, 10, 0] > 0


def test_stroke_is_centered_on_the_outline_with_its_width():
    pixels = render(shape("r", "rect", 20, 20, 40, 40, fill=None, stroke=[1, 1, 1, 1],
                          strokeWidth=4))
    assert coverage(pixels).sum() == pytest.approx(44 * 44 - 36 * 36, abs=1)
    assert pixels[40, 40, 0] == 0  # not filled


@pytest.mark.parametrize("join, corner", [("miter", 1.0), ("bevel", 0.0), ("round", 0.0)])
def test_stroke_join_shapes_the_outer_corner(join, corner):
    pixels = render(shape("r", "rect", 20, 20, 40, 40, fill=None, stroke=[1, 1, 1, 1],
                          strokeWidth=10, strokeJoin=join))
    assert coverage(pixels)[15, 15] == pytest.approx(corner, abs=0.05)


@pytest.mark.parametrize("cap, reach", [("butt", 0), ("square", 5), ("round", 5)])
def test_stroke_cap_extends_an_open_path_end(cap, reach):
    line = shape("l", "path", 40, 45, 80, 1, path=bezier([[0, 0], [80, 0]], closed=False),
                 fill=None, stroke=[1, 1, 1, 1], strokeWidth=10, strokeCap=cap)
    cols = np.nonzero(coverage(render(line))[45] > 0.5)[0]
    assert cols.min() == 40 - reach and cols.max() == 119 + reach


def test_linear_gradient_runs_from_start_to_end_color():
    gradient = {"type": "linear", "start": [0, 0], "end": [100, 0],
                "stops": [[0, [1, 0, 0, 1]], [1, [0, 0, 1, 1]]]}
    pixels = render(shape("g", "rect", 0, 0, 100, 90, fill=gradient)).astype(int)
    assert pixels[45, 0, 0] >= 250 and pixels[45, 99, 2] >= 250
    assert np.abs(pixels[45, 50, :3] - [127, 0, 128]).max() <= 3
    assert (np.diff(pixels[45, :100, 0]) <= 0).all()  # monotonic


def test_radial_gradient_is_center_color_in_the_middle_and_edge_color_at_the_radius():
    gradient = {"type": "radial", "center": [40, 40], "radius": 40,
                "stops": [[0, [1, 1, 1, 1]], [1, [0, 0, 0, 1]]]}
    pixels = render(shape("g", "rect", 0, 0, 80, 80, fill=gradient)).astype(int)
    assert pixels[40, 40, 0] >= 250
    assert pixels[40, 79, 0] <= 8 and pixels[0, 0, 0] == 0
    assert abs(pixels[40, 60, 0] - pixels[60, 40, 0]) <= 1  # symmetric
