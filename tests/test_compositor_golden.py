"""Whole comps against golden images (tests/golden). A failure here means the picture changed:
if the change is intended, run scripts/regenerate_goldens.py, which prints how much each image
moved, and commit the new PNGs with the reason."""

import pytest

from protocol.document import load_document
from tests.compositor_golden_scenes import SCENES, difference, golden_path, read_png
from workers.compositor import render_frame

# Anti-aliasing and filter rounding may move a little between Skia builds; a real regression
# moves far more than this.
MAX_MEAN_DIFFERENCE = 0.6
MAX_PIXEL_DIFFERENCE = 48


@pytest.mark.parametrize("name", sorted(SCENES))
def test_comp_matches_its_golden_image(name, tmp_path):
    build, comp_id, time = SCENES[name]
    frame = render_frame(build(str(tmp_path)), comp_id, time)
    assert frame.missing == []
    golden = read_png(golden_path(name))
    assert golden.shape == frame.pixels.shape
    worst, mean = difference(frame.pixels, golden)
    assert mean <= MAX_MEAN_DIFFERENCE and worst <= MAX_PIXEL_DIFFERENCE, (
        f"{name}: max difference {worst}, mean {mean:.3f}; if intended, run "
        "scripts/regenerate_goldens.py")


@pytest.mark.parametrize("name", sorted(SCENES))
def test_golden_scenes_are_documents_the_schema_accepts(name, tmp_path):
    # The scenes are built by hand; the schema's own validator keeps them honest.
    build, _, _ = SCENES[name]
    load_document(build(str(tmp_path)))
