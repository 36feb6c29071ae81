"""The bench's reference project (examples/bench_project.py) is a valid document, and the
compositor draws what it describes, as the plain Skia peer does."""

import os
import sys

import numpy as np

from protocol.model.document import load_document
from tests.helpers.cli_projects import ROOT
from workers.compositor import render_frame

sys.path.insert(0, os.path.join(ROOT, "examples"))

import bench_project  # noqa: E402


def test_bench_project_is_valid_and_renders_its_layers(tmp_path):
    _, document = bench_project.write_bench_project(str(tmp_path))
    document = load_document(document)
    frame = render_frame(document, "Bench", 1.5, scale=0.25)
    assert frame.missing == [] and frame.pixels.shape == (270, 480, 4)
    pixels = frame.pixels.astype(int)
    # The first rect, 300 px to the right after 1.5 s: its center at ((200+150+300), 300) / 4,
    # red at 60% over the background.
    background = np.array(bench_project.BACKGROUND[:3]) * 255
    red = np.array(bench_project.RECT_COLORS[0][:3]) * 255
    expected = background + 0.6 * (red - background)
    assert np.abs(pixels[75, 162, :3] - expected).max() <= 2
    # The picture's center is where the comp puts it.
    center = bench_project.bench_image_pixels()[200, 300, :3].astype(int)
    assert np.abs(pixels[135, 325, :3] - center).max() <= 40
