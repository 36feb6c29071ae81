"""Where layers land: position, anchor, opacity, keyframes, rotation, parenting, output scale."""

import numpy as np
import pytest

from tests.helpers.compositor_documents import comp, document, keys, layer, solid
from workers.compositor import render_frame

RED = (1, 0, 0, 1)


def covered(pixels: np.ndarray) -> np.ndarray:
    """Pixels the layer touched at all, over a black background."""
    return pixels[..., :3].max(axis=2) > 0


def box_mask(x0, y0, x1, y1, shape=(90, 160)) -> np.ndarray:
    mask = np.zeros(shape, bool)
    mask[y0:y1, x0:x1] = True
    return mask


def test_output_is_straight_rgba_of_the_comp_size():
    frame = render_frame(document(comp("c", [])), "c", 0.0)
    assert frame.pixels.shape == (90, 160, 4)
    assert frame.pixels.dtype == np.uint8 and frame.pixels.flags["C_CONTIGUOUS"]
    assert (frame.pixels == [0, 0, 0, 255]).all()
    assert frame.missing == []


def test_solid_at_a_position_covers_exactly_its_rectangle():
    doc = document(comp("c", [solid("s", RED, 30, 20, 40, 25)]))
    pixels = render_frame(doc, "c", 0.0).pixels
    assert (covered(pixels) == box_mask(30, 20, 70, 45)).all()
    assert (pixels[20:45, 30:70] == [255, 0, 0, 255]).all()


def test_anchor_is_the_point_placed_at_position():
    doc = document(comp("c", [solid("s", RED, 0, 0, 40, 20, position=(80, 45), anchor=(20, 10))]))
    pixels = render_frame(doc, "c", 0.0).pixels
    assert (covered(pixels) == box_mask(60, 35, 100, 55)).all()


def test_half_opacity_over_black_gives_half_the_value():
    color = (0.8, 0.4, 1.0, 1.0)
    doc = document(comp("c", [solid("s", color, 0, 0, 160, 90, opacity=50)]))
    pixels = render_frame(doc, "c", 0.0).pixels.astype(int)
    expected = np.array([0.8 * 255 / 2, 0.4 * 255 / 2, 255 / 2])
    assert np.abs(pixels[..., :3] - expected).max() <= 1
    assert (pixels[..., 3] == 255).all()


def test_keyframed_position_is_halfway_at_the_middle_of_a_linear_pair():
    moving = solid("s", RED, 0, 0, 10, 10, position=keys((0.0, [0, 40]), (2.0, [100, 40])))
    doc = document(comp("c", [moving]))
    pixels = render_frame(doc, "c", 1.0).pixels
    assert (covered(pixels) == box_mask(50, 40, 60, 50)).all()


def test_easy_ease_is_behind_linear_before_the_middle():
    moving = solid("s", RED, 0, 0, 10, 10,
                   position=keys((0.0, [0, 40]), (2.0, [100, 40]), interpolation="easyEase"))
    pixels = render_frame(document(comp("c", [moving])), "c", 0.5).pixels
    xs = np.nonzero(covered(pixels).any(axis=0))[0]
    assert xs[0] < 25  # linear would be at 25


def test_rotation_by_90_degrees_turns_a_wide_bar_upright():
    bar = solid("s", RED, 0, 0, 60, 10, position=(80, 45), anchor=(30, 5), rotation=90)
    pixels = render_frame(document(comp("c", [bar])), "c", 0.0).pixels
    assert (covered(pixels) == box_mask(75, 15, 85, 75)).all()


def test_rotation_is_clockwise():
    # A bar from the anchor to the right, turned 90 degrees clockwise, points down (y down).
    bar = solid("s", RED, 0, 0, 30, 4, position=(80, 45), anchor=(0, 2), rotation=90)
    pixels = render_frame(document(comp("c", [bar])), "c", 0.0).pixels
    ys = np.nonzero(covered(pixels).any(axis=1))[0]
    assert ys.min() >= 45 and ys.max() == 74


def test_scale_is_about_the_anchor():
    square = solid("s", RED, 0, 0, 20, 20, position=(80, 45), anchor=(10, 10), scale=(200, 50))
    pixels = render_frame(document(comp("c", [square])), "c", 0.0).pixels
    assert (covered(pixels) == box_mask(60, 40, 100, 50)).all()


def test_parenting_moves_children_with_the_parent():
    parent = layer("p", "null", {}, position=keys((0.0, [0, 0]), (1.0, [50, 20])))
    child = solid("s", RED, 10, 10, 20, 20, parent="p")
    doc = document(comp("c", [child, parent]))
    assert (covered(render_frame(doc, "c", 0.0).pixels) == box_mask(10, 10, 30, 30)).all()
    assert (covered(render_frame(doc, "c", 1.0).pixels) == box_mask(60, 30, 80, 50)).all()


def test_parent_rotation_and_scale_apply_to_the_child_but_not_its_opacity():
    parent = layer("p", "null", {}, position=(80, 45), rotation=90, scale=(50, 50), opacity=0)
    # 40 px to the parent's right in its coordinates: 20 px below it once rotated and halved.
    child = solid("s", RED, 40, -10, 20, 20, parent="p")
    pixels = render_frame(document(comp("c", [child, parent])), "c", 0.0).pixels
    assert (covered(pixels) == box_mask(75, 65, 85, 75)).all()
    assert (pixels[66:74, 76:84] == [255, 0, 0, 255]).all()


def test_layer_shows_only_between_in_and_out_points():
    doc = document(comp("c", [solid("s", RED, 0, 0, 10, 10, inPoint=1.0, outPoint=2.0)]))
    assert not covered(render_frame(doc, "c", 0.5).pixels).any()
    assert covered(render_frame(doc, "c", 1.0).pixels).any()
    assert not covered(render_frame(doc, "c", 2.0).pixels).any()


def test_disabled_layer_is_not_drawn():
    doc = document(comp("c", [solid("s", RED, 0, 0, 10, 10, enabled=False)]))
    assert not covered(render_frame(doc, "c", 0.0).pixels).any()


def test_first_layer_is_on_top():
    top = solid("top", (0, 1, 0, 1), 0, 0, 20, 20)
    bottom = solid("bottom", RED, 10, 0, 20, 20)
    pixels = render_frame(document(comp("c", [top, bottom])), "c", 0.0).pixels
    assert (pixels[5, 15] == [0, 255, 0, 255]).all()
    assert (pixels[5, 25] == [255, 0, 0, 255]).all()


@pytest.mark.parametrize("scale, size", [(0.5, (45, 80)), (0.25, (22, 40)), (2.0, (180, 320))])
def test_scale_renders_the_same_picture_at_a_reduced_size(scale, size):
    doc = document(comp("c", [solid("s", RED, 40, 20, 40, 40)]))
    pixels = render_frame(doc, "c", 0.0, scale=scale).pixels
    assert pixels.shape[:2] == size
    y0, x0 = int(20 * scale), int(40 * scale)
    y1, x1 = int(60 * scale), int(80 * scale)
    assert (pixels[y0:y1, x0:x1] == [255, 0, 0, 255]).all()
    area, edge = (y1 - y0) * (x1 - x0), (x1 - x0) + (y1 - y0)
    assert covered(pixels).sum() == pytest.approx(area, abs=2 * edge)


def test_comp_found_by_name_and_unknown_comp_is_named():
    doc = document(comp("comp7", [], name="Main"))
    assert render_frame(doc, "Main", 0.0).pixels.shape == (90, 160, 4)
    with pytest.raises(LookupError, match="nope"):
        render_frame(doc, "nope", 0.0)


def test_transparent_render_leaves_the_background_out_and_keeps_straight_color():
    doc = document(comp("c", [solid("s", (0.2, 0.6, 1.0, 1), 0, 0, 160, 90, opacity=25)],
                        background=(1, 1, 1, 1)))
    pixels = render_frame(doc, "c", 0.0, transparent=True).pixels.astype(int)
    # Straight alpha: the color is the solid's, the alpha its opacity.
    assert np.abs(pixels[45, 80] - [51, 153, 255, 64]).max() <= 2


def test_out_array_is_filled_in_place():
    out = np.zeros((90, 160, 4), np.uint8)
    frame = render_frame(document(comp("c", [solid("s", RED, 0, 0, 10, 10)])), "c", 0.0, out=out)
    assert frame.pixels is out and (out[0, 0] == [255, 0, 0, 255]).all()
    with pytest.raises(ValueError, match="shape"):
        render_frame(document(comp("c", [])), "c", 0.0, out=np.zeros((10, 10, 4), np.uint8))


def test_scale_of_zero_or_less_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="scale must be above 0"):
        render_frame(document(comp("c", [])), "c", 0.0, scale=0)
