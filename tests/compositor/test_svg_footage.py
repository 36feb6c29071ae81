"""SVG files as footage: imported with their size, drawn as vectors at the scale they are shown
(checked against resvg drawing the file itself at that scale, and by the width of the
anti-aliased edge), and refused in one sentence when malformed. What resvg draws that Skia's
SVG module did not, and what it must never read, are in test_svg_features.py."""

import numpy as np
import pytest
import resvg_py
import skia

from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp
from workers.compositor import render_frame

LOGO = b"""<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">
<rect x="5" y="5" width="30" height="10" fill="#ffffff"/>
<circle cx="20" cy="10" r="4" fill="#ff0000"/></svg>"""


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def logo_comp(tmp_path, data=LOGO, scale=300):
    engine = engine_with_comp(width=160, height=90)
    result = engine.run("layer.add", {"comp": "Main", "type": "image", "name": "Logo",
                                      "path": write(tmp_path, "logo.svg", data),
                                      "scale": [scale, scale]})
    return engine, result


def test_an_svg_imports_as_vector_footage_with_its_size(tmp_path):
    engine = engine_with_comp()
    result = engine.run("footage.import", {"path": write(tmp_path, "logo.svg", LOGO)})
    assert (result["kind"], result["width"], result["height"]) == ("vector", 40, 20)
    assert "warnings" not in result
    view_box_only = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32"><rect ' \
                    b'width="64" height="32"/></svg>'
    sized = engine.run("footage.import", {"path": write(tmp_path, "box.svg", view_box_only)})
    assert (sized["width"], sized["height"]) == (64, 32)


def test_an_svg_enlarged_300_percent_is_drawn_from_its_outlines_at_that_scale(tmp_path):
    engine, _ = logo_comp(tmp_path)
    pixels = render_frame(engine.doc, "Main", 0.0).pixels
    # resvg drawing the file itself at 3x, placed about the same center over black.
    drawn = skia.Image.MakeFromEncoded(resvg_py.svg_to_bytes(svg_string=LOGO.decode(), zoom=3))
    surface = skia.Surface(160, 90)
    surface.getCanvas().clear(skia.ColorBLACK)
    surface.getCanvas().drawImage(drawn, 80 - 60, 45 - 30)
    expected = surface.toarray(colorType=skia.kRGBA_8888_ColorType)
    assert np.abs(pixels.astype(int) - expected.astype(int)).max() <= 1


def test_an_enlarged_svgs_edge_stays_one_pixel_soft(tmp_path):
    engine, _ = logo_comp(tmp_path, scale=300)
    row = render_frame(engine.doc, "Main", 0.0).pixels[30, :, 1]  # through the rect, not the dot
    soft = np.flatnonzero((row > 0) & (row < 255))
    # The rect spans x = 35 .. 125 at 3x (from (5 * 3 + 20)); only its two edge pixels may be
    # partly covered. A 40x20 bitmap enlarged 3x would ramp over about 3 pixels at each edge.
    assert len(soft) <= 2 and row[36:124].min() == 255 and row[:34].max() == 0


def test_an_svg_is_sized_as_resvg_sizes_it(tmp_path):
    engine = engine_with_comp()
    for name, root, expected in (
            ("mm.svg", b'width="25.4mm" height="0.5in"', (96, 48)),
            ("half.svg", b'width="50%" viewBox="0 0 200 100"', (100, 100)),
            ("pt.svg", b'width="30pt" height="15pt"', (40, 20))):
        data = b'<svg xmlns="http://www.w3.org/2000/svg" ' + root + b'><rect/></svg>'
        result = engine.run("footage.import", {"path": write(tmp_path, name, data)})
        assert (result["width"], result["height"]) == expected, name


def test_an_svg_spelled_through_its_dtds_entities_imports_and_draws(tmp_path):
    data = b"""<!DOCTYPE svg [<!ENTITY box "<rect width='40' height='20' fill='red'/>">]>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20">&box;</svg>"""
    engine, result = logo_comp(tmp_path, data=data, scale=100)
    assert "warnings" not in result
    pixels = render_frame(engine.doc, "Main", 0.0).pixels
    assert tuple(pixels[45, 80]) == (255, 0, 0, 255)


def test_text_draws_without_a_warning_and_what_will_not_draw_is_named(tmp_path):
    _, with_text = logo_comp(tmp_path, data=b'<svg xmlns="http://www.w3.org/2000/svg" '
                             b'width="40" height="20"><text x="0" y="10">Hi</text></svg>')
    assert "warnings" not in with_text
    _, undrawn = logo_comp(tmp_path, data=b'<svg xmlns="http://www.w3.org/2000/svg" '
                           b'width="40" height="20"><image href="/etc/logo.png"/>'
                           b'<foreignObject/></svg>')
    assert len(undrawn["warnings"]) == 2
    assert "logo.svg: 1 reference to other files (/etc/logo.png; not drawn" in \
        undrawn["warnings"][0]
    assert "logo.svg: <foreignObject>" in undrawn["warnings"][1]


@pytest.mark.parametrize("data, words", [
    (b"<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><rect", "is not an SVG"),
    (b"just text", "is not an SVG"),
    (b"<svg xmlns='http://www.w3.org/2000/svg'><rect width='4' height='4'/></svg>",
     "has no width and height"),
])
def test_a_malformed_svg_is_refused_in_one_sentence(tmp_path, data, words):
    engine = engine_with_comp()
    with pytest.raises(CommandError) as refused:
        engine.run("footage.import", {"path": write(tmp_path, "bad.svg", data)})
    message = str(refused.value)
    assert words in message and message.count(". ") == 0 and message.endswith(".")
    assert engine.doc["footage"] == []
