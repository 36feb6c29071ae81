"""Lottie drawn as lottie-web (the reference player) draws it where ThorVG alone would not
(protocol/model/lottie_web_rules.py), checked at pixels whose values are known: mask modes
lottie-web paints as add, a transform turned by `rz`, rectangles at fractional positions."""

import math

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


def fill_effect(color) -> dict:
    """After Effects' Fill effect as Bodymovin writes it: the whole layer, not inverted, no
    feather, opaque."""
    params = [("Fill Mask", 10, 0), ("All Masks", 7, 0), ("Color", 2, [*color, 1]),
              ("Invert", 7, 0), ("Horizontal Feather", 0, 0), ("Vertical Feather", 0, 0),
              ("Opacity", 0, 1)]
    return {"ty": 21, "nm": "Fill", "mn": "ADBE Fill", "en": 1,
            "ef": [{"ty": kind, "nm": name, "v": {"a": 0, "k": value}}
                   for name, kind, value in params]}


def test_a_fill_effect_colours_a_masked_layer_inside_its_mask_only(tmp_path):
    document = red_rect((320, 180), (160, 90))
    layer = document["layers"][0]
    layer["masksProperties"] = [box_mask("a", -160, -90, 0, 90)]
    layer["ef"] = [fill_effect((1, 1, 1))]
    pixels = drawn(tmp_path, document)
    assert (pixels[90, 10:150] == 255).all()  # white, opaque
    assert (pixels[90, 170:310, 3] == 0).all()


def test_a_fill_effect_on_a_precomp_colours_only_that_layer_s_use_of_it(tmp_path):
    square = shape_layer(1, "rc", (100, 100), (1, 0, 0), (50, 50), (50, 50))
    square["shapes"][0]["it"][0]["r"]["k"] = 0
    document = animation([precomp_layer(1, "box", (80, 90)), precomp_layer(2, "box", (240, 90))],
                         assets=[{"id": "box", "w": 100, "h": 100, "layers": [square]}])
    document["layers"][0]["ef"] = [fill_effect((0, 0, 1))]
    pixels = drawn(tmp_path, document)
    assert list(pixels[90, 80]) == [0, 0, 255, 255] and list(pixels[90, 240]) == [255, 0, 0, 255]


def precomp_layer(index, asset, center) -> dict:
    return {"ddd": 0, "ind": index, "ty": 0, "refId": asset, "w": 100, "h": 100, "sr": 1,
            "ks": {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0},
                   "p": {"a": 0, "k": [*center, 0]}, "a": {"a": 0, "k": [50, 50, 0]},
                   "s": {"a": 0, "k": [100, 100, 100]}},
            "ao": 0, "ip": 0, "op": 60, "st": 0, "bm": 0}


def star(points) -> dict:
    """A 320x180 animation of one white star of `points` points (a number or keys)."""
    document = red_rect((10, 10), (160, 90))
    items = document["layers"][0]["shapes"][0]["it"]
    items[0] = {"ty": "sr", "sy": 1, "d": 1, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0},
                "pt": points, "ir": {"a": 0, "k": 30}, "is": {"a": 0, "k": 0},
                "or": {"a": 0, "k": 80}, "os": {"a": 0, "k": 0}}
    items[1]["c"]["k"] = [1, 1, 1, 1]
    return document


def test_a_star_of_a_fractional_number_of_points_has_the_whole_points_only(tmp_path):
    five = drawn(tmp_path, star({"a": 0, "k": 5}))
    assert (drawn(tmp_path, star({"a": 0, "k": 5.6})) == five).all()
    keyed = {"a": 1, "k": [{"t": 0, "s": [5], "i": {"x": [1], "y": [1]},
                            "o": {"x": [0], "y": [0]}}, {"t": 30, "s": [6]}]}
    engine, _ = shown(tmp_path, star(keyed))
    halfway = render_frame(engine.doc, "Main", 0.5, transparent=True).pixels  # 5.5 points
    assert (halfway == five).all()


def star_traced_as_lottie_web(points, inner, outer, outer_roundness) -> dict:
    """The path lottie-web traces for a star (its convertStarToPath): each corner's tangents
    along the circle through it, 2 pi r / (4 points) long times the corner's roundness."""
    corners = 2 * points
    path = {"c": True, "v": [], "i": [], "o": []}
    for index in range(corners):
        radius, roundness = (outer, outer_roundness / 100) if index % 2 == 0 else (inner, 0)
        angle = -math.pi / 2 + index * 2 * math.pi / corners
        x, y = radius * math.cos(angle), radius * math.sin(angle)
        along = 2 * math.pi * radius / (corners * 2) * roundness
        tangent = (y / radius * along, -x / radius * along)
        path["v"].append([x, y])
        path["o"].append([-tangent[0], -tangent[1]])
        path["i"].append([tangent[0], tangent[1]])
    return path


def test_a_rounded_star_s_corners_are_as_round_as_lottie_web_draws_them(tmp_path):
    document = star({"a": 0, "k": 5})
    items = document["layers"][0]["shapes"][0]["it"]
    items[0]["os"]["k"] = 100
    traced = red_rect((10, 10), (160, 90))
    traced["layers"][0]["shapes"][0]["it"][0] = {
        "ty": "sh", "ks": {"a": 0, "k": star_traced_as_lottie_web(5, 30, 80, 100)}}
    traced["layers"][0]["shapes"][0]["it"][1]["c"]["k"] = [1, 1, 1, 1]
    alpha, expected = (drawn(tmp_path, d)[..., 3].astype(int) for d in (document, traced))
    assert (abs(alpha - expected) > 64).mean() < 0.001


def test_a_repeater_of_a_fractional_number_of_copies_draws_the_copy_begun(tmp_path):
    # Copies keyed from 1 to 4 over frames 0..30: at frame 15 there are 2.5, which lottie-web
    # rounds up to 3 (ThorVG drew 2). Each copy is the 20 px square moved 60 px right.
    document = red_rect((20, 20), (40, 90))
    items = document["layers"][0]["shapes"][0]["it"]
    items.insert(2, {"ty": "rp", "m": 1, "o": {"a": 0, "k": 0},
                     "c": {"a": 1, "k": [{"t": 0, "s": [1], "i": {"x": [1], "y": [1]},
                                          "o": {"x": [0], "y": [0]}}, {"t": 30, "s": [4]}]},
                     "tr": {"ty": "tr", "p": {"a": 0, "k": [60, 0]}, "a": {"a": 0, "k": [0, 0]},
                            "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0},
                            "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 100}}})
    engine, _ = shown(tmp_path, document)
    alpha = render_frame(engine.doc, "Main", 0.5, transparent=True).pixels[90, :, 3]
    assert alpha[40] == alpha[100] == alpha[160] == 255 and alpha[220] == 0


def test_a_zig_zag_bends_the_circle_before_it_into_ridges(tmp_path):
    """ThorVG 1.0 does not draw the Zig Zag modifier (its own test14.lot drew a plain circle);
    lottie-web bends the 20 px circle 8 px in and out."""
    layer = shape_layer(1, "el", (40, 40), (1, 0, 0), (160, 90), (160, 90), stroke=(1, 0, 0))
    items = layer["shapes"][0]["it"]
    del items[1]  # the fill: the stroke alone shows where the outline goes
    items.insert(1, {"ty": "zz", "r": {"a": 0, "k": 3}, "s": {"a": 0, "k": 8},
                     "pt": {"a": 0, "k": 1}})
    pixels = drawn(tmp_path, animation([layer]))
    rows, columns = np.nonzero(pixels[..., 3] > 128)
    reach = np.hypot(columns + 0.5 - 160, rows + 0.5 - 90)
    assert reach.max() > 26 and reach.min() < 14  # a plain circle: 18 to 22
