"""bitDepth and linearBlending: what a deep comp's frame holds, against formulas."""

import numpy as np
import pytest

from protocol.model.document import DocumentError, load_document
from tests.helpers.compositor_documents import comp, document, solid
from workers.compositor import render_frame
from workers.exporter.deep_pixels import as_8_bits


def srgb_to_linear(value: float) -> float:
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def linear_to_srgb(value: float) -> float:
    return value * 12.92 if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055


def red_over_green(**settings) -> np.ndarray:
    layers = [solid("red", (1, 0, 0, 1), 0, 0, 8, 8, opacity=50.0),
              solid("green", (0, 1, 0, 1), 0, 0, 8, 8)]
    drawn = comp("c", layers, width=8, height=8)
    drawn.update(settings)
    return render_frame(document(drawn), "c", 0.0).pixels


@pytest.mark.parametrize("depth", [8, 16, "float"])
def test_linear_blending_mixes_light_not_codes(depth):
    pixel = red_over_green(bitDepth=depth, linearBlending=True)[4, 4]
    assert pixel.dtype == np.float32
    # Half the light of red and half of green: each channel 0.5 in linear light, 0.735 as
    # sRGB, where mixing the codes gives 0.5.
    mixed = linear_to_srgb(0.5 * srgb_to_linear(1.0) + 0.5 * srgb_to_linear(0.0))
    assert np.allclose(pixel[:3], [mixed, mixed, 0.0], atol=2e-3)
    assert pixel[3] == 1.0


def test_without_linear_blending_a_deep_comp_mixes_codes_as_8_bits_do():
    eight = red_over_green()
    sixteen = red_over_green(bitDepth=16)
    assert eight.dtype == np.uint8 and sixteen.dtype == np.float32
    assert np.allclose(sixteen[4, 4, :3], [0.5, 0.5, 0.0], atol=1e-3)
    assert np.abs(as_8_bits(sixteen).astype(int) - eight.astype(int)).max() <= 1


def test_a_bit_depth_the_compositor_has_not_is_refused():
    drawn = comp("c", [], width=8, height=8)
    drawn["bitDepth"] = 12
    with pytest.raises(DocumentError, match=r"comps\[0\]\.bitDepth: expected one of 8, 16, float"):
        load_document(document(drawn))
