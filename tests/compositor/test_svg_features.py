"""What SVG footage draws as a browser does, each against a reference the test makes: shapes
whose pixels are known (a marker's square, an embedded image's colour, a pattern's tile, a
mask's half, a drop shadow's offset, a glyph's stem measured by Skia in the same bundled font);
and what it must never read: a file named by an image's href in every spelling, by an entity,
by a filter's feImage or by CSS url()."""

import base64

import numpy as np
import pytest
import skia

from tests.helpers.engine_projects import engine_with_comp
from workers.compositor import render_frame
from workers.compositor.fonts import closest, family_faces, typeface_of

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ' \
       'width="100" height="100">'
RED, GREEN, BLUE = (255, 0, 0, 255), (0, 128, 0, 255), (0, 0, 255, 255)
CLEAR = (0, 0, 0, 0)


def drawn(tmp_path, body: str, prologue: str = "") -> np.ndarray:
    """The SVG `prologue + HEAD + body` as footage on a 100x100 comp at 100%, straight RGBA,
    transparent where it draws nothing."""
    return rendered(tmp_path, prologue + HEAD + body + "</svg>").pixels


def rendered(tmp_path, svg: str):
    """The frame of a 100x100 comp showing `svg` at 100%: the file is imported as a plain SVG,
    then replaced by `svg`, so what reaches the renderer is what the file says, whatever the
    import would make of it."""
    path = tmp_path / "drawing.svg"
    path.write_text(HEAD + "</svg>")
    engine = engine_with_comp(width=100, height=100)
    engine.run("layer.add", {"comp": "Main", "type": "image", "path": str(path)})
    path.write_text(svg)
    return render_frame(engine.doc, "Main", 0.0, transparent=True)


def region(pixels, x0, y0, x1, y1):
    return pixels[y0:y1, x0:x1].reshape(-1, 4)


def all_of(pixels, color) -> bool:
    return bool((np.abs(pixels.astype(int) - color) <= 2).all())


def png_of(color, size=4) -> bytes:
    surface = skia.Surface(size, size)
    surface.getCanvas().clear(skia.Color(*color[:3]))
    return bytes(surface.makeImageSnapshot().encodeToData())


def test_a_marker_draws_its_arrowhead_at_the_line_end(tmp_path):
    pixels = drawn(tmp_path, '<marker id="m" markerWidth="20" markerHeight="20" refX="10" '
                   'refY="10" markerUnits="userSpaceOnUse"><rect width="20" height="20" '
                   'fill="red"/></marker><path d="M10 50 H80" stroke="blue" stroke-width="2" '
                   'marker-end="url(#m)"/>')
    assert all_of(region(pixels, 72, 42, 89, 59), RED)  # the square centred on (80, 50)
    assert all_of(region(pixels, 15, 50, 65, 51), BLUE)  # the line itself
    assert all_of(region(pixels, 92, 0, 100, 100), CLEAR)


def test_an_embedded_data_image_is_drawn(tmp_path):
    data = base64.b64encode(png_of(GREEN)).decode()
    pixels = drawn(tmp_path, f'<image x="20" y="30" width="40" height="40" '
                   f'preserveAspectRatio="none" href="data:image/png;base64,{data}"/>')
    assert all_of(region(pixels, 22, 32, 58, 68), GREEN)
    assert all_of(region(pixels, 0, 0, 100, 28), CLEAR)


@pytest.mark.parametrize("attributes, first", [
    ('viewBox="0 0 2 2"', 0),  # a tile 2 units wide shown 20 px wide
    ('viewBox="0 0 2 2" x="10"', 10),  # and starting 10 px right
])
def test_a_pattern_takes_what_it_leaves_out_from_the_pattern_its_href_names(
        tmp_path, attributes, first):
    pixels = drawn(tmp_path, f'<pattern id="size" width="20" height="20" patternUnits='
                   f'"userSpaceOnUse" {attributes}/><pattern id="p" xlink:href="#size"><rect '
                   f'width="1" height="2" fill="red"/><rect x="1" width="1" height="2" '
                   f'fill="blue"/></pattern><rect width="100" height="100" fill="url(#p)"/>')
    for x in range(first, 80, 20):
        assert all_of(region(pixels, x + 1, 0, x + 9, 100), RED)
        assert all_of(region(pixels, x + 11, 0, x + 19, 100), BLUE)


def test_a_mask_keeps_what_its_white_covers(tmp_path):
    pixels = drawn(tmp_path, '<mask id="m"><rect width="50" height="100" fill="white"/></mask>'
                   '<rect width="100" height="100" fill="blue" mask="url(#m)"/>')
    assert all_of(region(pixels, 0, 0, 49, 100), BLUE)
    assert all_of(region(pixels, 51, 0, 100, 100), CLEAR)


def test_a_drop_shadow_filter_draws_the_shadow_offset(tmp_path):
    pixels = drawn(tmp_path, '<filter id="f" x="-1" y="-1" width="3" height="3"><feDropShadow '
                   'dx="20" dy="20" stdDeviation="0" flood-color="red"/></filter>'
                   '<rect x="10" y="10" width="40" height="40" fill="blue" filter="url(#f)"/>')
    assert all_of(region(pixels, 11, 11, 49, 49), BLUE)
    assert all_of(region(pixels, 51, 31, 69, 69), RED)  # the shadow beside the rect
    assert all_of(region(pixels, 31, 51, 69, 69), RED)  # and below it
    assert all_of(region(pixels, 72, 0, 100, 100), CLEAR)


@pytest.mark.parametrize("body, inside, color", [
    ('<rect width="100" height="100" fill="hsl(120, 100%, 25%)"/>', (0, 0, 100, 100),
     (0, 128, 0, 255)),
    ('<rect width="100" height="100" fill="blue" stroke="red" stroke-width="0"/>',
     (0, 0, 100, 100), BLUE),
    ('<rect width="100" height="100" fill="transparent"/>', (0, 0, 100, 100), CLEAR),
    ('<style>.a { fill: green }</style><rect class="a" width="100" height="100"/>',
     (0, 0, 100, 100), GREEN),
])
def test_colours_styles_and_zero_strokes_draw_as_written(tmp_path, body, inside, color):
    assert all_of(region(drawn(tmp_path, body), *inside), color)


# (Roboto Flex too is bundled, but a browser sets it at the optical size of the text's size,
# which the outlines Skia is given here are not.)
@pytest.fixture(params=["Noto Sans", "Amiri", "Source Sans Pro"])
def family(request):
    return request.param


def test_text_is_set_in_the_bundled_font_it_names(tmp_path, family):
    pixels = drawn(tmp_path, f'<text x="20" y="85" font-family="{family}" font-size="80" '
                   'fill="blue">Ig</text>')
    # The same glyphs' outlines from the same bundled face, filled by Skia: where they cover
    # a pixel and its neighbours wholly, the SVG is blue; where they cover none of them, clear.
    face = closest(family_faces(family), 400, False)
    font = skia.Font(typeface_of(face, 400), 80)
    blob = skia.TextBlob.MakeFromString("Ig", font)
    surface = skia.Surface(100, 100)
    surface.getCanvas().clear(skia.ColorTRANSPARENT)
    surface.getCanvas().drawTextBlob(blob, 20, 85, skia.Paint(AntiAlias=True))
    cover = surface.toarray()[..., 3]
    inside, outside = _neighbourhood(cover == 255, all), _neighbourhood(cover == 0, all)
    assert inside.sum() > 300 and outside.sum() > 5000
    assert all_of(pixels[inside], BLUE)
    assert (pixels[outside][:, 3] == 0).all()


def _neighbourhood(mask: np.ndarray, rule) -> np.ndarray:
    """Pixels for which `rule` holds over the mask in their 3x3 neighbourhood."""
    padded = np.pad(mask, 1, constant_values=False)
    shifts = [padded[1 + dy:101 + dy, 1 + dx:101 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    return np.logical_and.reduce(shifts) if rule is all else np.logical_or.reduce(shifts)


@pytest.fixture
def outside_red(tmp_path):
    """A red PNG in a folder of its own, beside the SVG's."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "red.png").write_bytes(png_of(RED, 20))
    return folder / "red.png"


@pytest.mark.parametrize("spelling", ["absolute", "file_url", "relative_to_cwd",
                                      "relative_to_svg", "entity", "feImage", "css_url"])
def test_an_svg_reads_no_other_file(tmp_path, outside_red, monkeypatch, spelling):
    monkeypatch.chdir(outside_red.parent)
    image = '<image width="100" height="100" {}="{}"/>'
    body, prologue = {
        "absolute": (image.format("href", outside_red), ""),
        "file_url": (image.format("xlink:href", f"file://{outside_red}"), ""),
        "relative_to_cwd": (image.format("href", "red.png"), ""),
        "relative_to_svg": (image.format("href", "elsewhere/red.png"), ""),
        "entity": (image.format("href", "&where;"),
                   f'<!DOCTYPE svg [<!ENTITY where "{outside_red}">]>'),
        "feImage": (f'<filter id="f" x="0" y="0" width="1" height="1"><feImage href='
                    f'"{outside_red}"/></filter><rect width="100" height="100" '
                    f'filter="url(#f)"/>', ""),
        "css_url": (f'<style>@import url({outside_red}); rect {{ fill: url({outside_red}) }}'
                    f'</style><rect width="100" height="100"/>', ""),
    }[spelling]
    pixels = drawn(tmp_path, body, prologue)
    assert not ((pixels[..., 0] > 128) & (pixels[..., 1] < 64)).any()


def test_an_external_entity_is_never_fetched(tmp_path, outside_red):
    frame = rendered(tmp_path, f'<!DOCTYPE svg [<!ENTITY leak SYSTEM "file://{outside_red}">]>'
                     + HEAD + '<text x="0" y="50">&leak;</text></svg>')
    # The document is refused rather than the entity fetched: nothing is drawn and the render
    # names the footage.
    assert (frame.pixels[..., 3] == 0).all()
    assert frame.missing == [str(tmp_path / "drawing.svg")]
