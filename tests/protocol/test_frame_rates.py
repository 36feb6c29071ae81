from fractions import Fraction

import pytest

from protocol.model.frame_rates import exact_frame_rate


@pytest.mark.parametrize("typed,exact", [
    (23.976, Fraction(24000, 1001)), (29.97, Fraction(30000, 1001)),
    (59.94, Fraction(60000, 1001)), (30000 / 1001, Fraction(30000, 1001)),
    (119.88, Fraction(120000, 1001)), (30, Fraction(30)), (12.5, Fraction(25, 2)),
    (29.9, Fraction(299, 10)),
])
def test_broadcast_rates_are_their_1001_fractions_and_others_are_as_written(typed, exact):
    assert exact_frame_rate(typed) == exact


def test_a_rate_not_above_zero_is_refused():
    with pytest.raises(ValueError, match="not above zero"):
        exact_frame_rate(0)
