"""GIF palettes: cut from each frame alone, exact for flat graphics, and gradients kept as
fine grain by error diffusion: decoded GIFs measured against the compositor's frames."""

from __future__ import annotations

import av
import numpy as np

from tests.helpers.bands import longest_flat_run
from tests.helpers.compositor_documents import comp, document, shape
from workers.compositor import render_frame
from workers.exporter import OpenedFiles, encode_segment, join_segments, segment_path
from workers.exporter.gif_palette import quantize


def rebuilt(rgb):
    indices, palette = quantize(rgb)
    assert indices.shape == rgb.shape[:2] and palette.shape == (256, 4)
    assert (palette[:, 0] == 255).all()  # ARGB, opaque
    return palette[indices][..., 1:]


def test_a_frame_with_few_colours_keeps_them_exactly():
    rgb = np.zeros((40, 60, 3), np.uint8)
    rgb[:, :20] = (13, 200, 77)
    rgb[:, 20:40] = (14, 201, 78)  # one level from the first: still told apart
    rgb[:, 40:] = (250, 250, 250)
    assert np.array_equal(rebuilt(rgb), rgb)


def test_the_palette_depends_on_the_frame_alone():
    rng = np.random.default_rng(3)
    rgb = rng.integers(0, 256, (30, 40, 3), dtype=np.uint8)
    first = quantize(rgb)
    quantize(rng.integers(0, 256, (30, 40, 3), dtype=np.uint8))  # another frame between
    again = quantize(rgb.copy())
    assert np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1])


def _gradient(layer_id, stops, width, height, top):
    """A left-to-right gradient over the whole width, `height` rows from `top`."""
    fill = {"type": "linear", "start": [0, 0], "end": [width, 0], "stops": stops}
    return shape(layer_id, "rect", 0, top, width, height, fill=fill)


def _gif_of(tmp_path, frame):
    """The compositor's frame through the GIF encoder and back, as decoded RGB."""
    final = str(tmp_path / "out.gif")
    opened = OpenedFiles()
    segment = segment_path(final, 0)
    encode_segment([frame], 0, 30, "gif", None, segment, opened=opened)
    join_segments([segment], "gif", final, 30, opened=opened)
    with av.open(final) as container:
        return next(container.decode(video=0)).to_ndarray(format="rgb24")


HUES = [[0, "#ff0000"], [0.5, "#00ff00"], [1, "#0000ff"]]


def test_a_gray_ramp_under_a_title_keeps_its_levels(tmp_path):
    # Red dots' anti-aliased edges over the ramp take the frame past 256 colours, where palettes
    # cut from colours binned at 5 bits a channel kept 32 levels of the ramp.
    dots = [shape(f"dot{index}", "ellipse", 40 + 200 * index, 4, 12, 12, fill=[1, 0.2, 0.1, 1])
            for index in range(5)]
    layers = dots + [_gradient("ramp", [[0, "#000000"], [1, "#ffffff"]], 1024, 20, 0)]
    frame = render_frame(document(comp("c", layers, width=1024, height=20)), "c", 0.0).pixels
    assert len(np.unique(frame[..., :3].reshape(-1, 3), axis=0)) > 256
    decoded = _gif_of(tmp_path, frame)
    assert len(np.unique(decoded[18:, :, 1])) >= 200


def test_a_dark_gradient_beside_many_colours_has_no_bands(tmp_path):
    # Top: black to a dark blue-gray, dithered by Skia; bottom: a hue sweep that takes most of
    # the palette. Bands are flat runs of the dark half's column means.
    layers = [_gradient("dark", [[0, "#000000"], [1, "#1c2430"]], 960, 48, 0),
              _gradient("hues", HUES, 960, 48, 48)]
    frame = render_frame(document(comp("c", layers, width=960, height=96)), "c", 0.0).pixels
    decoded = _gif_of(tmp_path, frame)
    source_means = frame[:48, :, :3].mean(axis=(0, 2))
    means = decoded[:48].astype(float).mean(axis=(0, 2))
    assert longest_flat_run(np.round(source_means, 3)) <= 10
    assert longest_flat_run(np.round(means, 3)) <= 20
    assert np.abs(means - source_means).max() < 2  # the gradient is where it was
