"""Paragraph boxes: wrapping inside the box, shrinking to fit it, justification, vertical
alignment; stroke, weight and font files, with pixels checked."""

import os
import shutil

import numpy as np
import pytest
import manimgx_fonts
import rendercv_fonts

from tests.helpers.compositor_documents import comp, document, text
from workers.compositor import render_frame
from workers.compositor.text_layout import lay_out

PARAGRAPH = ("The quick brown fox jumps over the lazy dog, again and again, until the "
             "paragraph has to wrap onto several lines.")
NOTO_VARIABLE = os.path.join(os.path.dirname(manimgx_fonts.__file__), "NotoSans[wght].ttf")
POPPINS = os.path.join(os.path.dirname(rendercv_fonts.__file__), "Poppins", "Poppins-Regular.ttf")


def pixels(*layers, width=400, height=300):
    return render_frame(document(comp("c", list(layers), width=width, height=height)), "c",
                        0.0).pixels


def ink(frame: np.ndarray) -> np.ndarray:
    return frame[..., :3].max(axis=2) > 0


def extent(mask: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(mask)
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def boxed(words, x, y, w, h, **content):
    """A text whose box's top-left corner is at (x, y)."""
    return text("t", words, x, y, box=[w, h], **content)


@pytest.mark.parametrize("align", ["left", "center", "right", "justify"])
def test_wrapped_lines_stay_inside_the_box(align):
    layout = lay_out({"text": PARAGRAPH, "font": "Roboto", "size": 24, "box": [220, 400],
                      "align": align})
    assert len(layout.lines) >= 4
    for line in layout.lines:
        assert line.x >= -0.01 and line.x + line.width <= 220.01
    mask = ink(pixels(boxed(PARAGRAPH, 50, 20, 220, 260, size=24, align=align,
                            verticalAlign="top")))
    x0, y0, x1, y1 = extent(mask)
    assert x0 >= 49 and x1 <= 50 + 220 + 1 and y0 >= 20
    assert x1 - x0 > 150  # lines reach across the box, not one word each


def test_every_word_is_drawn_once_when_wrapped():
    one_line = lay_out({"text": PARAGRAPH, "font": "Roboto", "size": 24})
    wrapped = lay_out({"text": PARAGRAPH, "font": "Roboto", "size": 24, "box": [220, 400]})
    ink_glyphs = lambda layout: sorted(g.gid for g in layout.glyphs if not g.space)
    assert ink_glyphs(wrapped) == ink_glyphs(one_line)
    assert len(one_line.lines) == 1


def test_a_word_wider_than_the_box_is_split_rather_than_overflowing():
    layout = lay_out({"text": "Supercalifragilisticexpialidocious", "font": "Roboto",
                      "size": 40, "box": [150, 400]})
    assert len(layout.lines) > 1
    assert all(line.width <= 150.01 for line in layout.lines)


def test_thai_wraps_between_words_without_spaces():
    layout = lay_out({"text": "ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรคระหว่างคำ", "font": "Roboto",
                      "size": 30, "box": [200, 400]})
    assert len(layout.lines) >= 2
    assert all(line.width <= 200.01 for line in layout.lines)


def test_fit_shrink_makes_the_text_fit_its_box():
    content = {"text": PARAGRAPH, "font": "Roboto", "size": 60, "box": [300, 120]}
    overflowing = lay_out(content)
    assert len(overflowing.lines) * 1.2 * 60 > 120  # at 60 px it does not fit
    fitted = lay_out({**content, "fit": "shrink"})
    assert fitted.size < 60
    assert len(fitted.lines) * 1.2 * fitted.size <= 120
    assert all(line.width <= 300.01 for line in fitted.lines)
    # The largest that fits: a little larger does not.
    bigger = lay_out({**content, "size": fitted.size * 1.05})
    assert len(bigger.lines) * 1.2 * bigger.size > 120 or \
        any(line.width > 300 for line in bigger.lines)
    mask = ink(pixels(boxed(PARAGRAPH, 50, 90, 300, 120, size=60, fit="shrink",
                            verticalAlign="top")))
    x0, y0, x1, y1 = extent(mask)
    assert 50 - 1 <= x0 and x1 <= 351 and 89 <= y0 and y1 <= 90 + 120 + 2


def test_fit_shrink_leaves_text_that_fits_alone():
    content = {"text": "Short", "font": "Roboto", "size": 40, "box": [300, 120], "fit": "shrink"}
    assert lay_out(content).size == 40


def test_justify_fills_the_width_except_the_last_line():
    layout = lay_out({"text": PARAGRAPH, "font": "Roboto", "size": 24, "box": [260, 400],
                      "align": "justify"})
    *full, last = layout.lines
    for line in full:
        assert line.x == pytest.approx(0, abs=0.01)
        assert line.width == pytest.approx(260, abs=0.01)
    ragged = lay_out({"text": PARAGRAPH, "font": "Roboto", "size": 24, "box": [260, 400],
                      "align": "left"})
    assert last.width == pytest.approx(ragged.lines[-1].width) and last.width < 259
    assert last.x == pytest.approx(0, abs=0.01)
    assert all(line.width < 259 for line in ragged.lines)  # not a trivial pass
    # And the ink of a full line reaches both edges of the box.
    frame = ink(pixels(boxed(PARAGRAPH, 40, 20, 260, 260, size=24, align="justify",
                             verticalAlign="top")))
    first_line = frame[20:int(20 + 1.2 * 24)]
    x0, _, x1, _ = extent(first_line)
    assert x0 <= 43 and x1 >= 40 + 260 - 3


def test_justified_right_to_left_text_ends_its_last_line_on_the_right():
    layout = lay_out({"text": "שלום עולם זהו טקסט ארוך שנשבר לשורות רבות בתוך התיבה",
                      "font": "Roboto", "size": 26, "box": [300, 400], "align": "justify"})
    last = layout.lines[-1]
    assert last.x + last.width == pytest.approx(300, abs=0.01) and last.x > 1


@pytest.mark.parametrize("where, expected_top", [("top", 0.0), ("middle", None),
                                                 ("bottom", None)])
def test_vertical_align_places_the_block_in_the_box(where, expected_top):
    layout = lay_out({"text": "One\nTwo", "font": "Roboto", "size": 20, "box": [200, 100],
                      "verticalAlign": where})
    block = 2 * 1.2 * 20
    top = layout.lines[0].top
    assert top == pytest.approx({"top": 0.0, "middle": (100 - block) / 2,
                                 "bottom": 100 - block}[where])


def test_a_box_is_centered_on_the_layer_position_by_default():
    from supervisor.engine.engine import Engine
    engine = Engine()
    engine.run("comp.new", {"name": "M", "width": 400, "height": 300})
    engine.run("layer.add", {"comp": "M", "type": "text", "text": PARAGRAPH, "size": 20,
                             "box": [200, 200]})
    layer = engine.doc["comps"][0]["layers"][0]
    assert layer["transform"]["anchor"] == [100.0, 100.0]
    frame = ink(render_frame(engine.snapshot()[1], "M", 0.0).pixels)
    x0, y0, x1, y1 = extent(frame)
    assert 100 - 1 <= x0 and x1 <= 300 + 1 and 50 - 1 <= y0 and y1 <= 250 + 1


def test_stroke_under_the_fill_and_over_it():
    base = dict(size=90, font="Roboto", bold=True, fill=[0, 0, 1, 1], stroke=[1, 0, 0, 1],
                strokeWidth=8)
    under = pixels(text("t", "O", 200, 150, **base))
    over = pixels(text("t", "O", 200, 150, strokeOver=True, **base))
    plain = pixels(text("t", "O", 200, 150, **{**base, "stroke": None}))
    red = lambda f: ((f[..., 0] > 200) & (f[..., 2] < 50)).sum()
    blue = lambda f: ((f[..., 2] > 200) & (f[..., 0] < 50)).sum()
    assert red(plain) == 0
    assert red(under) > 300 and red(over) > red(under)  # over covers the fill's edge too
    assert blue(under) > blue(over)
    assert ink(under).sum() > ink(plain).sum()  # the stroke reaches outside the glyph


def test_a_variable_font_file_is_drawn_at_the_weight_asked_for(tmp_path):
    regular = ink(pixels(text("t", "Weight", 200, 150, size=60, fontFile=NOTO_VARIABLE)))
    bold = ink(pixels(text("t", "Weight", 200, 150, size=60, fontFile=NOTO_VARIABLE,
                           weight=700)))
    middle = ink(pixels(text("t", "Weight", 200, 150, size=60, fontFile=NOTO_VARIABLE,
                             weight=550)))
    assert regular.sum() * 1.2 < middle.sum() < bold.sum()


def test_a_font_file_is_drawn_as_that_font_not_the_family(tmp_path):
    copy = tmp_path / "mine.ttf"
    shutil.copy(POPPINS, copy)
    from_file = ink(pixels(text("t", "Fonts", 200, 150, size=50, fontFile=str(copy),
                                font="Roboto")))
    poppins = ink(pixels(text("t", "Fonts", 200, 150, size=50, font="Poppins")))
    roboto = ink(pixels(text("t", "Fonts", 200, 150, size=50, font="Roboto")))
    assert (from_file == poppins).all() and (from_file != roboto).any()


def test_a_woff2_font_file_is_drawn_like_its_ttf(tmp_path):
    from fontTools.ttLib import TTFont
    font = TTFont(POPPINS)
    font.flavor = "woff2"
    woff2 = tmp_path / "poppins.woff2"
    font.save(str(woff2))
    from_woff2 = ink(pixels(text("t", "Fonts", 200, 150, size=50, fontFile=str(woff2))))
    poppins = ink(pixels(text("t", "Fonts", 200, 150, size=50, font="Poppins")))
    assert (from_woff2 == poppins).all()


def test_a_missing_font_file_draws_the_default_family():
    missing = ink(pixels(text("t", "Fonts", 200, 150, size=50, fontFile="/no/such/font.ttf")))
    roboto = ink(pixels(text("t", "Fonts", 200, 150, size=50, font="Roboto")))
    assert (missing == roboto).all()


def test_a_text_that_does_not_change_is_laid_out_once():
    content = {"text": PARAGRAPH, "font": "Roboto", "size": 24, "box": [220, 400],
               "fill": {"keys": [{"time": 0, "value": [1, 1, 1, 1]},
                                 {"time": 1, "value": [1, 0, 0, 1]}]}}
    first = lay_out(content, 0.0)
    assert lay_out(content, 0.5) is first  # the fill moves, the layout does not
    moved = lay_out({**content, "size": {"keys": [{"time": 0, "value": 24},
                                                  {"time": 1, "value": 30}]}}, 0.5)
    assert moved is not first and moved.size == 27


def test_giving_a_text_a_box_later_keeps_it_centered_where_it_was():
    from supervisor.engine.engine import Engine
    engine = Engine()
    engine.run("comp.new", {"name": "M", "width": 400, "height": 300})
    engine.run("layer.add", {"comp": "M", "type": "text", "text": "Hi", "name": "T"})
    engine.run("layer.set", {"comp": "M", "layer": "T", "box": [200, 100]})
    layer = engine.doc["comps"][0]["layers"][0]
    assert layer["transform"]["anchor"] == [100.0, 100.0 / 2]
    engine.run("layer.set", {"comp": "M", "layer": "T", "anchor": [0, 0]})
    engine.run("layer.set", {"comp": "M", "layer": "T", "box": [300, 100]})
    assert layer["transform"]["anchor"] == [0, 0]  # moved by hand: left alone


def test_a_broken_link_or_a_bad_file_among_system_fonts_is_skipped(tmp_path):
    from workers.compositor.fonts import _index
    shutil.copy(POPPINS, tmp_path / "Poppins.ttf")
    (tmp_path / "broken.ttf").symlink_to(tmp_path / "gone.ttf")
    (tmp_path / "notes.otf").write_bytes(b"not a font")
    index = _index((str(tmp_path),), "system")
    assert list(index) == ["poppins"] and index["poppins"][0].source == "system"
