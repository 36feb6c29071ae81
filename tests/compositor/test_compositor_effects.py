"""Effects: blur, drop shadow, fill, tint and glow, applied to the layer's own pixels."""

import numpy as np
import pytest

from tests.helpers.compositor_documents import comp, document, effect, solid
from workers.compositor import render_frame


def square(*effects, color=(1, 1, 1, 1), **kwargs) -> dict:
    return solid("sq", color, 60, 25, 40, 40, effects=effects, **kwargs)


def render(*layers, background=(0, 0, 0, 1)) -> np.ndarray:
    return render_frame(document(comp("c", list(layers), background=background)), "c",
                        0.0).pixels.astype(float)


def test_blur_spreads_an_edge_and_keeps_the_total_energy():
    sharp = render(square())
    blurred = render(square(effect("fx1", "gaussianBlur", radius=8)))
    # Light leaves the inside of the edge and reaches outside it...
    assert sharp[45, 58, 0] == 0 and blurred[45, 58, 0] > 40
    assert sharp[45, 61, 0] == 255 and blurred[45, 61, 0] < 215
    assert blurred[45, 80, 0] == pytest.approx(255, abs=1)  # the middle is untouched
    # ...and none is lost or made: the sum over the frame is the same.
    assert blurred[..., 0].sum() == pytest.approx(sharp[..., 0].sum(), rel=0.01)


def test_blur_radius_is_in_the_layers_own_pixels():
    small = render(square(effect("fx1", "gaussianBlur", radius=6)))
    scaled = render(solid("sq", (1, 1, 1, 1), 60, 25, 20, 20, scale=(200, 200),
                          effects=[effect("fx1", "gaussianBlur", radius=3)]))
    assert np.abs(small - scaled).max() <= 3


def test_disabled_effect_does_nothing():
    blur = effect("fx1", "gaussianBlur", radius=8)
    blur["enabled"] = False
    assert (render(square(blur)) == render(square())).all()


def test_drop_shadow_falls_at_its_direction_and_distance():
    shadow = effect("fx1", "dropShadow", color=[0, 0, 0, 1], distance=10, direction=135,
                    softness=0, opacity=50)
    pixels = render(square(shadow, color=(1, 0, 0, 1)), background=(1, 1, 1, 1))
    # Down and to the right of the square, the white background is half darkened.
    assert np.abs(pixels[70, 105] - [127.5, 127.5, 127.5, 255]).max() <= 1.5
    assert (pixels[20, 55] == 255).all()  # not up and to the left
    assert (pixels[45, 80, :3] == [255, 0, 0]).all()  # the layer stays on top


def test_fill_recolors_the_layer_keeping_its_alpha():
    filled = render(square(effect("fx1", "fill", color=[0, 0, 1, 1], opacity=100),
                           color=(1, 0, 0, 1), opacity=50))
    assert np.abs(filled[45, 80, :3] - [0, 0, 127.5]).max() <= 1
    assert (filled[10, 10, :3] == 0).all()
    half = render(square(effect("fx1", "fill", color=[0, 0, 1, 1], opacity=50),
                         color=(1, 0, 0, 1)))
    assert np.abs(half[45, 80, :3] - [127.5, 0, 127.5]).max() <= 1


def test_tint_maps_black_and_white_to_its_colors_by_luma():
    tint = effect("fx1", "tint", black=[0, 0, 1, 1], white=[1, 1, 0, 1], amount=100)
    for value in (0.0, 0.5, 1.0):
        pixels = render(square(tint, color=(value, value, value, 1)))
        expected = np.array([value, value, 1 - value]) * 255
        assert np.abs(pixels[45, 80, :3] - expected).max() <= 1.5, value


def test_glow_lights_up_around_bright_layers_only():
    bright = render(square(effect("fx1", "glow", radius=16, intensity=1, threshold=50)))
    dark = render(square(effect("fx1", "glow", radius=16, intensity=1, threshold=50),
                         color=(0.3, 0.3, 0.3, 1)))
    assert bright[45, 56, 0] > 20  # light outside the square
    assert bright[45, 80, 0] == 255
    assert dark[45, 56, 0] == 0  # below the threshold: no glow
    assert dark[45, 80, 0] == pytest.approx(0.3 * 255, abs=1)


def test_effects_apply_in_order():
    fill_then_blur = render(square(effect("fx1", "fill", color=[0, 1, 0, 1]),
                                   effect("fx2", "gaussianBlur", radius=8)))
    blur_then_fill = render(square(effect("fx1", "gaussianBlur", radius=8),
                                   effect("fx2", "fill", color=[0, 1, 0, 1])))
    assert (fill_then_blur[..., 0] == 0).all() and (blur_then_fill[..., 0] == 0).all()
    assert np.abs(fill_then_blur - blur_then_fill).max() <= 2
