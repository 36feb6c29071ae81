from workers.compositor.bundled_families import BUNDLED_FAMILIES
from workers.compositor.fonts import bundled_families


def test_written_out_families_are_the_ones_the_bundled_files_hold():
    assert list(BUNDLED_FAMILIES) == bundled_families()
