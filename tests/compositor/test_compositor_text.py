"""Text layers: glyphs inside their box, alignment, lines, tracking, fonts by family name."""

import os

import numpy as np
import pytest
import rendercv_fonts
import skia

from tests.helpers.compositor_documents import comp, document, text
from workers.compositor import render_frame

ROBOTO = os.path.join(os.path.dirname(rendercv_fonts.__file__), "Roboto", "Roboto-Regular.ttf")


def ink(*layers, width=320, height=180) -> np.ndarray:
    doc = document(comp("c", list(layers), width=width, height=height))
    return render_frame(doc, "c", 0.0).pixels[..., 0] > 0


def extent(mask: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(mask)
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def advance_width(words: str, size: float) -> float:
    """The line's width by an independent measure: Skia's own, from the font file."""
    font = skia.Font(skia.Typeface.MakeFromFile(ROBOTO), size)
    font.setLinearMetrics(True)
    font.setSubpixel(True)
    font.setHinting(skia.FontHinting.kNone)
    return font.measureText(words)


def test_text_puts_glyph_pixels_inside_its_box_and_none_outside():
    words, size = "Hello World", 32
    mask = ink(text("t", words, 160, 90, size=size))
    width, height = advance_width(words, size), 1.2 * size
    box = np.zeros_like(mask)
    box[int(90 - height / 2) - 1:int(90 + height / 2) + 2,
        int(160 - width / 2) - 1:int(160 + width / 2) + 2] = True
    assert mask.sum() > 500
    assert not (mask & ~box).any()
    x0, y0, x1, y1 = extent(mask)
    # And it fills the box's width: no glyph is missing at either end.
    assert x0 <= 160 - width / 2 + 4 and x1 >= 160 + width / 2 - 4


@pytest.mark.parametrize("align", ["left", "right"])
def test_alignment_point_is_the_left_or_right_edge(align):
    x0, _, x1, _ = extent(ink(text("t", "Align me", 160, 90, align=align)))
    if align == "left":
        assert 159 <= x0 <= 163 and x1 > 200
    else:
        assert 157 <= x1 <= 161 and x0 < 120


def test_lines_stack_down_from_a_block_centered_on_the_position():
    one = extent(ink(text("t", "Line", 160, 90, size=24)))
    two = extent(ink(text("t", "Line\nLine", 160, 90, size=24)))
    spaced = extent(ink(text("t", "Line\nLine", 160, 90, size=24, lineHeight=2.0)))
    # A second line adds one line height (1.2 x 24), split above and below the center.
    assert (two[3] - two[1]) - (one[3] - one[1]) == pytest.approx(28.8, abs=1.5)
    assert (spaced[3] - spaced[1]) - (one[3] - one[1]) == pytest.approx(48, abs=1.5)
    assert abs((two[1] + two[3]) / 2 - (one[1] + one[3]) / 2) <= 2


def test_tracking_adds_space_between_every_pair_of_characters():
    plain = extent(ink(text("t", "abcde", 160, 90)))
    tracked = extent(ink(text("t", "abcde", 160, 90, tracking=10)))
    assert (tracked[2] - tracked[0]) - (plain[2] - plain[0]) == pytest.approx(40, abs=2)


def test_text_is_drawn_in_its_fill_color_and_fades_with_opacity():
    layer = text("t", "I", 160, 90, size=120, fill=[1, 0.5, 0, 1])
    pixels = render_frame(document(comp("c", [layer], width=320, height=180)), "c", 0.0).pixels
    assert (pixels[90, 155:166, :3] == [255, 128, 0]).all(axis=1).any()
    faded = text("t", "I", 160, 90, size=120, fill=[1, 0.5, 0, 1], opacity=50)
    pixels = render_frame(document(comp("c", [faded], width=320, height=180)), "c", 0.0).pixels
    assert pixels[..., 0].max() == pytest.approx(128, abs=1)


def test_unknown_family_falls_back_to_the_default_instead_of_failing():
    fallback = ink(text("t", "Fallback", 160, 90, font="No Such Family"))
    roboto = ink(text("t", "Fallback", 160, 90, font="Roboto"))
    assert (fallback == roboto).all()


def test_families_are_found_by_name_in_the_bundled_fonts():
    lato = ink(text("t", "Fonts", 160, 90, font="Lato"))
    poppins = ink(text("t", "Fonts", 160, 90, font="poppins"))
    roboto = ink(text("t", "Fonts", 160, 90, font="Roboto"))
    assert lato.sum() > 0 and (lato != roboto).any() and (poppins != roboto).any()


def test_bold_puts_down_more_ink_than_regular():
    regular = ink(text("t", "Weight", 160, 90))
    bold = ink(text("t", "Weight", 160, 90, bold=True))
    assert bold.sum() > regular.sum() * 1.1


def test_system_families_are_found_in_the_font_folders_after_the_bundled_ones():
    from workers.compositor.fonts import typeface
    if not os.path.exists("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"):
        pytest.skip("no DejaVu Sans among this machine's fonts")
    assert typeface("DejaVu Sans").getFamilyName() == "DejaVu Sans"
    # A bundled family wins over a system font of the same name, so every node agrees.
    assert typeface("Roboto").getFamilyName() == "Roboto"
    # A generic name is not a family: it falls back to the default, not to fontconfig's pick.
    assert typeface("sans-serif").getFamilyName() == "Roboto"


def test_characters_the_family_lacks_come_from_a_fallback_face():
    # Roboto has no Chinese: the two characters must be drawn (from the bundled Noto Sans SC)
    # exactly as that family draws them, not as empty boxes.
    from workers.compositor.fonts import typeface
    assert typeface("Roboto").unicharToGlyph(ord("你")) == 0
    mixed = ink(text("t", "ab你好", 160, 90, font="Roboto", align="left", size=40))
    latin = ink(text("t", "ab", 160, 90, font="Roboto", align="left", size=40))
    assert (mixed[:, :170] == latin[:, :170]).all()  # the Latin run is unchanged
    width = advance_width("ab", 40)
    chinese = ink(text("t", "你好", 160 + width, 90, font="Noto Sans SC", align="left", size=40))
    right = int(160 + width) + 2
    ours, reference = mixed[:, right:], chinese[:, right:]
    assert ours.sum() > 300
    # Same glyph shapes; the line's baseline is Roboto's, so compare the ink's own boxes.
    x0, y0, x1, y1 = extent(ours)
    rx0, ry0, rx1, ry1 = extent(reference)
    assert (x1 - x0, y1 - y0) == (rx1 - rx0, ry1 - ry0)
    assert (ours[y0:y1, x0:x1] == reference[ry0:ry1, rx0:rx1]).mean() > 0.98
