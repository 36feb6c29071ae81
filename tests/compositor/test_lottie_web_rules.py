"""Lottie drawn as lottie-web (the reference player) draws it where ThorVG alone would not
(protocol/model/lottie_web_rules.py), checked at pixels whose values are known: mask modes
lottie-web paints as add, a transform turned by `rz`, rectangles at fractional positions."""

import numpy as np

from tests.compositor.test_lottie_footage import shown
from tests.helpers.lottie_documents import animation, shape_layer
from workers.compositor import render_frame


def red_rect(size, center) -> dict:
    """A 320x180 animation of one still, unrounded red rect."""
    document = animation([shape_layer(1, "rc", size, (1, 0, 0), center, center)])
    document["layers"][0]["shapes"][0]["it"][0]["r"]["k"] = 0
    return document


def drawn(tmp_path, document) -> np.ndarray:
    engine, _ = shown(tmp_path, document)
    return render_frame(engine.doc, "Main", 0.0, transparent=True).pixels


def box_mask(mode, left, top, right, bottom) -> dict:
    return {"mode": mode, "inv": False, "o": {"a": 0, "k": 100}, "x": {"a": 0, "k": 0},
            "pt": {"a": 0, "k": {"c": True, "v": [[left, top], [right, top], [right, bottom],
                                                  [left, bottom]],
                                 "i": [[0, 0]] * 4, "o": [[0, 0]] * 4}}}


def test_lighten_darken_and_difference_masks_add_to_the_masks_before_them(tmp_path):
    for mode in ("l", "d", "f"):
        document = red_rect((320, 180), (160, 90))
        # Layer coordinates: the rect is centred on the layer's origin.
        document["layers"][0]["masksProperties"] = [box_mask("a", -160, -90, 0, 90),
                                                    box_mask(mode, -80, -90, 80, 90)]
        pixels = drawn(tmp_path, document)
        alpha = pixels[90, :, 3]
        assert (alpha[:235] == 255).all() and (alpha[245:] == 0).all(), mode


def test_a_transform_with_3d_rotations_turns_by_rz(tmp_path):
    document = red_rect((100, 100), (160, 90))
    transform = document["layers"][0]["ks"]
    for axis in ("rx", "ry"):
        transform[axis] = {"a": 0, "k": 0}
    transform["rz"] = {"a": 0, "k": 45}
    transform["or"] = {"a": 0, "k": [0, 0, 0]}
    pixels = drawn(tmp_path, document)
    # Turned 45 degrees, its corners reach 70 px from its centre along the axes, its sides'
    # middles no longer reach 50 px along the diagonals.
    assert pixels[90, 160 + 65, 3] == 255 and pixels[90 - 45, 160 + 45, 3] == 0


def test_a_rect_at_half_pixels_has_blended_edges_as_a_path_does(tmp_path):
    pixels = drawn(tmp_path, red_rect((41, 41), (100, 90)))  # edges at x = 79.5 and 120.5
    row = pixels[90, :, 3].astype(int)
    assert abs(row[79] - 128) <= 8 and abs(row[120] - 128) <= 8
    assert (row[80:120] == 255).all() and row[78] == 0 and row[121] == 0
