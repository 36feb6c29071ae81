"""WCAG contrast and the safe areas, checked against published values."""

import pytest

from protocol.model.legibility import (LINEAR_8BIT, contrast_ratio, readable_size,
                                       relative_luminance, safe_rect)


def luminance_of(hex_color: str) -> float:
    return relative_luminance(*(int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5)))


@pytest.mark.parametrize("text, ground, ratio", [
    ("#000000", "#ffffff", 21.0),
    ("#767676", "#ffffff", 4.54),   # the lightest grey on white that passes AA
    ("#777777", "#ffffff", 4.48),   # one step lighter fails it
    ("#ffffff", "#808080", 3.95),
    ("#0000ff", "#ffffff", 8.59),
])
def test_contrast_ratios_match_the_values_wcag_tools_publish(text, ground, ratio):
    assert contrast_ratio(luminance_of(text), luminance_of(ground)) == pytest.approx(
        ratio, abs=0.01)
    assert contrast_ratio(luminance_of(ground), luminance_of(text)) == pytest.approx(
        ratio, abs=0.01)


def test_the_8_bit_table_is_the_channel_formula():
    assert LINEAR_8BIT[0] == 0 and LINEAR_8BIT[255] == pytest.approx(1)
    assert LINEAR_8BIT[10] == pytest.approx(10 / 255 / 12.92)
    assert LINEAR_8BIT[128] == pytest.approx(((128 / 255 + 0.055) / 1.055) ** 2.4)


def test_safe_areas_are_the_middle_of_the_frame():
    assert safe_rect(1920, 1080, 80) == pytest.approx((192, 108, 1728, 972))
    assert safe_rect(1280, 720, 90) == pytest.approx((64, 36, 1216, 684))
    assert readable_size(1920, 1080) == 30 and readable_size(1080, 1920) == 30
