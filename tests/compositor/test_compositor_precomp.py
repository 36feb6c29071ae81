"""Precomp layers: a nested comp at the layer's own time, clipped to its frame, flattened before
its opacity, with its background left out."""

import numpy as np

from tests.helpers.compositor_documents import comp, document, keys, layer, solid
from workers.compositor import render_frame

RED = (1, 0, 0, 1)


def precomp_layer(source: str, **kwargs) -> dict:
    return layer("pre", "precomp", {"source": source}, **kwargs)


def test_precomp_shows_its_source_at_the_layers_time():
    mover = solid("m", RED, 0, 0, 10, 10, position=keys((0.0, [0, 0]), (1.0, [100, 0])))
    inner = comp("inner", [mover], width=160, height=90)
    outer = comp("outer", [precomp_layer("inner", startTime=0.5)])
    doc = document(outer, inner)
    # Comp time 1.0 is 0.5 s into the precomp: the solid is halfway.
    xs = np.nonzero(render_frame(doc, "outer", 1.0).pixels[5, :, 0])[0]
    assert (xs.min(), xs.max()) == (50, 59)
    # Before the layer's start its source is at time < 0, before its own layers' in points.
    assert not render_frame(doc, "outer", 0.2).pixels[..., 0].any()


def test_precomp_is_clipped_to_its_frame_and_placed_by_its_transform():
    inner = comp("inner", [solid("big", RED, -50, -50, 200, 200)], width=40, height=30,
                 background=(0, 1, 0, 1))
    outer = comp("outer", [precomp_layer("inner", position=(100, 50), anchor=(20, 15))])
    pixels = render_frame(document(outer, inner), "outer", 0.0).pixels
    red = pixels[..., 0] > 0
    expected = np.zeros_like(red)
    expected[35:65, 80:120] = True
    assert (red == expected).all()
    assert (pixels[..., 1] == 0).all()  # the nested comp's background is not drawn


def test_precomp_opacity_fades_its_layers_as_one_picture():
    top = solid("top", (0, 1, 0, 1), 0, 0, 160, 90)
    under = solid("under", RED, 0, 0, 160, 90)
    inner = comp("inner", [top, under])
    outer = comp("outer", [precomp_layer("inner", opacity=50)])
    pixels = render_frame(document(outer, inner), "outer", 0.0).pixels.astype(int)
    # Faded layer by layer, the red would show through the green.
    assert np.abs(pixels[45, 80, :3] - [0, 128, 0]).max() <= 1


def test_precomp_that_contains_itself_renders_without_recursing_forever():
    loop = comp("loop", [precomp_layer("loop"), solid("s", RED, 0, 0, 10, 10)])
    pixels = render_frame(document(loop), "loop", 0.0).pixels
    assert (pixels[5, 5] == [255, 0, 0, 255]).all()


def test_missing_inside_a_precomp_is_reported(tmp_path):
    gone = str(tmp_path / "gone.png")
    inner = comp("inner", [layer("img", "image", {"footage": "f1"})])
    outer = comp("outer", [precomp_layer("inner")])
    item = {"id": "f1", "name": "gone.png", "path": gone, "kind": "image", "width": 4,
            "height": 4}
    assert render_frame(document(outer, inner, footage=[item]), "outer", 0.0).missing == [gone]
