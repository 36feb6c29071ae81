"""Expressions drive every kind of property the compositor reads, not only transforms: a
frame with an expression giving a value is the very pixels of the frame with that value
stored (colors, effect params, masks, text, shape content, a precomp's layers at their source
times)."""

import copy

import numpy as np
import pytest

from tests.helpers.compositor_documents import (box_path, comp, document, effect, mask, shape,
                                                solid, text)
from workers.compositor import render_frame


def with_expression(layer, path, expression):
    driven = copy.deepcopy(layer)
    driven["expressions"] = {path: expression}
    return driven


def frames_equal(plain, driven, time=0.5):
    a = render_frame(document(comp("main", [plain])), "main", time).pixels
    b = render_frame(document(comp("main", [driven])), "main", time).pixels
    return np.array_equal(a, b), a, b


@pytest.mark.parametrize("build, path, value, expression", [
    (lambda v: solid("s", v, 20, 20, 60, 40), "color", [0.2, 0.6, 1.0, 1.0],
     "[0.2, 0.6, time * 2, 1]"),
    (lambda v: shape("r", "rect", 20, 20, 80, 40, fill=[1, 1, 1, 1], cornerRadius=v),
     "cornerRadius", 12, "time * 24"),
    (lambda v: shape("r", "rect", 20, 20, 80, 40, stroke=[1, 0, 0, 1], strokeWidth=4,
                     trimEnd=v), "trimEnd", 60, "linear(time, 0, 1, 20, 100)"),
    (lambda v: text("t", v, 80, 45), "text", "frame 15", "'frame ' + timeToFrames()"),
])
def test_content_driven_by_an_expression_draws_as_that_value_stored(build, path, value,
                                                                     expression):
    same, plain, driven = frames_equal(build(value), with_expression(build("x" if path == "text"
                                                                          else value), path,
                                                                    expression))
    assert same
    assert plain.any()


def test_an_effect_param_and_a_mask_driven_by_expressions():
    def blurred(radius):
        return solid("s", [1, 1, 1, 1], 40, 20, 60, 40,
                     effects=[effect("fx1", "gaussianBlur", radius=radius)])
    same, plain, _ = frames_equal(blurred(6), with_expression(blurred(0), "effects.fx1.radius",
                                                              "time * 12"))
    assert same and 0 < plain[45, 38, 0] < 255  # blurred edge

    def masked(feather):
        layer = solid("m", [1, 0.5, 0, 1], 0, 0, 160, 90)
        layer["masks"] = [mask("mask1", box_path(40, 20, 80, 50), feather=feather)]
        return layer
    same, plain, _ = frames_equal(masked(10), with_expression(masked(0), "masks.mask1.feather",
                                                              "20 * time"))
    assert same and plain[45, 80, 0] == 255 and plain[5, 5, 0] == 0


def test_a_precomp_s_layers_are_evaluated_at_its_source_times():
    inner_plain = solid("s", [1, 1, 1, 1], 0, 0, 20, 20, position=(70, 30))
    inner_driven = with_expression(solid("s", [1, 1, 1, 1], 0, 0, 20, 20),
                                   "transform.position", "[time * 100, 30]")
    frames = []
    for inner in (inner_plain, inner_driven):
        holder = {"id": "p", "name": "p", "type": "precomp", "enabled": True,
                  "inPoint": 0.0, "outPoint": 10.0, "startTime": -0.2, "parent": None,
                  "blendMode": "normal", "trackMatte": None,
                  "transform": {"anchor": [0, 0], "position": [0, 0], "scale": [100, 100],
                                "rotation": 0, "opacity": 100},
                  "content": {"source": "inner"}, "effects": [],
                  "audio": {"level": 0, "muted": False}}
        doc = document(comp("main", [holder]), comp("inner", [inner]))
        # At comp time 0.5 the precomp shows its source at 0.7 s: x = 70.
        frames.append(render_frame(doc, "main", 0.5).pixels)
    assert np.array_equal(*frames) and frames[0][35, 75, 0] == 255
