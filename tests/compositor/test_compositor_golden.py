"""Whole comps against golden images (tests/golden). A failure here means the picture changed:
if the change is intended, run scripts/regenerate_goldens.py, which prints how much each image
moved, and commit the new PNGs with the reason."""

import numpy as np
import pytest
import skia

from protocol.model.document import load_document
from tests.helpers.compositor_golden_scenes import SCENES, difference, golden_path, read_png
from workers.compositor import render_frame, render_to_surface

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


@pytest.mark.parametrize("name", sorted(SCENES))
def test_half_scale_render_is_the_full_render_made_smaller(name, tmp_path):
    # Previews and proxies render at a scale; every feature (text, effects, precomp clips,
    # motion blur) must shrink with it rather than keep its full-size pixels.
    build, comp_id, time = SCENES[name]
    document = build(str(tmp_path))
    full = render_frame(document, comp_id, time).pixels.astype(float)
    half = render_frame(document, comp_id, time, scale=0.5).pixels.astype(float)
    assert half.shape == (45, 80, 4)
    shrunk = full.reshape(45, 2, 80, 2, 4).mean(axis=(1, 3))
    assert np.abs(half - shrunk).mean() <= 3.0  # a layer out of place costs 7 or more


# render_to_surface draws one instant, by design: motion blur averages several, so it is
# render_frame's alone and its scene is not compared here.
@pytest.mark.parametrize("name", sorted(n for n in SCENES if "motion" not in n))
def test_render_to_surface_draws_what_render_frame_returns(name, tmp_path):
    build, comp_id, time = SCENES[name]
    document = build(str(tmp_path))
    assert not document["comps"][0].get("motionBlur", {}).get("enabled")
    surface, missing = render_to_surface(document, comp_id, time)
    assert missing == []
    pixels = surface.makeImageSnapshot().toarray(colorType=skia.kRGBA_8888_ColorType)
    assert (pixels == render_frame(document, comp_id, time).pixels).all()
