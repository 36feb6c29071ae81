"""Motion blur: the average of sub-frames across a shutter centred on the frame's time."""

import numpy as np
import pytest

from tests.helpers.compositor_documents import comp, document, keys, solid
from workers.compositor import render_frame
from workers.compositor.motion_blur import sample_times


def moving_doc(enabled: bool, samples=8, angle=180) -> dict:
    # 300 px/s at 30 fps with a 180-degree shutter: 5 px of travel while the shutter is open.
    mover = solid("m", (1, 0, 0, 1), 0, 0, 20, 20,
                  position=keys((0.0, [0, 30]), (1.0, [300, 30])))
    blur = {"enabled": enabled, "samples": samples, "shutterAngle": angle}
    return document(comp("c", [mover], width=320, motion_blur=blur))


def test_shutter_is_centred_on_the_frame_time():
    times = sample_times(1.0, 30, 4, 180)
    assert np.mean(times) == pytest.approx(1.0)
    assert max(times) - min(times) == pytest.approx((1 / 60) * 3 / 4)


def test_motion_blur_smears_a_moving_edge_over_the_shutter_travel():
    sharp = render_frame(moving_doc(False), "c", 0.5).pixels[40, :, 0].astype(int)
    blurred = render_frame(moving_doc(True), "c", 0.5).pixels[40, :, 0].astype(int)
    assert list(np.nonzero(sharp)[0][[0, -1]]) == [150, 169]
    ramp = blurred[146:155]
    assert ramp[0] == 0 and ramp[-1] == 255
    assert (np.diff(ramp) >= 0).all() and ((ramp > 0) & (ramp < 255)).sum() >= 3
    assert blurred[150] == pytest.approx(128, abs=40)  # the edge's middle is where it was
    assert blurred.sum() == pytest.approx(sharp.sum(), rel=0.01)


def test_motion_blur_off_or_one_sample_is_the_plain_frame():
    plain = render_frame(moving_doc(False), "c", 0.5).pixels
    assert (render_frame(moving_doc(True, samples=1), "c", 0.5).pixels == plain).all()
    assert (render_frame(moving_doc(True, angle=0), "c", 0.5).pixels == plain).all()


def test_motion_blur_on_a_transparent_render_keeps_colors_straight():
    pixels = render_frame(moving_doc(True), "c", 0.5, transparent=True).pixels
    edge = pixels[40, 146:155]
    partial = (edge[:, 3] > 0) & (edge[:, 3] < 255)
    assert partial.sum() >= 3
    # Straight alpha: a half-covered pixel of a red layer is still pure red, half transparent.
    assert (np.abs(edge[partial, 0].astype(int) - 255) <= 2).all()
    assert (edge[partial, 1:3] == 0).all()
