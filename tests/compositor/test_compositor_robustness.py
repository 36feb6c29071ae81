"""A render worker never crashes on a document it was given: references to nothing, loops,
empty content and unknown names draw nothing for the layer at fault and keep the rest."""

from tests.helpers.compositor_documents import bezier, comp, document, effect, layer, shape, solid, text
from workers.compositor import render_frame


def test_odd_but_possible_documents_render_the_layers_that_make_sense():
    odd = [
        solid("top_matte", (0, 0, 1, 1), 0, 80, 10, 10, trackMatte="alpha"),
        layer("pre", "precomp", {"source": "comp404"}),
        solid("orphan", (0, 0, 1, 1), 0, 0, 10, 10, parent="layer404"),
        solid("loop_a", (0, 0, 1, 1), 0, 0, 10, 10, parent="loop_b", position=(20, 0)),
        solid("loop_b", (0, 0, 1, 1), 0, 0, 10, 10, parent="loop_a", position=(40, 0)),
        text("empty", "", 80, 45),
        text("blank_lines", "\n\n", 80, 45),
        shape("short_path", "path", 0, 0, 10, 10, path=bezier([[0, 0]])),
        solid("strange_fx", (0, 0, 1, 1), 0, 60, 10, 10,
              effects=[effect("fx1", "noSuchEffect", radius=3)]),
        layer("mystery", "hologram", {}),
        solid("base", (1, 0, 0, 1), 100, 0, 60, 90),
    ]
    frame = render_frame(document(comp("c", odd)), "c", 0.0)
    pixels = frame.pixels
    assert frame.missing == []
    assert (pixels[:, 100:] == [255, 0, 0, 255]).all()
    # The orphan (parent missing: none) and the layer with an unknown effect still draw; a
    # first layer's track matte has no layer above it and is ignored. (A parenting loop is
    # only bounded, by protocol/model/transforms.py, so where its layers land is not asserted.)
    assert (pixels[5, 5] == [0, 0, 255, 255]).all()
    assert (pixels[65, 5] == [0, 0, 255, 255]).all()
    assert (pixels[85, 5] == [0, 0, 255, 255]).all()
